import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";

// Translators at work on a site in English and German (SITE_LOCALES=en,de): an editor translates an
// English page into a German draft, sees the English source beside each block, publishes the German
// page; the English page changes, the list marks the German one Outdated and its editor shows what
// changed; brought up to date and published, the list shows it Current. Its own server: the shared
// one is English only.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 180_000 });

test("an editor translates a page, sees it outdated when the English one changes, and brings it up to date", async ({
  browser,
}) => {
  const { page, email } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/pages");
  await page.getByLabel("Address").fill("/solutions/insurers");
  await page.getByLabel("Title").fill("Insurers");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByText("The page was created as a draft.")).toBeVisible();
  await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill("AI compliance for insurers");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /solutions/insurers now.")).toBeVisible();

  // Translate: a German draft at the same address under /de, the English source beside each block.
  await page.getByRole("button", { name: "Translate into Deutsch" }).click();
  await expect(page.getByText("The translation was created as a draft")).toBeVisible();
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue("/de/solutions/insurers");
  await expect(page.getByRole("region", { name: "English source: Block 1: Hero" })).toContainText("AI compliance for insurers");
  expect(auditActions(server, "actor_email = ?", email)).toContain("page.translation-created");

  // A translation may not leave its language's prefix.
  await page.getByLabel("Address", { exact: true }).fill("/solutions/versicherer");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Address", { exact: true })).toHaveAccessibleDescription(/must begin with \/de\//);

  await page.getByLabel("Address", { exact: true }).fill("/de/loesungen/versicherer");
  await page.getByLabel("Title", { exact: true }).fill("Versicherer");
  await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill("KI-Compliance für Versicherer");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /de/loesungen/versicherer now.")).toBeVisible();

  await page.goto("/admin/pages");
  const english = page.getByRole("row", { name: /Insurers/ });
  await expect(english.getByRole("listitem", { name: "Deutsch: Current, Published" })).toBeVisible();

  // The English page changes: the German one is outdated.
  await english.getByRole("link", { name: "Insurers" }).click();
  await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill("AI compliance for every insurer");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /solutions/insurers now.")).toBeVisible();
  await page.goto("/admin/pages");
  await expect(english.getByRole("listitem", { name: "Deutsch: Outdated, Published" })).toBeVisible();

  // Its editor says so, with what changed in the English page.
  await english.getByRole("link", { name: "Deutsch page: Outdated" }).click();
  const translation = page.getByRole("region", { name: "Translation" });
  await expect(translation).toContainText("The English source changed since this translation was made: revision 2 → 3");
  await expect(translation.getByRole("figure")).toContainText("AI compliance for every insurer");
  await expect(page.getByRole("region", { name: "English source: Block 1: Hero" })).toContainText(
    "AI compliance for every insurer",
  );

  // Updated, marked up to date and published: current again.
  await page
    .getByRole("region", { name: "Block 1: Hero" })
    .getByLabel("Main heading")
    .fill("KI-Compliance für jeden Versicherer");
  await page.getByLabel("Brought up to date with the English revision 3").check();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /de/loesungen/versicherer now.")).toBeVisible();
  await expect(page.getByText("The English source changed since")).toHaveCount(0);
  expect(auditActions(server, "actor_email = ?", email)).toContain("page.translation-updated");

  await page.goto("/admin/pages");
  await expect(english.getByRole("listitem", { name: "Deutsch: Current, Published" })).toBeVisible();

  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/de/loesungen/versicherer`);
  await expect(visitor.getByRole("heading", { level: 1, name: "KI-Compliance für jeden Versicherer" })).toBeVisible();
  await visitor.close();
});

test("an editor translates a post: a German draft with its own slug, the English source beside it", async ({ browser }) => {
  const title = "Red Teaming LLM Applications: A Field Guide";
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/posts");
  const english = page.getByRole("row", { name: /red-teaming-llm-applications/ }).filter({ hasText: "Missing" });
  await expect(english.getByRole("listitem", { name: "Deutsch: Missing" })).toBeVisible();
  await english.getByRole("link", { name: title }).click();
  // The post's editor, not the list (whose rows have their own "Translate into Deutsch").
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  await page.getByRole("button", { name: "Translate into Deutsch" }).click();
  await expect(page.getByText("The translation was created as a draft")).toBeVisible();
  await expect(page.getByLabel("Slug")).toHaveValue("red-teaming-llm-applications-de");
  await expect(page.getByRole("region", { name: "English source" })).toContainText("Daniel Okafor");
  await expect(page.getByRole("region", { name: "Translation" })).toContainText(
    `The Deutsch translation of the English post ${title}`,
  );

  await page.getByLabel("Title").fill("Red-Teaming für LLM-Anwendungen: ein Leitfaden");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText(/Saved as revision/)).toBeVisible();

  await page.goto("/admin/posts");
  await expect(
    page.getByRole("row", { name: new RegExp(title) }).getByRole("listitem", { name: "Deutsch: Current, Draft" }),
  ).toBeVisible();
  await expect(page.getByRole("row", { name: /Red-Teaming für LLM-Anwendungen/ })).toContainText("Deutsch translation of");
});
