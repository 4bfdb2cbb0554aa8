import { test, expect, waitForHydration, expectAccessible } from "./support/fixtures";
import { backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// A site in English and German (SITE_LOCALES=en,de): a page and its German translation name each
// other (hreflang, x-default, og:locale) on every page the sitemap lists, reciprocally; the
// language switcher leads to the same page in the other language, or to the German home with a
// note; a browser that prefers German is offered the German page, in German, until it dismisses
// the offer; an English browser never is. Its own server: the shared one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 120_000 });

const EN_PATH = "/solutions/banks";
const DE_PATH = "/de/loesungen/banken";

test("an editor publishes an English page and its German translation", async ({ browser, request }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  for (const [path, title, heading] of [
    [EN_PATH, "Solutions for banks", "AI compliance for banks"],
    [DE_PATH, "Lösungen für Banken", "KI-Compliance für Banken"],
  ] as const) {
    await page.goto("/admin/pages");
    await page.getByLabel("Address").fill(path);
    await page.getByLabel("Title").fill(title);
    await page.getByRole("button", { name: "Create page" }).click();
    await expect(page.getByText("The page was created as a draft.")).toBeVisible();
    await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill(heading);
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText(`Published: visitors see this version at ${path} now.`)).toBeVisible();
  }
  // The German page translates the English one (as the translation editor records it).
  withDatabase(server.databasePath, (db) => {
    const source = db.prepare("SELECT id FROM content_documents WHERE path = ?").get(EN_PATH) as { id: string };
    db.prepare("UPDATE content_documents SET translation_of = ?, locale = 'de', source_revision = revision WHERE path = ?").run(
      source.id,
      DE_PATH,
    );
  });
  // Every server sees the link once its watch of the published pages reads it (and the page's
  // cached copy has aged): the English page then names its German one.
  await expect
    .poll(async () => (await headAlternates(request, `${server.url}${EN_PATH}`)).map(([tag]) => tag), { timeout: 15_000 })
    .toContain("de");
});

/** The hreflang alternates of a page's head, as [hreflang, absolute href]. */
async function headAlternates(request: import("@playwright/test").APIRequestContext, url: string): Promise<[string, string][]> {
  const html = await (await request.get(url)).text();
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map((match): [string, string] => [
    match[1]!,
    match[2]!,
  ]);
}

test("every page of the sitemap names the same translations as the sitemap, and they name it back", async ({ request }) => {
  // The held pages notice the translation within a moment.
  await expect(async () => {
    expect(await headAlternates(request, `${server.url}${EN_PATH}`)).toHaveLength(3);
  }).toPass({ timeout: 10_000 });
  const sitemap = await (await request.get(`${server.url}/sitemap.xml`)).text();
  const urls = [...sitemap.matchAll(/<url>(.*?)<\/url>/g)].map((match) => ({
    loc: /<loc>([^<]+)<\/loc>/.exec(match[1]!)![1]!,
    alternates: [...match[1]!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((link) => [
      link[1]!,
      link[2]!,
    ]),
  }));
  const locs = urls.map((url) => url.loc.replace(server.url, ""));
  expect(locs).toEqual(expect.arrayContaining([EN_PATH, DE_PATH, "/request-demo", "/de/demo-anfordern", "/de/ressourcen/blog"]));
  const pair = [
    ["en", `${server.url}${EN_PATH}`],
    ["de", `${server.url}${DE_PATH}`],
    ["x-default", `${server.url}${EN_PATH}`],
  ];
  expect(urls.find((url) => url.loc.endsWith(EN_PATH))!.alternates).toEqual(pair);

  const named = new Map<string, [string, string][]>();
  for (const url of urls) {
    const alternates = await headAlternates(request, url.loc);
    expect(alternates, url.loc).toEqual(url.alternates);
    named.set(url.loc, alternates);
  }
  for (const [loc, alternates] of named) {
    if (!alternates.length) continue;
    expect(alternates, `${loc} names itself`).toContainEqual([expect.any(String), loc]);
    for (const [tag, href] of alternates) {
      if (tag === "x-default") continue;
      expect(named.get(href) ?? (await headAlternates(request, href)), `${href} names ${loc} back`).toEqual(alternates);
    }
  }
  const html = await (await request.get(`${server.url}${DE_PATH}`)).text();
  expect(html).toContain('<meta property="og:locale" content="de_DE"/>');
  expect(html).toContain('<meta property="og:locale:alternate" content="en_US"/>');
  expect(html).toContain(`<link rel="canonical" href="${server.url}${DE_PATH}"/>`);
});

test("the switcher leads to the same page in the other language, or to the German home with a note", async ({ page }) => {
  await page.goto(`${server.url}${EN_PATH}`);
  const header = page.getByRole("banner");
  await header.getByRole("list", { name: "Language" }).getByRole("link", { name: "Deutsch" }).click();
  await expect(page).toHaveURL(`${server.url}${DE_PATH}`);
  await expect(page.getByRole("heading", { level: 1, name: "KI-Compliance für Banken" })).toBeVisible();
  const footerSwitcher = page.getByRole("contentinfo").getByRole("navigation", { name: "Sprache" });
  await expect(footerSwitcher.getByRole("link", { name: "English" })).toHaveAttribute("lang", "en");
  await footerSwitcher.getByRole("link", { name: "English" }).click();
  await expect(page).toHaveURL(`${server.url}${EN_PATH}`);

  // A page with no German version (an open position of the sample content): the German home,
  // saying so in German.
  await page.goto(`${server.url}/company/careers/security-researcher-ai-threats`);
  const german = page
    .getByRole("contentinfo")
    .getByRole("navigation", { name: "Language" })
    .getByRole("link", { name: /^Deutsch/ });
  await expect(german).toHaveAttribute("href", "/de");
  await expect(german).toContainText("Diese Seite gibt es nicht auf Deutsch");
  await expect(page.getByRole("banner").getByRole("link", { name: /^Deutsch/ })).toHaveAttribute("href", "/de");
  await expectAccessible(page, "a page with the language switcher");
});

test.describe("an English browser", () => {
  test.use({ locale: "en-US" });
  test("is never offered another language on an English page", async ({ page }) => {
    await page.goto(`${server.url}${EN_PATH}`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "AI compliance for banks" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Sprachvorschlag" })).toHaveCount(0);
    // On the German page, English is the language it prefers: offered in English.
    await page.goto(`${server.url}${DE_PATH}`);
    await waitForHydration(page);
    const suggestion = page.getByRole("region", { name: "Language suggestion" });
    await expect(suggestion).toContainText("This page is also available in English.");
    await expect(suggestion.getByRole("link", { name: "Read in English" })).toHaveAttribute("href", EN_PATH);
  });
});

test.describe("a German browser", () => {
  test.use({ locale: "de-DE" });
  test("is offered the German page, in German, until it dismisses the offer", async ({ page }) => {
    await page.goto(`${server.url}${EN_PATH}`);
    await waitForHydration(page);
    const suggestion = page.getByRole("region", { name: "Sprachvorschlag" });
    await expect(suggestion).toContainText("Diese Seite gibt es auch auf Deutsch.");
    await expect(suggestion).toHaveAttribute("lang", "de");
    await expect(suggestion.getByRole("link", { name: "Auf Deutsch lesen" })).toHaveAttribute("href", DE_PATH);
    await expectAccessible(page, "a page with the language suggestion");
    // On the German page itself, nothing to suggest.
    await page.goto(`${server.url}${DE_PATH}`);
    await waitForHydration(page);
    await expect(page.getByRole("region", { name: "Sprachvorschlag" })).toHaveCount(0);

    await page.goto(`${server.url}${EN_PATH}`);
    await waitForHydration(page);
    await suggestion.getByRole("button", { name: "Sprachvorschlag schließen" }).click();
    await expect(suggestion).toHaveCount(0);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "AI compliance for banks" })).toBeVisible();
    await expect(suggestion).toHaveCount(0);
  });
});
