import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";

// The legal documents in German (SITE_LOCALES=en,de): the German page shows the German version in
// force; when a newer English version is published it keeps its own, says plainly that a newer one
// exists in English and links to it, until legal translates and publishes the new version. Its own
// server: the shared one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
// Each test walks many pages and runs axe on several: generous on a busy machine.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const GERMAN_PRIVACY = "/de/rechtliches/datenschutzerklaerung";
const germanToday = new Intl.DateTimeFormat("de", { dateStyle: "long", timeZone: "UTC" }).format(new Date());

/** The public page, once its one-second cache has let the new state through. */
async function openPublicPage(page: Page, path: string, expected: RegExp) {
  await expect(async () => {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByText(expected).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

test("a visitor reads the German privacy policy and terms of use", async ({ page }) => {
  await page.goto(`${server.url}${GERMAN_PRIVACY}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Datenschutzerklärung" })).toBeVisible();
  await expect(page.getByText("Version 2.2 · Zuletzt aktualisiert am 26. November 2026")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Ihre Rechte" })).toBeVisible();
  // German has one version so far: no history, and no notice (it translates the English version in force).
  await expect(page.getByRole("region", { name: "Frühere Fassungen" })).toHaveCount(0);
  await expect(page.getByRole("note")).toHaveCount(0);
  await expectAccessible(page, "German privacy policy");

  await page.goto(`${server.url}/de/rechtliches/nutzungsbedingungen`);
  await expect(page.getByRole("heading", { level: 1, name: "Nutzungsbedingungen" })).toBeVisible();
  await expect(page.getByText("Version 1.3 · Zuletzt aktualisiert am 15. März 2025")).toBeVisible();
  // A German version that was never published has no page.
  expect((await page.request.get(`${server.url}${GERMAN_PRIVACY}/versions/2.1`)).status()).toBe(404);
  // English is as it was.
  await page.goto(`${server.url}/terms/privacy-policy`);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText("Version 2.2 · Last updated November 26, 2026")).toBeVisible();
});

test("as legal: a new English version; the German page keeps its own with a notice until its translation is published", async ({
  browser,
}) => {
  const legal = await signInAs(browser, server, ["legal"]);
  const { page } = legal;
  await page.goto(`${server.url}/admin/legal`);
  const privacy = page.getByRole("region", { name: "Privacy Policy" });
  await expect(privacy.getByRole("row", { name: /Version 2\.2 of the Privacy Policy/ })).toContainText("Deutsch: Published");

  // A new English version, published.
  await privacy.getByRole("button", { name: "Start a new draft of the Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy, draft version 2.3" })).toBeVisible();
  await page.getByLabel("What changed").fill("Job applications are kept for six months.");
  const retention = page.getByLabel("Section 6 text");
  await retention.fill((await retention.inputValue()).replace("kept for 12 months", "kept for 6 months"));
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved.")).toBeVisible();
  await page.getByRole("button", { name: "Publish version 2.3" }).click();
  await expect(page.getByText(/^Version 2\.3 is published: it is now the Privacy Policy on the site/)).toBeVisible();

  // The German page still shows its version, and says that a newer one exists in English.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await openPublicPage(visitor, GERMAN_PRIVACY, /Es gibt eine neuere Fassung/);
  await expect(visitor.getByText("Version 2.2 · Zuletzt aktualisiert am 26. November 2026")).toBeVisible();
  const notice = visitor.getByRole("note");
  await expect(notice).toContainText(`Es gibt eine neuere Fassung dieses Dokuments (Version 2.3 vom ${germanToday})`);
  await expect(notice.getByRole("link", { name: "Die geltende Fassung auf Englisch lesen" })).toHaveAttribute(
    "href",
    "/terms/privacy-policy",
  );
  await expectAccessible(visitor, "German privacy policy with the notice");

  // Translate the new version: the English text beside the German fields, section by section.
  await page.goto(`${server.url}/admin/legal`);
  const row = privacy.getByRole("row", { name: /Version 2\.3 of the Privacy Policy/ });
  await expect(row).toContainText("Deutsch: Missing");
  await row.getByRole("button", { name: "Translate into Deutsch" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Privacy Policy, draft version 2.3 (Deutsch translation)" }),
  ).toBeVisible();
  await expect(page.getByText("English section 6: Retention")).toBeVisible();
  await expect(page.getByLabel("Version number")).toHaveAttribute("readonly", "");
  await page.getByLabel("Document title").fill("Datenschutzerklärung");
  await page.getByLabel("What changed").fill("Bewerbungen werden sechs Monate aufbewahrt.");
  await page.getByLabel("Section 1 title").fill("Wer wir sind");
  await page.getByLabel("Section 1 text").fill("Quorvant stellt Sentinel bereit und betreibt diese Website.");
  await page.getByLabel("Section 6 title").fill("Speicherdauer");
  await page
    .getByLabel("Section 6 text")
    .fill("Bewerbungen speichern wir sechs Monate nach der Entscheidung über die Besetzung.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved.")).toBeVisible();
  await expectAccessible(page, "translation editor");
  await page.getByRole("button", { name: "Publish version 2.3" }).click();
  await expect(
    page.getByText(
      "Version 2.3 is published: it is now the Privacy Policy in Deutsch on the site, and version 2.2 is in its history.",
    ),
  ).toBeVisible();
  expect(auditActions(server, "actor_email = ? AND action LIKE 'legal.%'", legal.email)).toEqual([
    "legal.draft-created",
    "legal.draft-saved",
    "legal.published",
    "legal.translation-created",
    "legal.draft-saved",
    "legal.translation-published",
  ]);

  // The notice goes; the German history lists the German versions.
  await openPublicPage(visitor, GERMAN_PRIVACY, /^Version 2\.3/);
  await expect(visitor.getByText(`Version 2.3 · Zuletzt aktualisiert am ${germanToday}`)).toBeVisible();
  await expect(visitor.getByRole("note")).toHaveCount(0);
  await expect(visitor.getByText(/sechs Monate nach der Entscheidung/)).toBeVisible();
  const history = visitor.getByRole("region", { name: "Frühere Fassungen" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await history.getByRole("link", { name: "Version 2.2" }).click();
  await expect(visitor).toHaveURL(`${server.url}${GERMAN_PRIVACY}/versions/2.2`);
  await expect(
    visitor.getByText("Diese Fassung (Version 2.2, aktualisiert am 26. November 2026) ist nicht mehr gültig."),
  ).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Geltende Fassung lesen" })).toHaveAttribute("href", GERMAN_PRIVACY);
  await visitorContext.close();
  await legal.context.close();
});
