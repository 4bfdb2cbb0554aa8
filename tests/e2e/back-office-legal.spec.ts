import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// The legal team keeps the privacy policy and the terms of use at /admin/legal: a new version is
// drafted (sections edited, added, moved, removed), previewed as visitors will see it, and
// published; the old one stays readable in the public history. A document the public page would
// refuse is refused before it goes live. Only the legal role (and owners) get in.

const server = backOfficeServerForThisFile();

// Each test signs someone in with a passkey and walks several pages: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

const today = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date());
const legalActions = (email: string) => auditActions(server, "actor_email = ? AND action LIKE 'legal.%'", email);

/** The public page, once its one-second cache has let the new state through. */
async function openPublicPage(page: Page, path: string, expected: RegExp) {
  await expect(async () => {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByText(expected).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

test("a legal editor drafts, previews and publishes a privacy policy version; the site shows it and keeps the old one", async ({
  browser,
}) => {
  const legal = await signInAs(browser, server, ["legal"]);
  const { page } = legal;
  await page.goto(`${server.url}/admin`);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Legal documents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Legal documents" })).toBeVisible();
  const privacy = page.getByRole("region", { name: "Privacy Policy" });
  await expect(privacy.getByRole("row", { name: /Version 2\.2 of the Privacy Policy/ })).toContainText("In force");
  await expectAccessible(page, "legal documents");

  await privacy.getByRole("button", { name: "Start a new draft of the Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy, draft version 2.3" })).toBeVisible();
  await expect(page.getByLabel("Version number")).toHaveValue("2.3");
  await expect(page.getByLabel("Effective date")).toHaveValue(new Date().toISOString().slice(0, 10));
  await expect(page.getByLabel("Section 6 title")).toHaveValue("Retention");

  await page.getByLabel("What changed").fill("Job applications are kept for six months; a contact section.");
  const retention = page.getByLabel("Section 6 text");
  await retention.fill((await retention.inputValue()).replace("kept for 12 months", "kept for 6 months"));
  // Sections are added, moved and removed by buttons; nothing is saved until "Save draft".
  await page.getByRole("button", { name: "Add a section" }).click();
  await expect(page.getByLabel("Section 10 title")).toBeFocused();
  await page.getByLabel("Section 10 title").fill("Contact");
  await page.getByLabel("Section 10 text").fill("Write to privacy@quorvant.com with any question about this policy.");
  await page.getByRole("button", { name: "Move up section 10" }).click();
  await expect(page.getByLabel("Section 9 title")).toHaveValue("Contact");
  await expect(page.getByLabel("Section 10 title")).toHaveValue("Changes to this policy");
  await page.getByRole("button", { name: "Add a section" }).click();
  await page.getByRole("button", { name: "Remove section 11" }).click();
  await expect(page.getByLabel("Section 11 title")).toHaveCount(0);
  // What was typed survived the round trips.
  await expect(page.getByLabel("Section 6 text")).toHaveValue(/kept for 6 months/);
  await expect(page.getByLabel("What changed")).toHaveValue(/six months/);
  expect(legalActions(legal.email)).toEqual(["legal.draft-created"]);

  // A bad version number: the message sits next to the field, the text stays, nothing is saved.
  await page.getByLabel("Version number").fill("2.2");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Version number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/^Version 2\.2 of the Privacy Policy is already published/)).toBeVisible();
  await expect(page.getByLabel("Section 9 title")).toHaveValue("Contact");
  await expectAccessible(page, "draft editor with an error");
  expect(legalActions(legal.email)).toEqual(["legal.draft-created"]);

  await page.getByLabel("Version number").fill("2.3");
  await page.getByRole("button", { name: "Save and preview" }).click();
  // The preview: the public frame, the public page's rendering, a banner saying what it is.
  await expect(page.getByText("Preview — not published")).toBeVisible();
  await expect(page.getByText("Visitors see version 2.2 until it is published.", { exact: false })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Back office" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText(`Version 2.3 · Last updated ${today}`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Contact", exact: true })).toBeVisible();
  await expect(page.getByText(/kept for 6 months/)).toBeVisible();
  await expectAccessible(page, "legal preview");

  // Visitors still read 2.2 while the draft waits.
  const visitor = await browser.newPage();
  await openPublicPage(visitor, "/terms/privacy-policy", /^Version 2\.2/);

  await page.getByRole("button", { name: "Publish version 2.3" }).click();
  await expect(
    page.getByText("Version 2.3 is published: it is now the Privacy Policy on the site, and version 2.2 is in its history."),
  ).toBeVisible();
  // Published: shown as it stands, no editor any more.
  await expect(page.getByRole("button", { name: "Save draft" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Start a new draft from this version" })).toBeVisible();
  expect(legalActions(legal.email)).toEqual(["legal.draft-created", "legal.draft-saved", "legal.published"]);

  await openPublicPage(visitor, "/terms/privacy-policy", /^Version 2\.3/);
  await expect(visitor.getByText(`Version 2.3 · Last updated ${today}`)).toBeVisible();
  await expect(visitor.getByText(/kept for 6 months/)).toBeVisible();
  const history = visitor.getByRole("region", { name: "Earlier versions" });
  await history.getByRole("link", { name: "Version 2.2" }).click();
  await expect(visitor.getByText("This version (2.2, updated November 26, 2026) has been superseded.")).toBeVisible();
  await expect(visitor.getByText(/kept for 12 months/)).toBeVisible();
  await visitor.close();

  // What changed, line by line: the retention text and the new section.
  await page.goto(`${server.url}/admin/legal`);
  await page.getByRole("link", { name: "Changes in version 2.3" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Compare versions" })).toBeVisible();
  const text = page.getByRole("figure").filter({ hasText: /^Text/ });
  await expect(text.locator("del").filter({ hasText: "kept for 12 months" })).toHaveCount(1);
  await expect(text.locator("ins").filter({ hasText: "kept for 6 months" })).toHaveCount(1);
  await expect(text.locator("ins").filter({ hasText: "## Contact" })).toHaveCount(1);
  // The new version takes effect today; the one in force took effect on 2026-11-26 (the same day,
  // when the suite runs then: no change of date to show).
  const effectiveDateChange = page
    .getByRole("figure")
    .filter({ hasText: /^Effective date/ })
    .locator("del");
  if (new Date().toISOString().slice(0, 10) === "2026-11-26") await expect(effectiveDateChange).toHaveCount(0);
  else await expect(effectiveDateChange).toHaveText("Removed: 2026-11-26");
  await expectAccessible(page, "compare versions");
  await legal.context.close();
});

test("a document the public page would refuse is refused before publishing, without JavaScript too", async ({ browser }) => {
  const legal = await signInAs(browser, server, ["legal"]);
  // The same person in a browser with JavaScript off: every page and button is a plain form.
  const context = await browser.newContext({
    baseURL: server.url,
    javaScriptEnabled: false,
    storageState: await legal.context.storageState(),
  });
  const page = await context.newPage();
  // A draft written by another tool: its one section has a title but no text.
  const id = randomUUID();
  withDatabase(server.databasePath, (db) =>
    db
      .prepare(
        "INSERT INTO legal_documents (id, document_type, title, content, last_updated, version, published, change_summary) VALUES (?, 'terms-of-use', 'Terms of Use', ?, ?, '2.0', 0, 'Rewritten scope')",
      )
      .run(id, JSON.stringify({ sections: [{ title: "Scope" }] }), `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`),
  );

  await page.goto("/admin/legal");
  await page.getByRole("link", { name: "Version 2.0 of the Terms of Use" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Use, draft version 2.0" })).toBeVisible();
  await expect(
    page.getByText("Invalid document content structure: the saved content of this draft is not a valid legal document"),
  ).toBeVisible();
  // Its preview fails exactly as the public page would, and offers no publishing.
  await page.getByRole("link", { name: "Preview the saved draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Error Loading Terms of Use" })).toBeVisible();
  await expect(page.getByText("Invalid document content structure", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Publish/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Back to the draft" }).click();

  await page.getByRole("button", { name: "Publish version 2.0" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Invalid document content structure: this draft cannot be published." }),
  ).toBeVisible();
  expect(
    withDatabase(server.databasePath, (db) => db.prepare("SELECT published FROM legal_documents WHERE id = ?").get(id)),
  ).toEqual({
    published: 0,
  });
  await openPublicPage(page, "/terms/terms-of-use", /^Version 1\.3/);
  expect(legalActions(legal.email)).toEqual([]);

  // Fixed in the editor (the section's text added, a section added and moved first), it goes live.
  await page.goto(`/admin/legal/versions/${id}`);
  await page.getByLabel("Section 1 text").fill("These terms cover the website and nothing else.");
  await page.getByRole("button", { name: "Add a section" }).click();
  await page.getByLabel("Section 2 title").fill("Definitions");
  await page.getByLabel("Section 2 text").fill("“We” means Quorvant.");
  await page.getByRole("button", { name: "Move up section 2" }).click();
  await expect(page.getByLabel("Section 1 title")).toHaveValue("Definitions");
  await expect(page.getByLabel("Section 2 text")).toHaveValue("These terms cover the website and nothing else.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved.")).toBeVisible();
  await page.getByRole("button", { name: "Publish version 2.0" }).click();
  await expect(page.getByText("Version 2.0 is published", { exact: false })).toBeVisible();
  await openPublicPage(page, "/terms/terms-of-use", /^Version 2\.0/);
  await expect(page.getByText("These terms cover the website and nothing else.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
    "Definitions",
    "Scope",
    "Earlier versions",
  ]);
  expect(legalActions(legal.email)).toEqual(["legal.draft-saved", "legal.published"]);
  await context.close();
  await legal.context.close();
});

test("an owner discards a draft, and the log keeps a note of it", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const { page } = owner;
  await page.goto(`${server.url}/admin/legal`);
  await page.getByRole("button", { name: "Start a new draft of the Terms of Use" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Terms of Use, draft version / })).toBeVisible();
  await page.getByRole("button", { name: "Discard this draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Legal documents" })).toBeVisible();
  await expect(page.getByText("The draft was discarded.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Terms of Use" }).getByText("Draft", { exact: true })).toHaveCount(0);
  expect(legalActions(owner.email)).toEqual(["legal.draft-created", "legal.draft-discarded"]);
  await owner.context.close();
});

test("sales may not open or change legal documents: every page and action answers 403", async ({ browser }) => {
  const sales = await signInAs(browser, server, ["sales"]);
  const { page } = sales;
  await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Legal documents" })).toHaveCount(
    0,
  );
  const id = withDatabase(
    server.databasePath,
    (db) =>
      (db.prepare("SELECT id FROM legal_documents WHERE document_type = 'privacy-policy' LIMIT 1").get() as { id: string }).id,
  );
  for (const path of [
    "/admin/legal",
    "/admin/legal/compare",
    `/admin/legal/versions/${id}`,
    `/admin/legal/versions/${id}/preview`,
  ]) {
    const response = await page.goto(`${server.url}${path}`);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
    await expect(page.getByText("It needs the Legal role.")).toBeVisible();
  }
  const csrf = await csrfToken(page);
  const rows = () => withDatabase(server.databasePath, (db) => db.prepare("SELECT * FROM legal_documents ORDER BY id").all());
  const before = rows();
  for (const [path, form] of [
    ["/admin/legal", { intent: "new-draft", type: "privacy-policy" }],
    [`/admin/legal/versions/${id}`, { intent: "publish", revision: "0" }],
    [`/admin/legal/versions/${id}`, { intent: "discard", revision: "0" }],
  ] as const) {
    expect((await postForm(page.context().request, server, path, { ...form, csrf })).status(), path).toBe(403);
  }
  expect(rows()).toEqual(before);
  expect(legalActions(sales.email)).toEqual([]);
  await sales.context.close();
});
