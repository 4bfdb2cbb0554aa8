import { randomUUID } from "node:crypto";
import { test, expect } from "./support/fixtures";
import { backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// The site's frame in each language (SITE_LOCALES=en,de): a German page has the German header,
// footer and menus; an address under /de that is no page is the German 404, one under a language
// the site does not publish (/fr) the English one; the German blog lists German posts only; an
// editor edits the German menus beside the English ones. Its own server: the shared one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 90_000 });

test("a German page is drawn in the German frame, an English page in the English one", async ({ browser }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/pages");
  await page.getByLabel("Address").fill("/de/unternehmen/presse");
  await page.getByLabel("Title").fill("Presse");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByText("The page was created as a draft.")).toBeVisible();
  await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill("Quorvant in der Presse");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /de/unternehmen/presse now.")).toBeVisible();

  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/de/unternehmen/presse`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Quorvant in der Presse" })).toBeVisible();
  const header = visitor.getByRole("banner");
  await expect(header.getByRole("link", { name: "Zum Inhalt springen" })).toBeAttached();
  await expect(header.getByRole("link", { name: "Quorvant Startseite" })).toHaveAttribute("href", "/de");
  const main = header.getByRole("navigation", { name: "Hauptnavigation" });
  await main.getByText("Unternehmen", { exact: true }).click();
  await expect(main.getByRole("link", { name: "Über uns" })).toHaveAttribute("href", "/de/unternehmen/ueber-uns");
  await expect(main.getByRole("link", { name: "Karriere" })).toHaveAttribute("href", "/de/unternehmen/karriere");
  await expect(main.getByRole("link", { name: "Gemeinschaft" })).toHaveAttribute("href", "/de/gemeinschaft");
  await expect(header.getByRole("link", { name: "Vertrieb kontaktieren" })).toHaveAttribute("href", "/de/vertrieb-kontaktieren");
  const footer = visitor.getByRole("contentinfo");
  await expect(
    footer.getByText("Wir stärken Unternehmen mit vorausschauenden Lösungen für sichere, regelkonforme KI."),
  ).toBeVisible();
  await expect(
    footer.getByRole("navigation", { name: "Bedingungen & Richtlinien" }).getByRole("link", { name: "Datenschutzerklärung" }),
  ).toHaveAttribute("href", "/de/rechtliches/datenschutzerklaerung");
  await expect(
    footer
      .getByRole("list", { name: "Soziale Medien" })
      .getByRole("link", { name: "Quorvant auf X (öffnet in einem neuen Tab)" }),
  ).toBeVisible();

  // English pages of the same site: the English frame, exactly as ever.
  await visitor.goto(`${server.url}/company/about`);
  await expect(visitor.getByRole("banner").getByRole("link", { name: "Contact Sales" })).toHaveAttribute(
    "href",
    "/contact-sales",
  );
  await expect(
    visitor.getByRole("contentinfo").getByText("Empowering businesses with forward-thinking solutions for secure, compliant AI."),
  ).toBeVisible();
  await visitor.close();
});

test("an unknown address under /de is the German 404, one under a language the site lacks the English one", async ({
  page,
  request,
}) => {
  const german = await request.get(`${server.url}/de/gibt-es-nicht`);
  expect(german.status()).toBe(404);
  await page.goto(`${server.url}/de/gibt-es-nicht`);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByText("Hoppla! Seite nicht gefunden")).toBeVisible();
  await expect(page.getByRole("link", { name: "Zur Startseite" })).toHaveAttribute("href", "/de");
  await expect(page.getByRole("banner").getByRole("link", { name: "Vertrieb kontaktieren" })).toBeVisible();

  expect((await request.get(`${server.url}/fr/x`)).status()).toBe(404);
  await page.goto(`${server.url}/fr/x`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Contact Sales" })).toBeVisible();
});

test("a German post is on the German blog, at its German address, and not on the English one", async ({ page, request }) => {
  // Featured, so that it is the list's first card whatever the sample's German posts are.
  withDatabase(server.databasePath, (db) => {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at, locale)
       VALUES (?, 'ki-governance-im-alltag', 'KI-Governance im Alltag', 'Was Aufsichtsbehörden erwarten.', 'Text des **Beitrags**.', 'Leitfäden', 'Ada', '2025-03-05T12:00:00.000Z', 6, NULL, 1, 1, ?, ?, 'de')`,
    ).run(randomUUID(), now, now);
  });
  await page.goto(`${server.url}/de/ressourcen/blog`);
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Empfohlener Artikel" })).toBeAttached();
  await expect(page.getByRole("link", { name: "Artikel lesen: KI-Governance im Alltag" })).toHaveAttribute(
    "href",
    "/de/ressourcen/blog/ki-governance-im-alltag",
  );
  await expect(page.getByText("5. März 2025").first()).toBeVisible();
  await expect(page.getByText("6 Min. Lesezeit").first()).toBeVisible();

  await page.goto(`${server.url}/resources/blog`);
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await expect(page.getByText("KI-Governance im Alltag")).toHaveCount(0);
  expect((await request.get(`${server.url}/resources/blog/ki-governance-im-alltag`)).status()).toBe(404);

  await page.goto(`${server.url}/de/ressourcen/blog/ki-governance-im-alltag`);
  await expect(page.getByRole("heading", { level: 1, name: "KI-Governance im Alltag" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Zurück zum Blog" })).toHaveAttribute("href", "/de/ressourcen/blog");
});

test("an editor edits the German menus beside the English ones", async ({ browser }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto(`${server.url}/admin/navigation`);
  const languages = page.getByRole("navigation", { name: "Language of the menus" });
  await expect(languages.getByRole("link", { name: "English (en)" })).toHaveAttribute("aria-current", "page");
  await languages.getByRole("link", { name: "German (de)" }).click();
  await expect(languages.getByRole("link", { name: "German (de)" })).toHaveAttribute("aria-current", "page");
  const bottom = page.getByRole("form", { name: "Footer bottom links" });
  await expect(bottom.getByLabel("Link 1 text")).toHaveValue("Datenschutz");
  await bottom.getByLabel("Link 1 text").fill("Datenschutzhinweise");
  await bottom.getByRole("button", { name: "Save footer bottom links" }).click();
  await expect(page.getByText("Footer bottom links saved")).toBeVisible();
  await expect(page).toHaveURL(/locale=de/);
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT menu FROM navigation_menus").all())).toEqual([
    { menu: "de:footer-links" },
  ]);

  const visitor = await browser.newPage();
  await expect(async () => {
    await visitor.goto(`${server.url}/de/unternehmen/ueber-uns`);
    await expect(visitor.getByRole("contentinfo").getByRole("list", { name: "Rechtliches" }).getByRole("link")).toHaveText(
      ["Datenschutzhinweise", "Bedingungen"],
      { timeout: 1_000 },
    );
  }).toPass({ timeout: 10_000 });
  await visitor.goto(`${server.url}/company/about`);
  await expect(visitor.getByRole("contentinfo").getByRole("list", { name: "Legal" }).getByRole("link")).toHaveText([
    "Privacy",
    "Terms",
  ]);
  await visitor.close();
});
