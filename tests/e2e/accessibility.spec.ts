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
