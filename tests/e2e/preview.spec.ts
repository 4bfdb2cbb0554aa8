import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { signPreviewToken } from "../../app/features/blog/preview-token.server";
import { signContentPreviewToken } from "../../app/features/content/preview-token.server";
import { withDatabase } from "./support/database";
import { expect, expectAccessible, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

// Private preview links: `npm run content -- preview SLUG` prints a signed link that shows a draft
// or scheduled post on its real page under a banner, kept out of caches, search engines and
// Referer headers. Any link that is not exactly what the command signed is an unknown post's 404.

const PREVIEW_SECRET = "preview-secret-for-the-e2e-tests-0123456789";

test.describe.configure({ mode: "serial" });

let server: RunningServer;
const draft = { id: randomUUID(), slug: `draft-${Date.now()}`, title: "Sentinel roadmap, unannounced" };
const scheduled = { id: randomUUID(), slug: `scheduled-${Date.now()}`, title: "Sentinel 4.0 launch notes" };
const scheduledAt = new Date(Date.now() + 5 * 24 * 3_600_000).toISOString();

function previewCommand(target: string, env: Record<string, string> = { PREVIEW_SECRET }, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/content.ts", "preview", target, ...args], {
    env: { ...process.env, DATABASE_URL: `file:${server.databasePath}`, SITE_URL: server.url, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
  });
}

/** The link the command prints for `target`, as a path on the test server. */
function previewLink(target: string): string {
  const run = previewCommand(target);
  expect(run.status, run.stderr).toBe(0);
  const link = run.stdout.trim();
  expect(link).toMatch(new RegExp(`^${server.url}/resources/blog/preview/[0-9a-f-]{36}\\.\\d+\\.[0-9a-f]{64}$`));
  return link;
}

/**
 * A link signed as the command signs one (PREVIEW_SECRET, a week ahead), for the tests about what
 * the site does with a link rather than about the command, which costs seconds to start.
 */
function signedLink(postId: string): string {
  return `${server.url}/resources/blog/preview/${signPreviewToken(PREVIEW_SECRET, postId, new Date(Date.now() + 7 * 24 * 3_600_000))}`;
}

test.beforeAll(async () => {
  server = await startPrivateServer({ PREVIEW_SECRET });
  const now = new Date().toISOString();
  withDatabase(server.databasePath, (db) => {
    const insert = db.prepare(
      `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at)
       VALUES (?, ?, ?, 'Not for visitors yet.', ?, 'Launches', 'Ada Lovelace', ?, 4, NULL, 1, ?, ?, ?)`,
    );
    insert.run(draft.id, draft.slug, draft.title, "## What comes next\n\nA **draft** body.", now, 0, now, now);
    insert.run(scheduled.id, scheduled.slug, scheduled.title, "Scheduled body.", scheduledAt, 1, now, now);
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("the command's link shows the draft on its page with the banner, noindex, no-store and no-referrer", async ({
  page,
  request,
}) => {
  const link = previewLink(draft.slug);
  for (let i = 0; i < 2; i += 1) {
    const response = await request.get(link);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["x-robots-tag"]).toBe("noindex");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    // Never kept by the page cache: the second request renders anew too.
    expect(headers["x-page-cache"]).not.toBe("HIT");
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("Preview — not published");
  }

  await page.goto(link);
  const banner = page.getByRole("status").filter({ hasText: "Preview — not published" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("This is a draft");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(draft.title);
  await expect(page.getByRole("heading", { level: 2, name: "What comes next" })).toBeVisible();
  await expect(page).toHaveTitle(`Preview: ${draft.title} | Quorvant`);
  await expectAccessible(page, "draft preview");

  // The same link by id works too, and a scheduled post's says when it will appear.
  expect((await request.get(previewLink(draft.id))).status()).toBe(200);
  await page.goto(previewLink(scheduled.slug));
  await expect(page.getByRole("status")).toContainText(`Scheduled to appear on`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(scheduled.title);
  await expectAccessible(page, "scheduled preview");
});

test("altered, expired, unsigned, malformed and other posts' tokens are an unknown post's 404", async ({ page, request }) => {
  const link = signedLink(draft.id);
  expect((await request.get(link)).status()).toBe(200);
  const token = link.slice(link.lastIndexOf("/") + 1);
  const last = token.at(-1) === "0" ? "1" : "0";
  const base = `${server.url}/resources/blog/preview`;
  const bad = {
    altered: `${base}/${token.slice(0, -1)}${last}`,
    expired: `${base}/${signPreviewToken(PREVIEW_SECRET, draft.id, new Date(Date.now() - 60_000))}`,
    otherSecret: `${base}/${signPreviewToken("x".repeat(40), draft.id, new Date(Date.now() + 60_000))}`,
    otherPost: `${base}/${signPreviewToken(PREVIEW_SECRET, randomUUID(), new Date(Date.now() + 60_000))}`,
    unsigned: `${base}/${token.split(".").slice(0, 2).join(".")}`,
    malformed: `${base}/hello`,
  };
  const unknown = await request.get(`${server.url}/resources/blog/no-such-post-${Date.now()}`);
  expect(unknown.status()).toBe(404);
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  const h1Of = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
  const unknownHtml = await unknown.text();
  for (const [name, url] of Object.entries(bad)) {
    const response = await request.get(url);
    expect(response.status(), name).toBe(404);
    const html = await response.text();
    expect(titleOf(html), name).toBe(titleOf(unknownHtml));
    expect(h1Of(html), name).toBe("Blog Post Not Found");
    expect(html, name).not.toContain(draft.title);
  }

  // A deleted post's link stops working.
  const scheduledLink = signedLink(scheduled.id);
  expect((await request.get(scheduledLink)).status()).toBe(200);
  withDatabase(server.databasePath, (db) => db.prepare("DELETE FROM blog_posts WHERE id = ?").run(scheduled.id));
  expect((await request.get(scheduledLink)).status()).toBe(404);

  await page.goto(bad.altered);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog Post Not Found");
  await expect(page.getByRole("status")).toHaveCount(0);

  // The server names nothing secret in its own log lines about it: neither the secret nor a
  // token (a token is a credential); request lines carry the path with "[token]" instead.
  await expect.poll(() => server.output()).toContain('"url":"/resources/blog/preview/[token]"');
  expect(server.output()).not.toContain(PREVIEW_SECRET);
  expect(server.output()).not.toMatch(/\/resources\/blog\/preview\/[0-9a-f-]{36}\./);
});

test("another spelling of a preview link renders nothing and leaves no token in the server's log", async () => {
  const link = signedLink(draft.id);
  const token = link.slice(link.lastIndexOf("/") + 1);
  const signature = token.slice(token.lastIndexOf(".") + 1);
  const [id, expires] = token.split(".");
  const outputBefore = server.output().length;
  // Spellings a browser resolves before sending, so only a hand-made request carries them: refused.
  for (const path of [
    `/resources/blog/./preview/${token}`,
    `/resources/blog/x/../preview/${token}`,
    `/resources/blog/x/%2e%2E/preview/${token}`,
    `/resources/blog/preview/${token}/.`,
  ]) {
    const response = await rawGet(server.url, path);
    expect(response.status, path).toBe(404);
    expect(response.body, path).not.toContain(draft.title);
  }
  // Spellings of the same path (an encoded letter, doubled or backslashed separators): sent to the
  // one canonical path, never rendered under their own.
  for (const path of [
    `/resources/blog/%70review/${token}`,
    `/resources/blog//preview/${token}`,
    `/resources/blog\\preview/${token}`,
    `/resources/%62log/preview/${token}`,
  ]) {
    const response = await rawGet(server.url, path);
    expect(response.status, path).toBe(308);
    expect(response.headers.location, path).toBe(`/resources/blog/preview/${token}`);
    expect(response.body, path).not.toContain(draft.title);
  }
  // An expiry with a leading zero is another spelling of the grant: an unknown post.
  const zero = await rawGet(server.url, `/resources/blog/preview/${id}.0${expires}.${signature}`);
  expect(zero.status).toBe(404);
  expect(zero.body).not.toContain(draft.title);

  await expect.poll(() => server.output().slice(outputBefore)).toContain('"url":"/resources/blog/preview/[token]"');
  expect(server.output().slice(outputBefore)).not.toContain(signature);
});

test("a previewed draft appears in no list, feed or sitemap, and its page stays 404", async ({ request }) => {
  expect((await request.get(signedLink(draft.id))).status()).toBe(200);
  for (const path of [
    "/",
    "/resources/blog",
    "/resources/blog?category=Launches",
    "/rss.xml",
    "/atom.xml",
    "/feed.json",
    "/sitemap.xml",
  ]) {
    const response = await request.get(`${server.url}${path}`);
    expect(response.status(), path).toBe(200);
    const body = await response.text();
    expect(body, path).not.toContain(draft.title);
    expect(body, path).not.toContain(draft.slug);
  }
  expect((await request.get(`${server.url}/resources/blog/${draft.slug}`)).status()).toBe(404);
});

test("without PREVIEW_SECRET the command signs with the database's shared secret; it names an unknown post", async ({
  request,
}) => {
  const without = previewCommand(draft.slug, { PREVIEW_SECRET: "" });
  expect(without.status, without.stderr).toBe(0);
  const link = without.stdout.trim();
  expect(link).toMatch(/\/resources\/blog\/preview\/[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/);
  // This server signs with its PREVIEW_SECRET, not the database's: the other secret's link is refused.
  expect((await request.get(`${server.url}${new URL(link).pathname}`)).status()).toBe(404);
  const unknown = previewCommand("no-such-post");
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('No post with slug or id "no-such-post"');
  expect(previewCommand(draft.slug, { PREVIEW_SECRET }, "--days", "91").status).toBe(2);
});

test("a German draft is previewed in the German frame; its token at another language's address leads there", async ({
  page,
  request,
}) => {
  const german = { id: randomUUID(), slug: `entwurf-${Date.now()}`, title: "Sentinel-Fahrplan, unangekündigt" };
  const now = new Date().toISOString();
  withDatabase(server.databasePath, (db) =>
    db
      .prepare(
        `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at, locale)
         VALUES (?, ?, ?, 'Noch nicht öffentlich.', 'Ein **Entwurf**.', 'Produkt', 'Ada Lovelace', ?, 4, NULL, 0, 0, ?, ?, 'de')`,
      )
      .run(german.id, german.slug, german.title, now, now, now),
  );
  const run = previewCommand(german.slug);
  expect(run.status, run.stderr).toBe(0);
  const link = run.stdout.trim();
  expect(link).toMatch(new RegExp(`^${server.url}/de/ressourcen/blog/preview/[0-9a-f-]{36}\\.\\d+\\.[0-9a-f]{64}$`));

  await page.goto(link);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("status").filter({ hasText: "Vorschau – nicht veröffentlicht" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(german.title);
  // The frame is German too: its header's menu and skip link.
  await expect(page.getByRole("link", { name: "Zum Inhalt springen" })).toBeAttached();

  // The same token under the English blog leads to the German address, still kept out of caches.
  const token = new URL(link).pathname.split("/").at(-1)!;
  const moved = await request.get(`${server.url}/resources/blog/preview/${token}`, { maxRedirects: 0 });
  expect(moved.status()).toBe(302);
  expect(moved.headers()["location"]).toBe(`/de/ressourcen/blog/preview/${token}`);
  expect(moved.headers()["cache-control"]).toBe("no-store");
  // An English draft's token under the German blog leads back to the English address.
  const english = new URL(signedLink(draft.id)).pathname.split("/").at(-1)!;
  const back = await request.get(`${server.url}/de/ressourcen/blog/preview/${english}`, { maxRedirects: 0 });
  expect(back.headers()["location"]).toBe(`/resources/blog/preview/${english}`);
  // A forged token is the same 404 at either address.
  const forged = english.slice(0, -1) + (english.endsWith("0") ? "1" : "0");
  expect((await request.get(`${server.url}/de/ressourcen/blog/preview/${forged}`)).status()).toBe(404);

  // A German page's preview link likewise lives under /de, and its token under English's leads there.
  const germanHome = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM content_documents WHERE type = 'page' AND path = '/de'").get() as { id: string }).id,
  ) as string;
  const pageToken = signContentPreviewToken(PREVIEW_SECRET, "page", germanHome, new Date(Date.now() + 3_600_000));
  const pageMoved = await request.get(`${server.url}/preview/${pageToken}`, { maxRedirects: 0 });
  expect(pageMoved.status()).toBe(302);
  expect(pageMoved.headers()["location"]).toBe(`/de/preview/${pageToken}`);
  await page.goto(`${server.url}/de/preview/${pageToken}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("status").filter({ hasText: "Vorschau" })).toBeVisible();
});

test("once the post is published, its preview link leads to its public page", async ({ request }) => {
  const link = signedLink(draft.id);
  expect((await request.get(link, { maxRedirects: 0 })).status()).toBe(200);
  withDatabase(server.databasePath, (db) =>
    db
      .prepare("UPDATE blog_posts SET published = 1, published_date = ? WHERE id = ?")
      .run(new Date(Date.now() - 1000).toISOString(), draft.id),
  );
  const response = await request.get(link, { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe(`/resources/blog/${draft.slug}`);
  expect(response.headers()["cache-control"]).toBe("no-store");
});

/** A GET sent exactly as written (fetch and browsers resolve `.` and `..` segments first). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
