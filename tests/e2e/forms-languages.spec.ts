import { test, expect, waitForHydration } from "./support/fixtures";
import { backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";
import { field, leadRows, uniqueCampaign } from "./forms-support";

// The lead forms in German (SITE_LOCALES=en,de): the demo form at /de/demo-anfordern in German
// words, refused in German by the browser's own checks (with JavaScript) and by the server (without),
// answered in German, its lead recorded as German and shown so on the sales desk. Its own server:
// the shared one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 90_000 });

const utm = (campaign: string) => `utm_source=x&utm_medium=y&utm_campaign=${campaign}`;

test("the German demo form: German words, a German message from the browser, the German toast, a German lead", async ({
  page,
  browser,
}) => {
  const campaign = uniqueCampaign("demo-de");
  await page.goto(`${server.url}/de/demo-anfordern?${utm(campaign)}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Demo anfordern" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Was Sie erwartet" })).toBeVisible();
  await expect(page).toHaveTitle(/^Demo anfordern \|/);
  await waitForHydration(page);

  await page.getByRole("button", { name: "Demo vereinbaren" }).click();
  await expect(field(page, "Vorname")).toHaveAccessibleDescription("Bitte geben Sie Ihren Vornamen ein.");
  await field(page, "Vorname").fill("Hedy");
  await field(page, "Nachname").fill("Lamarr");
  const email = field(page, "Geschäftliche E-Mail-Adresse");
  await email.fill("hedy");
  await field(page, "Unternehmen").fill("Acme");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription("Bitte geben Sie eine gültige E-Mail-Adresse ein.");
  await email.fill("hedy@example.de");
  await field(page, "Unternehmensgröße").selectOption({ label: "51-200 Beschäftigte" });
  await page.getByRole("button", { name: "Demo vereinbaren" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Demo-Anfrage gesendet" })).toBeVisible();
  await expect(field(page, "Vorname")).toHaveValue("");
  await expect(page).toHaveURL(/\/de\/demo-anfordern(\?|$)/);
  expect(leadRows(server.databasePath, "demo_requests", campaign)).toMatchObject([
    { first_name: "Hedy", email: "hedy@example.de", company_size: "51-200", source_page: "/de/demo-anfordern", locale: "de" },
  ]);

  // The demo page links the German contact page, German too.
  await page.getByRole("link", { name: "Kontaktieren Sie unser Vertriebsteam" }).click();
  await expect(page).toHaveURL(`${server.url}/de/vertrieb-kontaktieren`);
  await expect(page.getByRole("heading", { name: "Kontakt aufnehmen" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Nachricht senden" })).toBeVisible();

  const { page: desk } = await signInAs(browser, server, ["sales"]);
  await desk.goto("/admin/leads?form=request-demo");
  await expect(desk.getByRole("table").getByRole("row", { name: /Hedy Lamarr/ })).toContainText("German (de)");
});

test("the German careers page and a German position's page: filters, facts and the application in German", async ({ page }) => {
  // A German translation of a sample position, published as an editor's tool writes it (updated_at
  // too, which the servers' watch of held positions reads).
  const title = "Compliance-Programm-Manager:in";
  const path = "/de/unternehmen/karriere/compliance-programm-manager";
  withDatabase(server.databasePath, (db) => {
    const source = db
      .prepare("SELECT id, published FROM content_documents WHERE path = '/company/careers/compliance-program-manager'")
      .get() as { id: string; published: string };
    const german = JSON.stringify({
      ...(JSON.parse(source.published) as Record<string, unknown>),
      slug: "compliance-programm-manager",
      title,
      remoteRegions: ["Europäische Union"],
      responsibilities: ["Die jährlichen Audits nach SOC 2 und ISO 27001 leiten."],
      requirements: ["Drei Jahre Erfahrung mit Compliance-Programmen."],
    });
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO content_documents (id, type, path, draft, published, published_path, published_at, first_published_at, state, revision, created_at, updated_at, locale, translation_of, source_revision)
       VALUES (?, 'position', ?, ?, ?, ?, ?, ?, 'published', 1, ?, ?, 'de', ?, 1)`,
    ).run(crypto.randomUUID(), path, german, german, path, now, now, now, now, source.id);
  });

  await expect(async () => {
    await page.goto(`${server.url}/de/unternehmen/karriere`);
    await expect(page.getByRole("link", { name: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const filters = page.getByRole("form", { name: "Offene Stellen filtern" });
  await expect(filters.getByLabel("Team")).toHaveValue("");
  await expect(filters.getByLabel("Team").getByRole("option", { name: "Alle Teams" })).toBeAttached();
  await expect(filters.getByLabel("Standort").getByRole("option", { name: "Alle Standorte" })).toBeAttached();
  await expect(filters.getByLabel("Arbeitsmodell").getByRole("option", { name: "Alle Arbeitsmodelle" })).toBeAttached();
  // With the sample's German position (hybrid, in London or New York): two, one of them remote.
  await expect(page.getByText("2 offene Stellen.", { exact: true })).toBeVisible();
  await expect(page.getByText("Remote (Europäische Union) · Vollzeit · 70.000 €–90.000 € pro Jahr")).toBeVisible();
  await waitForHydration(page);
  await filters.getByLabel("Arbeitsmodell").selectOption({ label: "Remote" });
  await filters.getByRole("button", { name: "Filtern" }).click();
  await expect(page.getByText("1 offene Stelle passt zu diesen Filtern.")).toBeVisible();
  await expect(filters.getByRole("link", { name: "Zurücksetzen" })).toBeVisible();

  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(`${server.url}${path}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  for (const term of ["Team", "Standort", "Arbeitsmodell", "Anstellungsart", "Vergütung"])
    await expect(page.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^Vollzeit$/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Ihre Aufgaben" }).getByRole("heading", { name: "Ihre Aufgaben" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Was Sie mitbringen" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Alle offenen Stellen" })).toHaveAttribute("href", "/de/unternehmen/karriere");
  const apply = page.getByRole("link", { name: "Auf diese Stelle bewerben" }).first();
  await expect(apply).toHaveAttribute("href", /^\/de\/unternehmen\/karriere\?apply=1&position=/);

  // The application form on the German position's page: German too.
  await waitForHydration(page);
  await apply.click();
  const dialog = page.getByRole("dialog", { name: `Bewerbung als ${title}` });
  await expect(dialog).toBeVisible();
  await expect(field(dialog, "Vorname")).toBeVisible();
  await expect(field(dialog, "E-Mail-Adresse")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Bewerbung absenden" })).toBeVisible();
});

test("the English forms stay English on the same site", async ({ page }) => {
  await page.goto(`${server.url}/request-demo`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(field(page, "Business Email")).toBeVisible();
  await expect(page.getByRole("button", { name: "Schedule Demo" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server refuses in German, keeps the values and answers in German", async ({ page }) => {
    const campaign = uniqueCampaign("demo-de-nojs");
    await page.goto(`${server.url}/de/demo-anfordern?${utm(campaign)}`);
    await field(page, "Vorname").fill("Linus");
    await field(page, "Nachname").fill("T");
    await field(page, "Geschäftliche E-Mail-Adresse").fill("linus@localhost"); // valid for the browser, not for the server
    await field(page, "Unternehmen").fill("Kernel");
    await page.getByRole("button", { name: "Demo vereinbaren" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Bitte korrigieren Sie die markierten Felder" })).toBeVisible();
    await expect(field(page, "Geschäftliche E-Mail-Adresse")).toHaveAccessibleDescription(
      "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
    );
    await expect(field(page, "Vorname")).toHaveValue("Linus");
    await expect(page).toHaveURL(new RegExp(`/de/demo-anfordern\\?.*utm_campaign=${campaign}`));

    await field(page, "Geschäftliche E-Mail-Adresse").fill("linus@example.com");
    await page.getByRole("button", { name: "Demo vereinbaren" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Demo-Anfrage gesendet" })).toContainText(
      "Wir melden uns bald bei Ihnen",
    );
    expect(leadRows(server.databasePath, "demo_requests", campaign)).toMatchObject([
      { first_name: "Linus", email: "linus@example.com", source_page: "/de/demo-anfordern", locale: "de" },
    ]);
  });
});
