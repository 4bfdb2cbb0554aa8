import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// An editor adds a permanent redirect and a gone address in the back office; a visitor follows
// them; a loop is refused with its reason (also without JavaScript); a renamed post's old address
// is in the same list.

const server = backOfficeServerForThisFile();
test.describe.configure({ timeout: 90_000 });

test("an editor adds a 301 and a 410 that visitors get, a loop is refused, and a renamed post is listed", async ({
  browser,
  playwright,
}) => {
  const { page, context } = await signInAs(browser, server, ["editor"]);
  await page.goto(`${server.url}/admin/redirects`);
  await expect(page.getByRole("heading", { level: 1, name: "Redirects" })).toBeVisible();
  const add = page.getByRole("region", { name: "Add a redirect" });

  await add.getByLabel("Old address").fill("/Old-About/");
  await add.getByLabel("Leads to (not for gone)").fill("/company/about");
  await add.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByText("The redirect was added.")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "/old-about" })).toContainText("Permanent (301)");

  await add.getByLabel("Old address").fill("/retired-webinar");
  await add.getByLabel("Answer").selectOption("gone");
  await add.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByRole("listitem", { name: "/retired-webinar" })).toContainText("Gone (410)");

  // A redirect to its own address: refused next to its field, nothing saved, the input kept.
  await add.getByLabel("Old address").fill("/loop");
  await add.getByLabel("Leads to (not for gone)").fill("/loop");
  await add.getByRole("button", { name: "Add redirect" }).click();
  await expect(add.getByText("A redirect to its own address would loop.")).toBeVisible();
  await expect(add.getByLabel("Leads to (not for gone)")).toHaveAttribute("aria-invalid", "true");
  await expect(add.getByLabel("Old address")).toHaveValue("/loop");
  // Without JavaScript the same form post is refused the same way.
  const csrf = await csrfToken(page);
  const loop = await postForm(context.request, server, "/admin/redirects", {
    csrf,
    intent: "save",
    from: "/loop",
    kind: "temporary",
    target: "/loop",
  });
  expect(loop.status()).toBe(400);
  expect(await loop.text()).toContain("A redirect to its own address would loop.");
  expect(auditActions(server, "action LIKE 'redirect.%'")).toEqual(["redirect.created", "redirect.created"]);

  // A visitor: one step to the page (campaign parameters kept, others dropped), or 410 in the site's frame.
  const visitor = await playwright.request.newContext();
  const moved = await visitor.get(`${server.url}/old-about?utm_source=newsletter&ref=x`, { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers()["location"]).toBe("/company/about?utm_source=newsletter");
  const gone = await visitor.get(`${server.url}/retired-webinar`);
  expect(gone.status()).toBe(410);
  expect(await gone.text()).toContain("This page has been removed");
  expect((await visitor.get(`${server.url}/company/about`)).status()).toBe(200);
  expect((await visitor.get(`${server.url}/never-existed`)).status()).toBe(404);
  await visitor.dispose();

  // A post renamed (its old slug kept by the post editor): listed, following the post.
  const post = withDatabase(server.databasePath, (db) => {
    const row = db.prepare("SELECT id, slug, title FROM blog_posts WHERE published = 1 AND slug IS NOT NULL LIMIT 1").get() as {
      id: string;
      slug: string;
      title: string;
    };
    db.prepare("INSERT INTO blog_slug_redirects (slug, post_id, created_at) VALUES (?, ?, ?)").run(
      "an-older-name",
      row.id,
      new Date().toISOString(),
    );
    return row;
  });
  await page.goto(`${server.url}/admin/redirects`);
  const renamed = page.getByRole("listitem", { name: "/resources/blog/an-older-name" });
  await expect(renamed).toContainText(`/resources/blog/${post.slug}`);
  await expect(renamed).toContainText("Post renamed");
  await expect(renamed.getByRole("link", { name: post.title })).toHaveAttribute("href", `/admin/posts/${post.id}`);
});
