import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, type SignedInPerson, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// Editors write posts in the browser: the code editor with its live preview, drafts, scheduling,
// publishing, revisions and restoring, renaming (the old address keeps working), two editors
// saving over each other, markup that would not render and a post that fails the checks before
// publishing refused before it goes live, and every save in the audit log.

const server = backOfficeServerForThisFile();

/** A real 1600×900 PNG with some content, made by sharp. */
async function testPng(): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  return sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 30, g: 64, b: 175 } } })
    .composite([
      {
        input: Buffer.from('<svg width="800" height="400"><rect width="800" height="400" fill="#fbbf24"/></svg>'),
        top: 200,
        left: 400,
      },
    ])
    .png()
    .toBuffer();
}

// Each test signs editors in with passkeys and saves several times: minutes on a busy machine.
test.describe.configure({ timeout: 120_000 });

/** The body's code editor once it has replaced the textarea (its content is a labelled textbox). */
async function bodyEditor(page: Page) {
  const editor = page.locator(".cm-content");
  await expect(editor).toBeVisible();
  await expect(editor).toHaveAttribute("aria-labelledby", /.+/);
  return editor;
}

async function fillPost(page: Page, fields: { title: string; slug?: string; excerpt?: string; category?: string; body: string }) {
  await page.getByLabel("Title", { exact: true }).fill(fields.title);
  if (fields.slug !== undefined) await page.getByLabel("Slug", { exact: true }).fill(fields.slug);
  await page.getByLabel("Category").fill(fields.category ?? "Research");
  await page.getByLabel("Excerpt").fill(fields.excerpt ?? "What the post is about, in a sentence.");
  const editor = await bodyEditor(page);
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(fields.body);
}

function postRow(slug: string) {
  return withDatabase(server.databasePath, (db) =>
    db.prepare("SELECT id, slug, title, published, published_date, featured, read_time FROM blog_posts WHERE slug = ?").get(slug),
  ) as
    | { id: string; slug: string; title: string; published: number; published_date: string; featured: number; read_time: number }
    | undefined;
}

/** The next whole minute at least `margin` seconds ahead, as a UTC datetime-local value and as a Date. */
function nextMinute(marginSeconds: number) {
  const at = new Date(Math.ceil((Date.now() + marginSeconds * 1000) / 60_000) * 60_000);
  return { at, local: at.toISOString().slice(0, 16) };
}

async function publicPresence(slug: string) {
  const [list, feed, sitemap, page] = await Promise.all([
    fetch(`${server.url}/resources/blog`).then((response) => response.text()),
    fetch(`${server.url}/feed.json`).then((response) => response.text()),
    fetch(`${server.url}/sitemap.xml`).then((response) => response.text()),
    fetch(`${server.url}/resources/blog/${slug}`, { redirect: "manual" }).then((response) => response.status),
  ]);
  return {
    list: list.includes(`/resources/blog/${slug}"`),
    feed: feed.includes(`/resources/blog/${slug}"`),
    sitemap: sitemap.includes(`/resources/blog/${slug}<`),
    page,
  };
}

test("an editor writes a post with a live preview, schedules it, and it appears on the site at its time, not before", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const editor = await signInAs(browser, server, ["editor"]);
  const { page } = editor;
  await page.goto(`${server.url}/admin`);
  await page.getByRole("navigation").getByRole("link", { name: "Posts" }).click();
  await page.getByRole("link", { name: "New post" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New post" })).toBeVisible();

  const slug = `scheduled-${Date.now()}`;
  await fillPost(page, {
    title: "Scheduled from the back office",
    slug,
    body: "# Why it matters\n\nA **bold** claim with a [source](https://example.com).\n\n- one\n- two",
  });
  // The preview beside the editor is the public renderer's HTML, updated as the editor types.
  const preview = page.getByTestId("live-preview");
  await expect(preview.getByRole("heading", { level: 2, name: "Why it matters" })).toBeVisible();
  await expect(preview.locator("strong", { hasText: "bold" })).toBeVisible();
  await expect(preview.getByRole("link", { name: "source" })).toHaveAttribute("href", "https://example.com");
  await expect(page.getByText("You have unsaved changes.")).toBeVisible();
  // The read time follows the body unless set.
  await expect(page.getByText(/now 1 min/)).toBeVisible();

  // The post's image, uploaded on the spot: it joins the library and becomes the post's choice.
  const upload = page.getByRole("region", { name: "Upload a new image" });
  await upload.getByLabel("Image file").setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: await testPng() });
  await upload.getByLabel("Alt text").fill("A rising line chart");
  await upload.getByRole("button", { name: "Upload" }).click();
  await expect(upload.getByText('Uploaded "A rising line chart" and chosen as the post\'s image.')).toBeVisible();
  await expect(page.getByRole("radio", { name: /A rising line chart/ })).toBeChecked();

  await page.getByLabel("Time zone").selectOption("UTC");
  const { at, local } = nextMinute(25);
  await page.getByLabel("Publication date").fill(local);
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  await expect(page.getByText(/^Scheduled for/)).toBeVisible();
  const row = postRow(slug)!;
  expect(row.published).toBe(1);
  expect(new Date(row.published_date).toISOString()).toBe(at.toISOString());

  // Before its time: nowhere on the public site.
  expect(await publicPresence(slug)).toEqual({ list: false, feed: false, sitemap: false, page: 404 });

  // The full-page preview is one click away, in a new tab, through a signed link.
  const [previewTab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "Open full-page preview" }).click(),
  ]);
  await expect(previewTab.getByRole("heading", { level: 1, name: "Scheduled from the back office" })).toBeVisible();
  expect(previewTab.url()).toMatch(/\/resources\/blog\/preview\/[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/);
  await previewTab.close();

  // At its time it appears everywhere, by itself.
  await expect
    .poll(() => publicPresence(slug), { timeout: 100_000, intervals: [2000] })
    .toEqual({ list: true, feed: true, sitemap: true, page: 200 });

  expect(auditActions(server, "actor_email = ? AND action LIKE 'post.%'", editor.email)).toEqual([
    "post.created",
    "post.preview-link",
  ]);
});

test("a published post: edit it, compare revisions, restore an earlier one, rename it and follow the old link", async ({
  browser,
}) => {
  const editor = await signInAs(browser, server, ["editor"]);
  const { page } = editor;
  const slug = `renamed-${Date.now()}`;
  await page.goto(`${server.url}/admin/posts/new`);
  await fillPost(page, { title: "First title", slug, body: "The original sentence." });
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  await expect(page.getByText(`Published at /resources/blog/${slug}`)).toBeVisible();
  expect((await fetch(`${server.url}/resources/blog/${slug}`)).status).toBe(200);

  await fillPost(page, { title: "Second title", body: "A rewritten sentence." });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved as revision 2.")).toBeVisible();
  await expect(page.getByText("You have unsaved changes.")).toBeHidden();

  await page.getByRole("link", { name: "Revisions" }).click();
  await expect(page.getByRole("heading", { name: "Changes from revision 1 to revision 2" })).toBeVisible();
  await expect(page.locator("del", { hasText: "The original sentence." })).toBeVisible();
  await expect(page.locator("ins", { hasText: "A rewritten sentence." })).toBeVisible();
  await page.getByRole("button", { name: "Restore revision 1" }).click();
  await expect(page.getByText("Revision 1 was restored as a new revision.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Restored revision 1" })).toBeVisible();
  expect(postRow(slug)!.title).toBe("First title");
  // Restoring changed the words, not the state: the post is still live.
  expect((await fetch(`${server.url}/resources/blog/${slug}`)).status).toBe(200);

  // Renamed twice: both old addresses lead straight to the current one.
  await page.getByRole("link", { name: "Back to the post" }).click();
  for (const next of [`${slug}-v2`, `${slug}-v3`]) {
    await page.getByLabel("Slug", { exact: true }).fill(next);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(`Published at /resources/blog/${next}`)).toBeVisible();
  }
  for (const old of [slug, `${slug}-v2`]) {
    const response = await fetch(`${server.url}/resources/blog/${old}`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location")!, server.url).pathname).toBe(`/resources/blog/${slug}-v3`);
  }
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/resources/blog/${slug}`);
  await expect(visitor).toHaveURL(`${server.url}/resources/blog/${slug}-v3`);
  await expect(visitor.getByRole("heading", { level: 1, name: "First title" })).toBeVisible();
  await visitor.close();
  const feed = await (await fetch(`${server.url}/feed.json`)).text();
  expect(feed).toContain(`/resources/blog/${slug}-v3"`);
  expect(feed).not.toContain(`/resources/blog/${slug}"`);
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  expect(sitemap).not.toContain(`/resources/blog/${slug}-v2<`);

  expect(auditActions(server, "actor_email = ? AND action LIKE 'post.%'", editor.email)).toEqual([
    "post.created",
    "post.saved",
    "post.restored",
    "post.saved",
    "post.saved",
  ]);
});

test("two editors save the same post: the second is told what the first changed, and keeps their text", async ({ browser }) => {
  const first = await signInAs(browser, server, ["editor"]);
  const second = await signInAs(browser, server, ["editor"]);
  const slug = `conflict-${Date.now()}`;
  await first.page.goto(`${server.url}/admin/posts/new`);
  await fillPost(first.page, { title: "Shared post", slug, body: "Line one.\nLine two." });
  await first.page.getByRole("button", { name: "Save draft" }).click();
  await expect(first.page.getByText("The post was created.")).toBeVisible();
  const url = first.page.url().split("?")[0]!;

  await second.page.goto(url);
  await bodyEditor(second.page);
  await fillPost(first.page, { title: "Shared post", body: "Line one, edited by the first editor.\nLine two." });
  await first.page.getByRole("button", { name: "Save draft" }).click();
  await expect(first.page.getByText("Saved as revision 2.")).toBeVisible();

  await fillPost(second.page, { title: "Shared post", body: "Line one.\nLine two, edited by the second editor." });
  await second.page.getByRole("button", { name: "Save draft" }).click();
  const alert = second.page.getByRole("alert").filter({ hasText: "Not saved" });
  await expect(alert).toContainText(`${first.email} saved this post (revision 2`);
  await expect(alert.locator("ins", { hasText: "Line one, edited by the first editor." })).toBeVisible();
  await expect(second.page.locator(".cm-content")).toContainText("Line two, edited by the second editor.");
  expect(
    withDatabase(server.databasePath, (db) => db.prepare("SELECT content FROM blog_posts WHERE slug = ?").get(slug)),
  ).toEqual({
    content: "Line one, edited by the first editor.\nLine two.",
  });
  // Having seen their changes, saving again is a choice, not an accident.
  await second.page.getByRole("button", { name: "Save draft" }).click();
  await expect(second.page.getByText("Saved as revision 3.")).toBeVisible();
});

test("markup the site would not render is flagged and keeps the post from going live; featuring one post unfeatures the other", async ({
  browser,
}) => {
  const editor = await signInAs(browser, server, ["editor"]);
  const { page } = editor;
  const slug = `flagged-${Date.now()}`;
  const featuredBefore = withDatabase(server.databasePath, (db) =>
    db.prepare("SELECT title FROM blog_posts WHERE featured = 1").all(),
  ) as {
    title: string;
  }[];
  await page.goto(`${server.url}/admin/posts/new`);
  await fillPost(page, { title: "Flagged post", slug, body: "Read [this](javascript:alert(1)).\n\n| a | b |\n| --- | --- |" });
  await expect(page.getByText('Line 1: The link to "javascript:alert(1" is not allowed', { exact: false })).toBeVisible();
  await expect(page.getByText("Line 4: Tables are not supported", { exact: false })).toBeVisible();
  await page.getByLabel("Featured post").check();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Fix the marked lines of the body before publishing.")).toBeVisible();
  expect(postRow(slug)).toBeUndefined();

  await fillPost(page, { title: "Flagged post", body: "Read [this](https://example.com)." });
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  if (featuredBefore.length) {
    await expect(
      page.getByText(`This post is now the featured post: "${featuredBefore[0]!.title}"`, { exact: false }),
    ).toBeVisible();
  }
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT slug FROM blog_posts WHERE featured = 1").all())).toEqual([
    { slug },
  ]);
});

test("a post whose body links to a page the site does not have is not published until the link is fixed", async ({ browser }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  const slug = `checked-${Date.now()}`;
  await page.goto(`${server.url}/admin/posts/new`);
  await fillPost(page, { title: "Checked before it goes live", slug, body: "Read [the guide](/no-such-page) first." });
  await page.getByRole("button", { name: "Publish now" }).click();
  const problems = page
    .getByRole("alert")
    .filter({ hasText: "Nothing was saved: fix these problems before the post goes live." });
  await expect(problems.getByRole("listitem")).toHaveText(["Body: the link to /no-such-page leads to no page of the site."]);
  expect(postRow(slug)).toBeUndefined();

  // The editor's text is kept: only the link changes.
  await expect(page.locator(".cm-content")).toContainText("Read [the guide](/no-such-page) first.");
  await fillPost(page, { title: "Checked before it goes live", body: "Read [the guide](/resources/documentation) first." });
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  expect(postRow(slug)).toMatchObject({ published: 1 });
});

test("without JavaScript the editor is a plain form that saves, validates and previews", async ({ browser }) => {
  const person: SignedInPerson = await signInAs(browser, server, ["editor"]);
  const cookies = await person.context.cookies();
  const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto("/admin/posts/new");
  await page.getByLabel("Title", { exact: true }).fill("");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Title must not be empty.")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");

  const slug = `no-script-${Date.now()}`;
  await page.getByLabel("Title", { exact: true }).fill("Written without scripts");
  await page.getByLabel("Slug", { exact: true }).fill(slug);
  await page.getByLabel("Category").fill("Research");
  await page.getByLabel("Excerpt").fill("Plain form.");
  await page.getByLabel("Body").fill("## A heading\n\nSome text.");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(page.getByTestId("live-preview").getByRole("heading", { name: "A heading" })).toBeVisible();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  expect(postRow(slug)).toMatchObject({ title: "Written without scripts", published: 0 });
  await context.close();
});

test("leaving the editor with unsaved changes asks first", async ({ browser }) => {
  const { page } = await signInAs(browser, server, ["editor"]);
  await page.goto(`${server.url}/admin/posts/new`);
  await page.getByLabel("Title", { exact: true }).fill("Unsaved");
  // Shown once the page's scripts run, whether the title was typed before or after.
  await expect(page.getByRole("status").filter({ hasText: "You have unsaved changes." })).toBeVisible();
  const dialogs: string[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("navigation").getByRole("link", { name: "Posts" }).click();
  await expect.poll(() => dialogs).toEqual(["You have unsaved changes. Leave this page and lose them?"]);
  await expect(page).toHaveURL(`${server.url}/admin/posts/new`);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Unsaved");
});

test("sales and legal cannot open the post editor", async ({ browser }) => {
  for (const role of ["sales", "legal"] as const) {
    const { page } = await signInAs(browser, server, [role]);
    for (const path of ["/admin/posts", "/admin/posts/new"]) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
    }
  }
});
