import { readdirSync, readFileSync } from "node:fs";
import { expect, expectAccessible, test } from "./support/fixtures";

// The data-backed and form pages at desktop and phone width (the static pages have their own
// table in static-pages.spec.ts, and the home page is scanned with its pictures at both widths in
// visuals.spec.ts). Each page: axe clean, one h1, no sideways scrolling, and a title and
// description of its own. These are the form and legal pages' own scans at rest: their feature
// specs scan only the states they reach (errors shown, a dialog open).
const routes = [
  "/contact-sales",
  "/request-demo",
  "/company/careers?apply=1",
  "/resources/blog",
  "/resources/blog/ai-governance-operating-model",
  "/terms/privacy-policy",
  "/terms/terms-of-use",
  "/no-such-page",
];

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["390 px phone", { width: 390, height: 844 }],
] as const) {
  test.describe(label, () => {
    test.use({ viewport });
    for (const path of routes) {
      test(`${path} is accessible`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        await expectAccessible(page, `${path} ${label}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, "horizontal overflow in px").toBe(0);
      });
    }
  });
}

test("data-backed pages have their own title and description", async ({ request }) => {
  const seen = new Map<string, string>();
  for (const path of ["/", ...routes.filter((path) => !path.includes("?") && path !== "/no-such-page")]) {
    const html = await (await request.get(path)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
    expect(title, path).not.toBe("");
    expect(description, path).not.toBe("");
    for (const key of [title, description]) {
      expect(seen.get(key), `${path} repeats ${key}`).toBeUndefined();
      seen.set(key, path);
    }
  }
});

// Every German page (the sample's pages and posts, the forms, the legal pages, the blog, a 404) at
// desktop width: axe clean with one h1. The phone width and the overflow checks are the English
// pages' (the frame and the blocks are the same parts; German words are longer, which is what
// the desktop scan of every page and the phone scan of the home below are for).
const germanPages = [
  ...readdirSync("content/pages/de").map((file) => /^path: (\S+)$/m.exec(readFileSync(`content/pages/de/${file}`, "utf8"))![1]!),
  ...readdirSync("content/posts/de").map((file) => `/de/ressourcen/blog/${file.replace(/\.md$/, "")}`),
  "/de/ressourcen/blog",
  "/de/vertrieb-kontaktieren",
  "/de/demo-anfordern",
  "/de/rechtliches/datenschutzerklaerung",
  "/de/rechtliches/nutzungsbedingungen",
  "/de/gibt-es-nicht",
];

test.describe("in German", () => {
  for (const path of germanPages) {
    test(`${path} is accessible`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectAccessible(page, `${path} German`);
    });
  }

  test("the German home fits a 390 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/de");
    await expectAccessible(page, "/de phone");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "horizontal overflow in px").toBe(0);
  });
});
