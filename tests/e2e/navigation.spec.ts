import { devices } from "@playwright/test";
import { expect, expectAccessible, isHydrated, test, waitForHydration } from "./support/fixtures";

const menus = {
  Products: [["Sentinel", "/products/sentinel"]],
  Resources: [
    ["Blog", "/resources/blog"],
    ["Support", "/resources/support"],
  ],
  Company: [
    ["About", "/company/about"],
    ["Careers", "/company/careers"],
    ["Brand", "/company/brand"],
    ["Charter", "/company/charter"],
  ],
} as const;

const mainNav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" });
const menuToggle = (page: import("@playwright/test").Page, label: string) => mainNav(page).locator("summary", { hasText: label });
const menuOf = (page: import("@playwright/test").Page, label: string) =>
  mainNav(page).locator("details", { has: page.locator("summary", { hasText: label }) });

test.describe("header on desktop", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
  });

  test("logo, Community and Contact Sales links", async ({ page }) => {
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Quorvant home" })).toHaveAttribute("href", "/");
    await expect(mainNav(page).getByRole("link", { name: "Community" })).toHaveAttribute("href", "/community");
    await header.getByRole("link", { name: "Contact Sales" }).click();
    await expect(page).toHaveURL(/\/contact-sales$/);
  });

  // The menus' behaviour, checked in steps on one hydrated page (each test loads and hydrates its own).
  test("menus open on a click, not on hover, one at a time, each with exactly the spec's items; open, they are accessible", async ({
    page,
  }) => {
    await menuToggle(page, "Resources").hover();
    await expect(mainNav(page).locator("details[open]")).toHaveCount(0);

    for (const [label, links] of Object.entries(menus)) {
      await menuToggle(page, label).click();
      await expect(menuOf(page, label)).toHaveAttribute("open", "");
      await expect(mainNav(page).locator("details[open]")).toHaveCount(1);
      const items = menuOf(page, label).getByRole("link");
      await expect(items).toHaveCount(links.length);
      for (const [index, [name, href]] of links.entries()) {
        await expect(items.nth(index)).toHaveText(name);
        await expect(items.nth(index)).toHaveAttribute("href", href);
      }
    }
    // The last one opened is Company.
    await expectAccessible(page, "with the Company menu open");
  });

  test("the open menu closes on a click on its button, on Escape (focus back on its button) and on a click outside", async ({
    page,
  }) => {
    await menuToggle(page, "Products").click();
    await expect(menuOf(page, "Products")).toHaveAttribute("open", "");
    await menuToggle(page, "Products").click();
    await expect(mainNav(page).locator("details[open]")).toHaveCount(0);

    await menuToggle(page, "Resources").click();
    await expect(menuOf(page, "Resources").getByRole("link", { name: "Blog" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mainNav(page).locator("details[open]")).toHaveCount(0);
    await expect(menuToggle(page, "Resources")).toBeFocused();

    await menuToggle(page, "Company").click();
    await expect(menuOf(page, "Company")).toHaveAttribute("open", "");
    await page.getByRole("heading", { level: 1 }).click();
    await expect(mainNav(page).locator("details[open]")).toHaveCount(0);
  });

  test("following a menu link navigates and closes the menu", async ({ page }) => {
    await menuToggle(page, "Company").click();
    await menuOf(page, "Company").getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/company\/about$/);
    await expect(mainNav(page).locator("details[open]")).toHaveCount(0);
  });

  test("keyboard only: Tab to a menu, open it with Enter, follow a link", async ({ page }) => {
    const products = menuToggle(page, "Products");
    for (let step = 0; step < 10 && !(await products.evaluate((el) => el === document.activeElement)); step++) {
      await page.keyboard.press("Tab");
    }
    await expect(products).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menuOf(page, "Products")).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(menuOf(page, "Products").getByRole("link", { name: "Sentinel" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/products\/sentinel$/);
  });
});

test.describe("header on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: devices["Pixel 7"].userAgent });

  const hamburger = (page: import("@playwright/test").Page) => page.getByRole("banner").locator("summary[aria-label='Menu']");
  const panel = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Mobile" });

  test("the desktop menus are hidden and the hamburger opens a panel with the same groups", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await expect(mainNav(page)).toBeHidden();
    await expect(panel(page)).toBeHidden();
    await hamburger(page).click();
    await expect(panel(page)).toBeVisible();
    for (const [label, links] of Object.entries(menus)) {
      const group = panel(page).getByRole("list", { name: label });
      for (const [name, href] of links) await expect(group.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    await expect(panel(page).getByRole("link", { name: "Community" })).toBeVisible();
    await expectAccessible(page, "with the mobile panel open");
    await hamburger(page).click();
    await expect(panel(page)).toBeHidden();
  });

  test("a panel opened before the page hydrated stays open through hydration", async ({ page }) => {
    await page.goto("/");
    // The tap is the visitor's first input: the panel opens at once, and the page hydrates after it.
    await hamburger(page).click();
    await expect(panel(page)).toBeVisible();
    await expect.poll(() => isHydrated(page)).toBe(true);
    await expect(panel(page)).toBeVisible();
    // From then on the router follows the link, and following it closes the panel.
    await panel(page).getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/resources\/support$/);
    await expect(panel(page)).toBeHidden();
  });

  test("following a link in the panel closes it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await hamburger(page).click();
    await panel(page).getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/resources\/support$/);
    await expect(panel(page)).toBeHidden();
  });

  test("Contact Sales in the panel navigates and closes it", async ({ page }) => {
    await page.goto("/company/about");
    await waitForHydration(page);
    await hamburger(page).click();
    await panel(page).getByRole("link", { name: "Contact Sales" }).click();
    await expect(page).toHaveURL(/\/contact-sales$/);
    await expect(panel(page)).toBeHidden();
  });
});

test.describe("footer", () => {
  test("four link columns, tagline, copyright, short links and social links", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    const columns: Record<string, [string, string][]> = {
      Products: [["Sentinel", "/products/sentinel"]],
      Company: [
        ["About Us", "/company/about"],
        ["Careers", "/company/careers"],
        ["Brand", "/company/brand"],
        ["Charter", "/company/charter"],
      ],
      "Terms & Policies": [
        ["Terms of Use", "/terms/terms-of-use"],
        ["Privacy Policy", "/terms/privacy-policy"],
        ["Legal", "/terms/legal"],
        ["Trust & Transparency", "/terms/trust-transparency"],
      ],
      Resources: [
        ["Blog", "/resources/blog"],
        ["Support", "/resources/support"],
      ],
    };
    for (const [label, links] of Object.entries(columns)) {
      const column = footer.getByRole("navigation", { name: label });
      await expect(column.getByRole("link")).toHaveCount(links.length);
      for (const [name, href] of links)
        await expect(column.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer).toContainText("Empowering businesses with forward-thinking solutions");
    await expect(footer).toContainText("© 2025 Quorvant");
    const legal = footer.getByRole("list", { name: "Legal" });
    await expect(legal.getByRole("link", { name: "Privacy", exact: true })).toHaveAttribute("href", "/terms/privacy-policy");
    await expect(legal.getByRole("link", { name: "Terms", exact: true })).toHaveAttribute("href", "/terms/terms-of-use");

    const social = footer.getByRole("list", { name: "Social media" }).getByRole("link");
    await expect(social).toHaveCount(5);
    for (const name of ["X", "LinkedIn", "Instagram", "YouTube", "Substack"]) {
      const link = footer.getByRole("link", { name: `Quorvant on ${name} (opens in a new tab)` });
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
      await expect(link).toHaveAttribute("href", /^https:\/\//);
    }
  });
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("every header menu and footer link is reachable", async ({ page, request }) => {
    await page.goto("/");
    await menuToggle(page, "Company").click();
    await menuOf(page, "Company").getByRole("link", { name: "Charter" }).click();
    await expect(page).toHaveURL(/\/company\/charter$/);
    await menuToggle(page, "Resources").click();
    await menuOf(page, "Resources").getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await menuToggle(page, "Products").click();
    await menuOf(page, "Products").getByRole("link", { name: "Sentinel" }).click();
    await expect(page).toHaveURL(/\/products\/sentinel$/);
    // Native <details name> keeps one menu open at a time even without our script.
    await menuToggle(page, "Products").click();
    await menuToggle(page, "Company").click();
    await expect(mainNav(page).locator("details[open]")).toHaveCount(1);

    const footerHrefs = await page
      .getByRole("contentinfo")
      .getByRole("link")
      .evaluateAll((links) =>
        links.map((link) => link.getAttribute("href")).filter((href): href is string => Boolean(href?.startsWith("/"))),
      );
    expect(footerHrefs.length).toBeGreaterThanOrEqual(14);
    // Following a link is asking for its address: the server's answer is the rule here.
    for (const href of new Set(footerHrefs)) expect((await request.get(href)).status(), href).toBe(200);
  });
});
