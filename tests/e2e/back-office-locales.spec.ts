import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// A person limited to languages, in a site in English and German (its own server: the shared one
// is English only). An owner limits an editor to Deutsch on the person's page; the server then
// answers 403 on an English page's editor and on saving it, and the editor edits a German page;
// such an editor starts a German translation from the Pages list and reads the English beside it.

const server = backOfficeServerForThisFile(() => ({ SITE_LOCALES: "en,de" }));
test.describe.configure({ mode: "serial", timeout: 90_000 });

test("an editor limited to Deutsch gets 403 on an English page and edits a German one", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const editor = await signInAs(browser, server, ["editor"]);
  const [editorId, englishPageId] = withDatabase(server.databasePath, (db) => [
    (db.prepare("SELECT id FROM admin_users WHERE email = ?").get(editor.email) as { id: string }).id,
    (db.prepare("SELECT id FROM content_documents WHERE type = 'page' AND path = '/'").get() as { id: string }).id,
  ]) as [string, string];

  // A German page, made by the owner.
  await owner.page.goto("/admin/pages");
  await owner.page.getByLabel("Address").fill("/de/loesungen/versicherungen");
  await owner.page.getByLabel("Title").fill("Lösungen für Versicherungen");
  await owner.page.getByRole("button", { name: "Create page" }).click();
  await expect(owner.page.getByText("The page was created as a draft.")).toBeVisible();
  const germanPageId = new URL(owner.page.url()).pathname.split("/").at(-1)!;
  // Its language as the content core records it from its address (already so once it does).
  withDatabase(server.databasePath, (db) =>
    db.prepare("UPDATE content_documents SET locale = 'de' WHERE id = ?").run(germanPageId),
  );

  // The owner limits the editor to Deutsch.
  await owner.page.goto(`/admin/users/${editorId}`);
  const languages = owner.page.getByRole("group", { name: `Languages ${editor.email} may edit` });
  await expect(languages.getByRole("checkbox", { name: "English" })).toBeChecked();
  await expect(languages.getByRole("checkbox", { name: "Deutsch" })).toBeChecked();
  await languages.getByRole("checkbox", { name: "English" }).uncheck();
  await owner.page.getByRole("button", { name: "Save languages" }).click();
  await expect(owner.page.getByText("Languages saved.")).toBeVisible();
  await expect(languages.getByRole("checkbox", { name: "English" })).not.toBeChecked();
  expect(auditActions(server, "action = ?", "user.locales-changed")).toEqual(["user.locales-changed"]);

  // The English home page's editor: 403, in words.
  const refused = await editor.page.goto(`/admin/pages/${englishPageId}`);
  expect(refused?.status()).toBe(403);
  await expect(editor.page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await expect(editor.page.getByText("This is in English, and you may edit Deutsch only.")).toBeVisible();
  // Saving it, as a hand-made form would: 403, nothing saved.
  const revision = () =>
    withDatabase(server.databasePath, (db) =>
      Number(
        (db.prepare("SELECT revision FROM content_documents WHERE id = ?").get(englishPageId) as { revision: number }).revision,
      ),
    );
  const before = revision();
  const csrf = await csrfToken(editor.page);
  const saved = await postForm(editor.context.request, server, `/admin/pages/${englishPageId}`, {
    csrf,
    intent: "save",
    revision: String(before),
    path: "/",
    title: "Home",
    description: "Home",
    "blocks.0.type": "proof-band",
  });
  expect(saved.status()).toBe(403);
  expect(revision()).toBe(before);

  // The German page: opened and saved.
  await editor.page.goto(`/admin/pages/${germanPageId}`);
  await editor.page
    .getByRole("region", { name: "Block 1: Hero" })
    .getByLabel("Main heading")
    .fill("KI-Compliance für Versicherer");
  await editor.page.getByRole("button", { name: "Save draft" }).click();
  await expect(editor.page.getByText(/Saved as revision \d+\./)).toBeVisible();
});

test("an editor limited to Deutsch starts an English page's German translation from the Pages list and reads its source beside it", async ({
  browser,
}) => {
  const editor = await signInAs(browser, server, ["editor"]);
  // An English page without a German translation, made while the editor still had every language.
  await editor.page.goto("/admin/pages");
  await editor.page.getByLabel("Address").fill("/solutions/freight");
  await editor.page.getByLabel("Title").fill("Freight forwarders");
  await editor.page.getByRole("button", { name: "Create page" }).click();
  await expect(editor.page.getByText("The page was created as a draft.")).toBeVisible();
  const englishPageId = new URL(editor.page.url()).pathname.split("/").at(-1)!;
  // Limited to Deutsch, as an owner does on their page (the test above).
  withDatabase(server.databasePath, (db) =>
    db
      .prepare("INSERT INTO admin_user_locales (user_id, locale) SELECT id, 'de' FROM admin_users WHERE email = ?")
      .run(editor.email),
  );
  expect((await editor.page.goto(`/admin/pages/${englishPageId}`))?.status()).toBe(403);

  await editor.page.goto("/admin/pages");
  const english = editor.page.getByRole("row", { name: /Freight forwarders/ });
  await expect(english.getByRole("listitem", { name: "Deutsch: Missing" })).toBeVisible();
  await english.getByRole("button", { name: "Translate into Deutsch" }).click();

  await expect(editor.page.getByText("The translation was created as a draft")).toBeVisible();
  await expect(editor.page.getByLabel("Address", { exact: true })).toHaveValue("/de/solutions/freight");
  await expect(editor.page.getByRole("region", { name: "Translation" })).toContainText(
    "The Deutsch translation of the English page Freight forwarders",
  );
  await expect(editor.page.getByRole("region", { name: "English source: Block 1: Hero" })).toContainText("Freight forwarders");
  expect(auditActions(server, "actor_email = ? AND action = ?", editor.email, "page.translation-created")).toEqual([
    "page.translation-created",
  ]);
});
