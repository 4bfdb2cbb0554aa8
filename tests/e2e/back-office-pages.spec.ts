import { test, expect, expectAccessible } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// Marketing edits the site's pages in the back office, signed in with a passkey: the home page's
// hero and a feature changed, previewed at phone width, published and seen on /; a landing page
// built from five block types, scheduled, absent until its time and then in the sitemap; its path
// renamed, the old address leading to the new one; an earlier revision of the home page restored.
// Its own server: the other specs expect the seed's pages.

const server = backOfficeServerForThisFile();
test.describe.configure({ mode: "serial", timeout: 120_000 });

const HOME_TITLE = "Private AI Compliance, Security and Governance Platform";

function pageId(path: string): string {
  return withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM content_documents WHERE type = 'page' AND path = ?").get(path) as { id: string }).id,
  );
}

test("an editor changes the home hero and a feature, previews at phone width, and publishes", async ({ browser }) => {
  const { page, email } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/pages");
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await page.getByRole("link", { name: HOME_TITLE }).click();
  await expect(page.getByRole("heading", { level: 1, name: HOME_TITLE })).toBeVisible();

  const hero = page.getByRole("region", { name: "Block 1: Hero" });
  const features = page.getByRole("region", { name: "Block 3: Grid of items" });
  await expect(features.getByLabel("Title").first()).toHaveValue("Advanced Security");

  // A required field left empty: refused next to it, nothing saved, the rest of the input kept.
  await hero.getByLabel("Main heading").fill("");
  await features.getByLabel("Title").first().fill("Airtight Security");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(hero.getByLabel("Main heading")).toHaveAttribute("aria-invalid", "true");
  await expect(hero.getByLabel("Main heading")).toHaveAccessibleDescription(/is required/);
  await expect(features.getByLabel("Title").first()).toHaveValue("Airtight Security");
  expect(auditActions(server, "actor_email = ?", email)).not.toContain("page.saved");

  // The preview follows the typing, in the site's frame, at phone width.
  await page.getByRole("button", { name: "Phone" }).click();
  const preview = page.frameLocator('iframe[name="page-preview"]');
  await expect(page.locator('iframe[name="page-preview"]')).toHaveAttribute("title", "Preview at phone width");
  await hero.getByLabel("Main heading").fill("Governed AI, on your own servers");
  await expect(preview.getByRole("heading", { level: 1, name: "Governed AI, on your own servers" })).toBeVisible();
  await expect(preview.getByRole("heading", { name: "Airtight Security" })).toBeVisible();
  expect(await page.locator('iframe[name="page-preview"]').evaluate((frame) => frame.getBoundingClientRect().width)).toBe(390);
  await expectAccessible(page, "page editor", { exclude: 'iframe[name="page-preview"]' });

  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at / now.")).toBeVisible();
  // The preview on its own, as the frame shows it: the public page's frame and blocks.
  const previewPage = await page.context().newPage();
  await previewPage.goto(`/admin/pages/${pageId("/")}/preview`);
  await expect(previewPage.getByRole("heading", { level: 1, name: "Governed AI, on your own servers" })).toBeVisible();
  await expectAccessible(previewPage, "page preview");
  await previewPage.close();
  expect(auditActions(server, "actor_email = ?", email)).toEqual(expect.arrayContaining(["page.saved", "page.published"]));

  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Governed AI, on your own servers" })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Airtight Security" })).toBeVisible();
  await visitor.close();
});

test("a landing page from five block types: scheduled, absent until its time, then in the sitemap; moved, its old address follows", async ({
  browser,
  request,
}) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto("/admin/pages");
  // A path the site's own routes answer is refused with the reason.
  await page.getByLabel("Address").fill("/contact-sales");
  await page.getByLabel("Title").fill("Financial services");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByLabel("Address")).toHaveAccessibleDescription(/not free/);
  await page.getByLabel("Address").fill("/solutions/financial-services");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByText("The page was created as a draft.")).toBeVisible();

  // Four more block types after the hero: grid of items, figures, frequently asked questions, call to action.
  for (const type of ["Grid of items", "Figures", "Frequently asked questions", "Call to action"]) {
    await page.getByLabel("Type of block").selectOption({ label: type });
    await page.getByRole("button", { name: "Add block" }).click();
    await expect(page.getByRole("region", { name: new RegExp(`: ${type}$`) })).toBeFocused();
  }
  const faq = page.getByRole("region", { name: "Block 4: Frequently asked questions" });
  await faq.getByLabel("Question").fill("Do you support DORA?");
  await faq.getByLabel("Answer").fill("Yes: every control maps to the regulation's articles.");
  // Moving the call to action up one place, by keyboard: the button is reached and pressed without a mouse.
  await page.getByRole("button", { name: "Move up block 5" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Block 4: Call to action" })).toBeFocused();

  // A link to no page of the site is refused next to its control: nothing saved or published, the typing kept.
  const cta = page.getByRole("region", { name: "Block 4: Call to action" });
  await cta.getByLabel("Link").fill("/no-such-page");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(cta.getByLabel("Link")).toHaveAttribute("aria-invalid", "true");
  await expect(cta.getByLabel("Link")).toHaveAccessibleDescription(/No page of the site is at \/no-such-page\./);
  await expect(cta.getByLabel("Link")).toHaveValue("/no-such-page");
  await cta.getByLabel("Link").fill("/request-demo");

  // A reviewer without an account reads the draft through a signed preview link.
  await page.getByRole("button", { name: "Make preview link" }).click();
  const link = await page.getByLabel("Preview link").inputValue();
  expect(link).toMatch(new RegExp(`^${server.url}/preview/page-`));
  const reviewer = await browser.newPage();
  const answer = await reviewer.goto(link);
  expect(answer?.headers()["cache-control"]).toBe("no-store");
  await expect(reviewer.getByText("Preview — not published")).toBeVisible();
  await expect(reviewer.getByText("Do you support DORA?")).toBeVisible();
  expect((await reviewer.goto(`${link.slice(0, -1)}${link.endsWith("0") ? "1" : "0"}`))?.status()).toBe(404);
  await reviewer.close();

  const id = pageId("/solutions/financial-services");
  await page.getByLabel("Publish at").fill("2030-01-01T09:00");
  await page.getByLabel("Time zone").selectOption("Europe/Zurich");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText(/Scheduled: visitors see this version at \/solutions\/financial-services from/)).toBeVisible();
  // Stored in UTC: 09:00 in Zurich in winter is 08:00 UTC.
  expect(
    withDatabase(server.databasePath, (db) => db.prepare("SELECT publish_at FROM content_documents WHERE id = ?").get(id)),
  ).toEqual({ publish_at: expect.stringMatching(/^2030-01-01T08:00:00/) });
  expect((await request.get(`${server.url}/solutions/financial-services`)).status()).toBe(404);
  expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).not.toContain("/solutions/financial-services");

  // Its time comes (the clock moved on: the stored time set to a second ago).
  withDatabase(server.databasePath, (db) =>
    db.prepare("UPDATE content_documents SET publish_at = ? WHERE id = ?").run(new Date(Date.now() - 1000).toISOString(), id),
  );
  await expect(async () => {
    expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).toContain("/solutions/financial-services");
    // The server's pages in memory learn of the change the test made in the database within the watch's interval.
    expect((await request.get(`${server.url}/solutions/financial-services`)).status()).toBe(200);
  }).toPass({ timeout: 5_000 });
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/solutions/financial-services`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Financial services" })).toBeVisible();
  await expect(visitor.getByText("Do you support DORA?")).toBeVisible();

  // Renamed: the old address leads to the new one.
  await page.reload();
  await page.getByLabel("Address").first().fill("/solutions/banking");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at /solutions/banking now.")).toBeVisible();
  await visitor.goto(`${server.url}/solutions/financial-services`);
  await expect(visitor).toHaveURL(`${server.url}/solutions/banking`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Financial services" })).toBeVisible();
  await visitor.close();
});

test("an earlier revision of the home page is restored and published", async ({ browser }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  const id = pageId("/");
  await page.goto(`/admin/pages/${id}/revisions`);
  await expect(page.getByRole("heading", { level: 1, name: /Revisions of/ })).toBeVisible();
  // The first test's save changed the hero's title: the comparison says so in the block's words.
  await expect(page.getByText("Governed AI, on your own servers").first()).toBeVisible();
  await page.getByRole("button", { name: "Restore revision 1" }).click();
  await expect(page.getByText("Revision 1 was restored as a new revision.")).toBeVisible();
  await page.getByRole("link", { name: "Back to the page" }).click();
  await expect(page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading")).toHaveValue(HOME_TITLE);
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: visitors see this version at / now.")).toBeVisible();
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/`);
  await expect(visitor.getByRole("heading", { level: 1, name: HOME_TITLE })).toBeVisible();
  await visitor.close();
});

test("without JavaScript every editing button is a form post that saves", async ({ browser }) => {
  const { context } = await signInAs(browser, server, ["editor"]);
  const noScript = await browser.newContext({
    baseURL: server.url,
    storageState: await context.storageState(),
    javaScriptEnabled: false,
  });
  const page = await noScript.newPage();
  const id = pageId("/company/about");
  await page.goto(`/admin/pages/${id}`);
  const blocks = await page.getByRole("region", { name: /^Block \d+: / }).count();
  await page.getByLabel("Type of block").selectOption({ label: "Quote" });
  await page.getByRole("button", { name: "Add block" }).click();
  await expect(page.getByText(/^Saved as revision \d+\.$/)).toBeVisible();
  await expect(page.getByRole("region", { name: `Block ${blocks + 1}: Quote` })).toBeVisible();
  await page.getByRole("button", { name: `Move up block ${blocks + 1}` }).click();
  await expect(page.getByRole("region", { name: `Block ${blocks}: Quote` })).toBeVisible();
  await page.getByRole("button", { name: `Remove block ${blocks}` }).click();
  await expect(page.getByRole("region", { name: /: Quote$/ })).toHaveCount(0);
  // The preview pane is the saved draft in the site's frame: no script needed.
  await expect(page.frameLocator('iframe[name="page-preview"]').getByRole("heading", { level: 1 })).toBeVisible();
  await noScript.close();
});

test("a block list too large to send is refused next to its field before it is sent, nothing saved, the typing kept; sent anyway, it is not read", async ({
  browser,
}) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  const id = pageId("/company/about");
  const revision = () =>
    withDatabase(server.databasePath, (db) => db.prepare("SELECT revision FROM content_documents WHERE id = ?").get(id));
  const before = revision();
  await page.goto(`/admin/pages/${id}`);
  const field = page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Introduction");
  // Past what the field lets one type or paste (as a script or another tool would fill it), and past
  // the 2 MB the server reads of this form; no larger, as a browser lays out every line of a textarea.
  const huge = "Compliance. ".repeat(190_000);
  await field.evaluate((control, value) => {
    (control as HTMLTextAreaElement).removeAttribute("maxlength");
    (control as HTMLTextAreaElement).value = value;
  }, huge);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/admin/pages/${id}`) sent.push(request.url());
  });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    /This field holds 2\.2 MB: a page's blocks take at most 512 KB\. Nothing was sent\./,
  );
  await expect(field).toBeFocused();
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was saved" })).toBeVisible();
  expect(await field.evaluate((control) => (control as HTMLTextAreaElement).value.length)).toBe(huge.length);
  expect(sent).toEqual([]);
  expect(revision()).toEqual(before);

  // Sent anyway (no script, or another client): the server reads none of it and says why. (10 MB
  // are refused the same way, by the length the request declares, before a byte is read.)
  const answer = await postForm(page.request, server, `/admin/pages/${id}`, {
    csrf: await csrfToken(page),
    revision: String((before as { revision: number }).revision),
    intent: "save",
    "blocks.0.lede": huge,
  });
  expect(answer.status()).toBe(413);
  expect(await answer.text()).toContain("Submissions here are limited to 2048 KiB.");
  expect(revision()).toEqual(before);
});
