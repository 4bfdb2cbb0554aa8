import { expect, expectAccessible, test } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// A recruiter signed in with a passkey translates an English position into German from its
// editor, with the English source beside the fields, and publishes it: visitors find it on the
// German careers page, at its German address and in the German feed. A recruiter limited to
// Deutsch sees the list but gets 403 on the English position. Its own server: the other specs
// count the seed's German positions.

const server = backOfficeServerForThisFile();

const SOURCE = "/company/careers/compliance-program-manager";
const TITLE = "Compliance-Programm-Manager:in";
const PATH = "/de/unternehmen/karriere/compliance-programm-manager";

const positionId = (path: string) =>
  withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM content_documents WHERE type = 'position' AND path = ?").get(path) as { id: string }).id,
  );

test("a recruiter translates a position into German and publishes it; visitors find it; a recruiter limited to Deutsch may not open the English one", async ({
  browser,
  page: visitor,
  request,
}) => {
  const { page, email } = await signInAs(browser, server, ["recruiter"]);
  const sourceId = positionId(SOURCE);
  await page.goto("/admin/positions");
  const row = page.getByRole("row", { name: /Compliance Program Manager/ });
  await expect(row.getByRole("listitem", { name: "Deutsch: Missing" })).toBeVisible();
  await row.getByRole("link", { name: "Compliance Program Manager" }).click();

  await page.getByRole("region", { name: "Translations" }).getByRole("button", { name: "Translate into Deutsch" }).click();
  await expect(page.getByText("The translation was created as a draft")).toBeVisible();
  await expect(page.getByRole("region", { name: "Translation" })).toContainText(
    "The Deutsch translation of the English position Compliance Program Manager",
  );
  await expect(page.getByRole("region", { name: "English source: Position" })).toContainText("Compliance Program Manager");
  await expect(page.getByLabel("Slug")).toHaveValue("compliance-program-manager");
  await expect(page.getByLabel("Slug")).toHaveAccessibleDescription(/\/de\/unternehmen\/karriere\/ followed by the slug/);
  await expectAccessible(page, "position translation editor");

  await page.getByLabel("Title").fill(TITLE);
  await page.getByLabel("Slug").fill("compliance-programm-manager");
  await page.getByLabel("Team").fill("Compliance");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText(`Published: visitors see this version at ${PATH} now.`)).toBeVisible();
  expect(auditActions(server, "actor_email = ? AND action LIKE 'position.%'", email)).toEqual([
    "position.translation-created",
    "position.saved",
    "position.published",
  ]);

  // Visitors: the German careers page lists it (beside the sample's German position), its address is German, the German feed has it.
  await expect(async () => {
    await visitor.goto(`${server.url}/de/unternehmen/karriere`);
    await expect(visitor.getByRole("link", { name: TITLE })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(visitor.getByRole("link", { name: "Enterprise Account Executive (m/w/d)" })).toBeVisible();
  await expect(
    visitor.locator('head link[rel="alternate"][type="application/atom+xml"][title="Offene Stellen bei Quorvant (Atom)"]'),
  ).toHaveAttribute("href", `${server.url}/de/unternehmen/karriere/atom.xml`);
  await visitor.getByRole("link", { name: TITLE }).click();
  await expect(visitor).toHaveURL(`${server.url}${PATH}`);
  await expect(visitor.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(visitor.locator("html")).toHaveAttribute("lang", "de");
  const feed = await (await request.get(`${server.url}/de/unternehmen/karriere/atom.xml`)).text();
  expect(feed).toContain('<feed xml:lang="de"');
  expect(feed).toContain(`${server.url}${PATH}`);
  expect(await (await request.get(`${server.url}/company/careers/atom.xml`)).text()).not.toContain(TITLE);

  // A recruiter limited to Deutsch: the list, with the translation Current, yes; the English position, 403.
  const german = await signInAs(browser, server, ["recruiter"]);
  withDatabase(server.databasePath, (db) =>
    db
      .prepare("INSERT INTO admin_user_locales (user_id, locale) SELECT id, 'de' FROM admin_users WHERE email = ?")
      .run(german.email),
  );
  await german.page.goto("/admin/positions");
  await expect(
    german.page
      .getByRole("row", { name: /Compliance Program Manager/ })
      .getByRole("listitem", { name: "Deutsch: Current, Published" }),
  ).toBeVisible();
  expect((await german.page.goto(`/admin/positions/${sourceId}`))?.status()).toBe(403);
  expect((await german.page.goto(`/admin/positions/${positionId(PATH)}`))?.status()).toBe(200);
});
