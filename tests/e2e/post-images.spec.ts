import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// Post images come in any shape (the sample content has a 1.9:1 diagram, a 3:1 timeline and a 3:2
// photograph drawn as a <picture> of its variants).
// Wherever one is shown (cards, the featured card, the post page) it is seen whole: never cropped
// to fill its box, nor cut off by a card that clips its content.
const pages: { path: string; posts: (page: Page) => Locator; images: number }[] = [
  { path: "/", posts: (page) => page.getByRole("region", { name: "Latest Insights" }), images: 1 },
  { path: "/resources/blog", posts: (page) => page.getByRole("main"), images: 3 },
  { path: "/resources/blog/eu-ai-act-readiness-checklist", posts: (page) => page.getByRole("article"), images: 1 },
  { path: "/resources/blog/data-residency-for-ai-workloads", posts: (page) => page.getByRole("article"), images: 2 },
];

/** How an image is drawn: its object-fit, content-box and natural aspect ratios, and what clips it. */
function geometry(image: HTMLImageElement) {
  const style = getComputedStyle(image);
  const box = image.getBoundingClientRect();
  const px = (value: string) => parseFloat(value) || 0;
  const width =
    box.width - px(style.paddingLeft) - px(style.paddingRight) - px(style.borderLeftWidth) - px(style.borderRightWidth);
  const height =
    box.height - px(style.paddingTop) - px(style.paddingBottom) - px(style.borderTopWidth) - px(style.borderBottomWidth);
  // An ancestor that hides its overflow cuts off whatever part of the image lies outside it.
  const clippedBy: string[] = [];
  for (let parent = image.parentElement; parent; parent = parent.parentElement) {
    const { overflowX, overflowY } = getComputedStyle(parent);
    if (overflowX === "visible" && overflowY === "visible") continue;
    const edge = parent.getBoundingClientRect();
    const inside =
      box.left >= edge.left - 1 && box.right <= edge.right + 1 && box.top >= edge.top - 1 && box.bottom <= edge.bottom + 1;
    if (!inside) clippedBy.push(`<${parent.tagName.toLowerCase()} class="${parent.className}">`);
  }
  return {
    src: image.getAttribute("src"),
    objectFit: style.objectFit,
    boxRatio: width / height,
    imageRatio: image.naturalWidth / image.naturalHeight,
    clippedBy,
  };
}

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["390 px phone", { width: 390, height: 844 }],
] as const) {
  test.describe(label, () => {
    test.use({ viewport });
    for (const { path, posts, images: atLeast } of pages) {
      test(`${path} shows every post image whole`, async ({ page }) => {
        await page.goto(path);
        const images = posts(page).locator("img");
        await expect(images.nth(atLeast - 1)).toBeAttached();
        for (const image of await images.all()) {
          // Lazy images load once scrolled to; natural sizes are known only then.
          await image.scrollIntoViewIfNeeded();
          await expect
            .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
            .toBe(true);
          const shown = await image.evaluate(geometry);
          const scaledWhole = shown.objectFit === "contain" || shown.objectFit === "scale-down";
          if (!scaledWhole) {
            // Any other fit shows the whole image only in a box of the image's own shape.
            expect(
              Math.abs(shown.boxRatio / shown.imageRatio - 1),
              `${shown.src}: object-fit ${shown.objectFit}, box ${shown.boxRatio.toFixed(3)} vs image ${shown.imageRatio.toFixed(3)}`,
            ).toBeLessThanOrEqual(0.01);
          }
          expect(shown.clippedBy, `${shown.src}: cut off by`).toEqual([]);
        }
      });
    }
  });
}
