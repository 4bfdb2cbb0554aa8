import { test, expect } from "./support/fixtures";
import { backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// A site in English and German (SITE_LOCALES=en,de): a page an editor publishes under /de is a
// German page (<html lang="de">), English pages stay English; each lead records the language of
// its form's page and the sales desk shows and filters it. Its own server: the shared one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 90_000 });

test("a page published under /de is German; English pages stay English", async ({ browser, request }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/pages");
  await page.getByLabel("Address").fill("/de/loesungen/banken");
  await page.getByLabel("Title").fill("Lösungen für Banken");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByText("The page was created as a draft.")).toBeVisible();
  await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill("KI-Compliance für Banken");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /de/loesungen/banken now.")).toBeVisible();

  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/de/loesungen/banken`);
  await expect(visitor.getByRole("heading", { level: 1, name: "KI-Compliance für Banken" })).toBeVisible();
  await expect(visitor.locator("html")).toHaveAttribute("lang", "de");
  // The same site's English pages are English.
  await visitor.goto(`${server.url}/`);
  await expect(visitor.locator("html")).toHaveAttribute("lang", "en");
  await visitor.close();
  expect(await (await request.get(`${server.url}/de/loesungen/banken`)).text()).toContain('<html lang="de">');
  expect(await (await request.get(`${server.url}/company/about`)).text()).toContain('<html lang="en">');
});

test("the sales desk shows each lead's language and filters by it", async ({ browser }) => {
  // One lead from a German form page and one from an English one, as the form posts store them.
  withDatabase(server.databasePath, (db) => {
    const insert = db.prepare(
      "INSERT INTO demo_requests (id, created_at, first_name, last_name, email, source_page, locale) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    insert.run(crypto.randomUUID(), new Date().toISOString(), "Hedy", "Lamarr", "hedy@example.de", "/de/demo-anfordern", "de");
    insert.run(crypto.randomUUID(), new Date().toISOString(), "Ada", "Lovelace", "ada@example.com", "/request-demo", "en");
  });
  const { page } = await signInAs(browser, server, ["sales"]);
  await page.goto("/admin/leads?form=request-demo");
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Language" })).toBeVisible();
  await expect(table.getByRole("row", { name: /Hedy Lamarr/ })).toContainText("German (de)");
  await expect(table.getByRole("row", { name: /Ada Lovelace/ })).toContainText("English (en)");
  await page.getByLabel("Language").selectOption({ label: "German (de)" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/locale=de/);
  await expect(table.getByRole("row", { name: /Hedy Lamarr/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /Ada Lovelace/ })).toHaveCount(0);
  // A language the site does not have: named beside the field, nothing filtered.
  await page.goto("/admin/leads?form=request-demo&locale=fr");
  await expect(page.getByLabel("Language")).toHaveAccessibleDescription("Choose a language from the list.");
  await expect(table.getByRole("row", { name: /Ada Lovelace/ })).toBeVisible();
});
