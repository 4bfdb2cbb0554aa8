import type { APIRequestContext, Page } from "@playwright/test";
import { classesIn } from "../../app/platform/page-stylesheet.server";
import { expect, test, waitForHydration } from "./support/fixtures";

// A public page's inline stylesheet holds only the utility rules its own markup uses. Proof that
// nothing it needs is missing: adding the whole stylesheet to the page changes the computed style
// of no element. Before its scripts run the page can change only by what its HTML already holds
// (a <details> opening, a field focused), and hydration loads the whole sheet first, so a
// client-side render (the next page) is styled too. Its icon sprite is cut the same way: the page
// holds the symbols its icons draw, no other, and hydration makes the sprite whole first.

const INLINE_SHEET = /<style id="document-html-stylesheet"[^>]*>([\s\S]*?)<\/style>/;

/** The whole stylesheet, as a page that is not cut to its own (a not-found page) carries it. */
async function wholeStylesheet(request: APIRequestContext) {
  const response = await request.get(`/no-such-page-${Date.now()}`);
  expect(response.status()).toBe(404);
  const html = await response.text();
  expect(html).not.toContain("data-page-only");
  return INLINE_SHEET.exec(html)![1]!;
}

/**
 * The elements whose computed style (styled pseudo-elements' included) changes when the whole stylesheet
 * is added to the page, with the first property that changed: none, when the page had every rule
 * it uses.
 */
function changedByWholeStylesheet(page: Page, css: string) {
  return page.evaluate((css) => {
    // A pseudo-element inherits what its element has; only a `before:`/`after:` class styles it apart.
    const boxes = [...document.body.querySelectorAll("*")].flatMap((element) => [
      { element, pseudo: "" },
      ...["before", "after"]
        .filter((pseudo) => [...element.classList].some((name) => name.startsWith(`${pseudo}:`)))
        .map((pseudo) => ({ element, pseudo: `::${pseudo}` })),
    ]);
    // Property names in the order the browser lists them, the same for every element.
    const properties = [...getComputedStyle(document.body)];
    const snapshot = () =>
      boxes.map(({ element, pseudo }) => {
        const style = getComputedStyle(element, pseudo || null);
        return properties.map((property) => style.getPropertyValue(property));
      });
    const before = snapshot();
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
    const after = snapshot();
    return before.flatMap((values, index) => {
      const changed = values.findIndex((value, property) => after[index]![property] !== value);
      if (changed === -1) return [];
      const { element, pseudo } = boxes[index]!;
      const where = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${[...element.classList].join(".")}`;
      return [`${where}${pseudo} ${properties[changed]}: ${values[changed]} → ${after[index]![changed]}`];
    });
  }, css);
}

/** The page's icons (<use> references) and the symbols its sprite holds, by id. */
const HOME_HEADING = "Private AI Compliance, Security and Governance Platform";

function iconsAndSymbols(page: Page) {
  return page.evaluate(() => {
    const sprite = document.getElementById("document-html-icons")!;
    return {
      cut: sprite.hasAttribute("data-page-only"),
      used: [...new Set([...document.querySelectorAll("use")].map((use) => use.getAttribute("href")!.replace(/^#/, "")))].sort(),
      symbols: [...sprite.querySelectorAll("symbol")].map((symbol) => symbol.id).sort(),
      // A symbol must be found by its id in the document, and be the sprite's.
      unresolved: [...document.querySelectorAll("use")]
        .map((use) => use.getAttribute("href")!)
        .filter((href) => document.getElementById(href.slice(1))?.closest("#document-html-icons") !== sprite),
    };
  });
}

/** The number of symbols in the whole sprite, as a page that is not cut (a not-found page) carries it. */
async function wholeSpriteSize(request: APIRequestContext) {
  const html = await (await request.get(`/no-such-page-${Date.now()}`)).text();
  const sprite = /<svg id="document-html-icons"[^>]*>([\s\S]*?)<\/svg>/.exec(html)![1]!;
  return [...sprite.matchAll(/<symbol\b/g)].length;
}

/** Every page the sitemap lists, and the careers page with its form open. */
async function publicPages(request: APIRequestContext) {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  expect(paths.length).toBeGreaterThan(10);
  return [...paths, "/company/careers?apply=1"];
}

test.describe("without its scripts", () => {
  test.use({ javaScriptEnabled: false, reducedMotion: "reduce" });

  for (const [name, viewport] of [
    ["a wide screen", { width: 1280, height: 800 }],
    ["a phone", { width: 390, height: 844 }],
  ] as const) {
    test(`every public page on ${name} carries only the styles and icons it uses, and all of them`, async ({ page, request }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      const whole = await wholeStylesheet(request);
      const spriteRequests: string[] = [];
      page.on("request", (request) => {
        if (/\/assets\/icons-[^/]+\.svg/.test(request.url())) spriteRequests.push(request.url());
      });
      // Another language's pages are the same parts with other words: every one on the wide screen,
      // its home on the phone (the phone's rules are the same classes' at another width).
      const pages = (await publicPages(request)).filter((path) => name === "a wide screen" || !path.startsWith("/de/"));
      // A rule of the whole sheet can only reach an element through one of its classes, so a page
      // whose elements carry the same classes as one already compared, under the same inline sheet,
      // gets the same answer: such a page (another language's, mostly) is not compared again.
      const compared = new Set<string>();
      for (const path of pages) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        const inline = await page.locator("#document-html-stylesheet").evaluate((style) => ({
          cut: style.hasAttribute("data-page-only"),
          length: style.textContent?.length ?? 0,
          sameAs: `${[...new Set([...document.querySelectorAll("[class]")].flatMap((element) => [...element.classList]))].sort().join(" ")}\n${style.textContent}`,
        }));
        expect(inline.cut, path).toBe(true);
        expect(inline.length, path).toBeLessThan(whole.length * 0.8);
        if (!compared.has(inline.sameAs)) {
          expect(await changedByWholeStylesheet(page, whole), path).toEqual([]);
          compared.add(inline.sameAs);
        }
        const icons = await iconsAndSymbols(page);
        expect(icons.cut, path).toBe(true);
        expect(icons.used.length, path).toBeGreaterThan(0);
        expect(icons.unresolved, path).toEqual([]);
        expect(icons.symbols, path).toEqual(icons.used);
      }
      // The icons are drawn from the page itself: no page asked for the sprite file.
      expect(spriteRequests).toEqual([]);
    });
  }
});

test("hydration puts the whole stylesheet in place first: the next page a click renders is styled", async ({ page, request }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const whole = await wholeStylesheet(request);
  await page.goto("/terms/privacy-policy");
  // The home page uses classes the legal page has not: its rules are not in this page's sheet.
  const legalClasses = classesIn(await (await request.get("/terms/privacy-policy")).text());
  const homeOnly = [...classesIn(await (await request.get("/")).text())].filter((name) => !legalClasses.has(name));
  expect(homeOnly.length).toBeGreaterThan(5);
  await waitForHydration(page);
  const linked = await page.evaluate(() =>
    [...document.styleSheets]
      .filter((sheet) => sheet.href && /\/assets\/app-[^/]+\.css$/.test(sheet.href))
      .map((sheet) => sheet.cssRules.length),
  );
  expect(linked).toHaveLength(1);
  expect(linked[0]).toBeGreaterThan(0);
  await page.getByRole("banner").getByRole("link", { name: /home/i }).first().click();
  await expect(page).toHaveURL(/\/$/);
  // The address changes before the new page is drawn: wait for the home page's own heading.
  await expect(page.getByRole("heading", { level: 1, name: HOME_HEADING })).toBeVisible();
  expect(await changedByWholeStylesheet(page, whole)).toEqual([]);
});

test("hydration makes the page's icon sprite whole first: the next page a click renders has its icons", async ({
  page,
  request,
}) => {
  const whole = await wholeSpriteSize(request);
  await page.goto("/terms/privacy-policy");
  const legal = await iconsAndSymbols(page);
  expect(legal.cut).toBe(true);
  expect(legal.symbols.length).toBeLessThan(whole);
  // The page's own symbols stay the same elements: its icons are not drawn again.
  const own = legal.symbols[0]!;
  await page.evaluate((id) => ((window as unknown as { ownSymbol?: Element }).ownSymbol = document.getElementById(id)!), own);
  await waitForHydration(page);
  const hydrated = await iconsAndSymbols(page);
  expect(hydrated.cut).toBe(false);
  expect(hydrated.symbols).toHaveLength(whole);
  expect(
    await page.evaluate((id) => (window as unknown as { ownSymbol?: Element }).ownSymbol === document.getElementById(id), own),
  ).toBe(true);
  // The home page draws icons the legal page does not.
  await page.getByRole("banner").getByRole("link", { name: /home/i }).first().click();
  await expect(page).toHaveURL(/\/$/);
  // The address changes before the new page is drawn: wait for the home page's own heading.
  await expect(page.getByRole("heading", { level: 1, name: HOME_HEADING })).toBeVisible();
  const home = await iconsAndSymbols(page);
  expect(home.used.filter((id) => !legal.symbols.includes(id)).length).toBeGreaterThan(3);
  expect(home.unresolved).toEqual([]);
});

test("a sprite file that fails to load leaves the page's own icons, and the page still hydrates", async ({
  page,
  consoleErrors,
}) => {
  await page.route(/\/assets\/icons-[^/]+\.svg$/, (route) => route.abort("connectionfailed"));
  await page.goto("/terms/privacy-policy");
  const before = await iconsAndSymbols(page);
  await waitForHydration(page);
  const after = await iconsAndSymbols(page);
  expect(after).toEqual(before);
  expect(after.unresolved).toEqual([]);
  // Hydrated: a click is now a client-side navigation (the window stays the same).
  await page.evaluate(() => ((window as unknown as { samePage?: boolean }).samePage = true));
  await page.getByRole("banner").getByRole("link", { name: /home/i }).first().click();
  await expect(page).toHaveURL(/\/$/);
  // The address changes before the new page is drawn: wait for the home page's own heading.
  await expect(page.getByRole("heading", { level: 1, name: HOME_HEADING })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  // The failed loads, and nothing else, were reported: expected here, so not a failure of the test.
  expect(consoleErrors.length).toBeGreaterThan(0);
  expect(consoleErrors.filter((error) => error !== "Failed to load resource: net::ERR_CONNECTION_FAILED")).toEqual([]);
  consoleErrors.length = 0;
});
