import type { Page } from "@playwright/test";
import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";

/** The list items of the section whose heading is `heading` (sections are labelled regions). */
function listItems(page: Page, heading: string) {
  return page.getByRole("region", { name: heading, exact: true }).getByRole("listitem");
}

type StaticPage = { path: string; h1: string; check: (page: Page) => Promise<void> };

/** Every static page with the content that must be on it. */
const pages: StaticPage[] = [
  {
    path: "/company/about",
    h1: "About Quorvant",
    check: async (page) => {
      const stats = listItems(page, "Quorvant in numbers");
      await expect(stats).toHaveCount(4);
      for (const [value, label] of [
        ["2024", "Founded"],
        ["50+", "Team members"],
        ["1000+", "Customers"],
        ["99.9%", "Uptime"],
      ] as const) {
        await expect(stats.filter({ hasText: label })).toHaveText(`${value}${label}`);
      }
      await expect(page.getByRole("heading", { level: 2, name: "Our story" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 3, name: "Our mission" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 3, name: "Our vision" })).toBeVisible();
      await expect(listItems(page, "Our values")).toHaveCount(6);
    },
  },
  {
    path: "/company/careers",
    h1: "Build the future of private AI at Quorvant",
    check: async (page) => {
      await expect(listItems(page, "Benefits")).toHaveCount(6);
      await expect(listItems(page, "Open roles")).toHaveCount(4);
      await expect(page.getByRole("link", { name: "Apply Now" })).toHaveAttribute("href", "/company/careers?apply=1");
    },
  },
  {
    path: "/company/brand",
    h1: "Quorvant brand",
    check: async (page) => {
      await expect(page.getByRole("heading", { level: 2, name: "Brand guidelines" })).toBeVisible();
      const usage = page.getByRole("region", { name: "Logo usage" });
      await expect(usage.getByRole("heading", { level: 3, name: "Do", exact: true })).toBeVisible();
      await expect(usage.getByRole("heading", { level: 3, name: "Don't" })).toBeVisible();
      const assets = listItems(page, "Brand assets");
      await expect(assets).toHaveCount(4);
      for (const title of ["Logo Package", "Colour Palette", "Typography Guide", "Brand Guidelines"]) {
        const card = assets.filter({ has: page.getByRole("heading", { level: 3, name: title, exact: true }) });
        await expect(card.getByRole("button", { name: `Download ${title}`, exact: true })).toBeVisible();
      }
    },
  },
  {
    path: "/company/charter",
    h1: "The Quorvant charter",
    check: async (page) => {
      await expect(page.getByRole("region", { name: "Mission statement" }).locator("blockquote")).toContainText(
        "Quorvant exists to",
      );
      await expect(listItems(page, "Core principles")).toHaveCount(5);
      const commitments = listItems(page, "Stakeholder commitments");
      await expect(commitments).toHaveCount(5);
      await expect(commitments.getByRole("heading", { level: 3 })).toHaveText([
        "Customers",
        "Employees",
        "Partners",
        "Regulators",
        "Society",
      ]);
    },
  },
  {
    path: "/products/sentinel",
    h1: "Sentinel keeps your AI private, secure and compliant",
    check: async (page) => {
      await expect(listItems(page, "What Sentinel does")).toHaveCount(6);
      const demoLinks = page.getByRole("main").getByRole("link", { name: "Request Demo" });
      await expect(demoLinks.first()).toBeVisible();
      for (const link of await demoLinks.all()) await expect(link).toHaveAttribute("href", "/request-demo");
    },
  },
  {
    path: "/resources",
    h1: "Resources hub",
    check: async (page) => {
      const explore = page.getByRole("region", { name: "Explore" });
      await expect(explore.getByRole("heading", { level: 3 })).toHaveCount(4);
      for (const [name, href] of [
        ["Documentation", "/resources/documentation"],
        ["API Reference", "/resources/api"],
        ["Blog", "/resources/blog"],
        ["Support", "/resources/support"],
      ] as const) {
        await expect(explore.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
      }
      const downloads = listItems(page, "Downloads");
      await expect(downloads).toHaveCount(3);
      await expect(downloads.getByRole("button", { name: /^Download / })).toHaveCount(3);
    },
  },
  {
    path: "/resources/documentation",
    h1: "Sentinel documentation",
    check: async (page) => {
      await expect(listItems(page, "Documentation index")).toHaveCount(6);
      const code = page.locator("pre > code");
      await expect(code).toContainText('import { Sentinel } from "@quorvant/sentinel";');
      await expect(code).toContainText("sentinel.scans.create(");
    },
  },
  {
    path: "/resources/support",
    h1: "How can we help?",
    check: async (page) => {
      await expect(page.getByRole("searchbox", { name: "Search the help centre" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Search", exact: true })).toBeVisible();
      const channels = listItems(page, "Contact support");
      await expect(channels).toHaveCount(4);
      await expect(channels.filter({ hasText: "Live chat" })).toContainText("under 2 minutes");
      await expect(channels.filter({ hasText: "Email" })).toContainText("under 4 hours");
      await expect(listItems(page, "Popular articles")).toHaveCount(6);
      const status = page.getByRole("region", { name: "System status" });
      await expect(status).toContainText("All systems operational");
      await expect(status.getByRole("listitem").filter({ hasText: "99.99% uptime over the last 30 days" })).toHaveCount(1);
      await expect(status.getByRole("listitem").filter({ hasText: "45 ms average response time" })).toHaveCount(1);
    },
  },
  {
    path: "/resources/api",
    h1: "API reference",
    check: async (page) => {
      const endpoints = listItems(page, "Endpoints");
      await expect(endpoints).toHaveCount(6);
      for (const item of await endpoints.all()) await expect(item).toHaveText(/^(GET|POST|PUT|DELETE)\/\S+ \S/);
      await expect(page.getByRole("main")).toContainText("https://api.quorvant.com/v1");
    },
  },
  {
    path: "/community",
    h1: "The Quorvant community",
    check: async (page) => {
      await expect(listItems(page, "Community at a glance")).toHaveCount(4);
      await expect(listItems(page, "Ways to connect")).toHaveCount(3);
      const events = listItems(page, "Upcoming events");
      await expect(events).toHaveCount(3);
      for (const event of await events.all()) {
        const title = await event.getByRole("heading", { level: 3 }).innerText();
        await expect(event.getByRole("button", { name: `Register for ${title}`, exact: true })).toBeVisible();
      }
    },
  },
  {
    path: "/terms/legal",
    h1: "Legal",
    check: async (page) => {
      const badges = listItems(page, "Compliance");
      await expect(badges.getByRole("heading", { level: 3 })).toHaveText(["SOC 2 Type II", "GDPR", "ISO 27001"]);
      const documents = page.getByRole("region", { name: "Policies and terms" });
      for (const [name, href] of [
        ["Privacy Policy", "/terms/privacy-policy"],
        ["Terms of Use", "/terms/terms-of-use"],
        ["Trust & Transparency", "/terms/trust-transparency"],
      ] as const) {
        await expect(documents.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
      }
    },
  },
  {
    path: "/terms/trust-transparency",
    h1: "Trust & Transparency",
    check: async (page) => {
      await expect(listItems(page, "Security practices")).toHaveCount(6);
      await expect(listItems(page, "Data handling")).toHaveCount(5);
      await expect(listItems(page, "Subprocessors")).toHaveCount(4);
      const disclosure = page.getByRole("region", { name: "Responsible disclosure" });
      await expect(disclosure.getByRole("link", { name: "security@quorvant.com" })).toHaveAttribute(
        "href",
        "mailto:security@quorvant.com",
      );
    },
  },
];

/** Placeholder buttons are real and focusable, and pressing one changes nothing at all. */
const inertButtons: Record<string, { name: RegExp; count: number }> = {
  "/company/brand": { name: /^Download /, count: 4 },
  "/resources": { name: /^Download /, count: 3 },
  "/community": { name: /^Register for /, count: 3 },
  "/resources/support": { name: /^Search$/, count: 1 },
};

/**
 * Presses each of the page's placeholder buttons (with the mouse, then Enter) once it has hydrated:
 * each keeps the focus, and none changes the address or the page or sends a request.
 */
async function expectInertButtons(page: Page, path: string, { name, count }: { name: RegExp; count: number }) {
  await waitForHydration(page);
  const main = page.getByRole("main");
  const buttons = main.getByRole("button", { name });
  await expect(buttons).toHaveCount(count);
  if (path === "/resources/support") await page.getByRole("searchbox", { name: "Search the help centre" }).fill("single sign-on");

  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const url = page.url();
  const before = await main.innerHTML();
  const nextFrames = () =>
    page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  for (const button of await buttons.all()) {
    await button.focus();
    await expect(button).toBeFocused();
    await button.click();
    await page.keyboard.press("Enter");
    await nextFrames();
    expect(page.url()).toBe(url);
    expect(await main.innerHTML()).toBe(before);
    await expect(button).toBeFocused();
  }
  // Give a late handler, navigation or render (of any of them) a chance to happen, once for all.
  await page.waitForTimeout(200);
  await nextFrames();
  expect(page.url()).toBe(url);
  expect(await main.innerHTML()).toBe(before);
  await expect(buttons.last()).toBeFocused();
  expect(requests, "requests made by pressing the buttons").toEqual([]);
  if (path === "/resources/support")
    await expect(page.getByRole("searchbox", { name: "Search the help centre" })).toHaveValue("single sign-on");
}

// The product page's accessibility at both widths is checked with its pictures, on the same
// markup, in visuals.spec.ts.
const scannedWithItsPictures = new Set(["/products/sentinel"]);

for (const { path, h1, check } of pages) {
  const buttons = inertButtons[path];
  const pressed = buttons ? `; its ${buttons.name.source.replace(/[\^$]/g, "").trim()} buttons are focusable and do nothing` : "";
  test(`${path} answers 200 and shows its content${pressed}`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toContain("text/html");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
    await check(page);
    if (!scannedWithItsPictures.has(path)) await expectAccessible(page, `${path} desktop`);
    if (buttons) await expectInertButtons(page, path, buttons);
  });
}

test.describe("at a 390 px wide viewport", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const { path, h1 } of pages.filter(({ path }) => !scannedWithItsPictures.has(path))) {
    test(`${path} is accessible and does not scroll sideways`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await expectAccessible(page, `${path} mobile`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "horizontal overflow in px").toBe(0);
    });
  }
});

test("every static page has a unique title and description and a canonical URL of its own", async ({ request }) => {
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  // The home page is not in the table but must not share a title or description with it either.
  for (const path of ["/", ...pages.map((page) => page.path)]) {
    const html = await (await request.get(path)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
    const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
    expect(title, `${path} title`).toBeTruthy();
    expect(description, `${path} description`).toBeTruthy();
    expect(description!.length, `${path} description length`).toBeGreaterThan(50);
    expect(titles.get(title!), `${path} repeats the title of`).toBeUndefined();
    expect(descriptions.get(description!), `${path} repeats the description of`).toBeUndefined();
    titles.set(title!, path);
    descriptions.set(description!, path);
    expect(canonical, `${path} canonical`).toMatch(/^https?:\/\/[^/]+/);
    expect(new URL(canonical!).pathname, `${path} canonical path`).toBe(path);
  }
});

test.describe("careers Apply Now", () => {
  const query = "utm_source=x&utm_medium=y&utm_campaign=spring";

  function expectApplyHref(href: string | null) {
    const url = new URL(href ?? "", "http://site.invalid");
    expect(url.pathname).toBe("/company/careers");
    expect(url.searchParams.get("apply")).toBe("1");
    expect(url.searchParams.get("utm_source")).toBe("x");
    expect(url.searchParams.get("utm_medium")).toBe("y");
    expect(url.searchParams.get("utm_campaign")).toBe("spring");
  }

  test("keeps the page's utm parameters in the browser", async ({ page }) => {
    await page.goto(`/company/careers?${query}`);
    await waitForHydration(page);
    expectApplyHref(await page.getByRole("link", { name: "Apply Now" }).getAttribute("href"));
  });

  test("keeps the page's utm parameters in the server-rendered HTML (no JavaScript)", async ({ request }) => {
    const html = await (await request.get(`/company/careers?${query}`)).text();
    const href = /<a[^>]*href="([^"]*)"[^>]*>Apply Now<\/a>/.exec(html)?.[1];
    expect(href).toBeTruthy();
    expectApplyHref(href!.replace(/&amp;/g, "&"));
  });

  test("does not repeat apply=1 when the page already has it", async ({ request }) => {
    const html = await (await request.get(`/company/careers?apply=1&${query}`)).text();
    const href = /<a[^>]*href="([^"]*)"[^>]*>Apply Now<\/a>/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(new URL(href ?? "", "http://site.invalid").searchParams.getAll("apply")).toEqual(["1"]);
  });
});
