import type { APIRequestContext, APIResponse } from "@playwright/test";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

// Each post's social card: a 1200×630 PNG of the post's own title, category, author and date,
// rendered once per post version and revalidated with a strong ETag.

const SLUG = "sentinel-2-4-release";
const CARD = `/resources/blog/${SLUG}/og.png`;

/** Width and height from a PNG's header (signature, then the IHDR chunk). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), "PNG signature").toBe(true);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function expectCard(response: APIResponse) {
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  const body = await response.body();
  expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
  expect(Number(response.headers()["content-length"])).toBe(body.length);
  return body;
}

/**
 * The server's "post card rendered" log lines for one post. Its output arrives through a pipe, a
 * moment after the answer: tests poll. Each count is exact, so a render too many shows up in the
 * next check at the latest.
 */
function renders(server: RunningServer, postId: string): number {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes('"msg":"post card rendered"') && line.includes(`"postId":"${postId}"`)).length;
}

function postRow(server: RunningServer, slug: string) {
  return withDatabase(server.databasePath, (db) =>
    db.prepare("SELECT id, title, updated_at FROM blog_posts WHERE slug = ?").get(slug),
  ) as { id: string; title: string; updated_at: string };
}

function updatePost(server: RunningServer, slug: string, set: { title?: string; content?: string; published?: number }) {
  withDatabase(server.databasePath, (db) => {
    for (const [column, value] of Object.entries(set)) {
      db.prepare(`UPDATE blog_posts SET ${column} = ?, updated_at = ? WHERE slug = ?`).run(value, new Date().toISOString(), slug);
    }
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe("the card over HTTP", () => {
  test("is a 1200×630 PNG with a strong ETag, a CDN-fit Cache-Control and a 304 on revalidation", async ({ request }) => {
    const response = await request.get(CARD);
    const body = await expectCard(response);
    const etag = response.headers().etag!;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/
    expect(response.headers()["cache-control"]).toBe(
      "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400",
    );

    const again = await request.get(CARD, { headers: { "If-None-Match": etag } });
    expect(again.status()).toBe(304);
    expect(again.headers().etag).toBe(etag);
    expect((await again.body()).length).toBe(0);
    const listed = await request.get(CARD, { headers: { "If-None-Match": `"other", W/${etag}` } });
    expect(listed.status()).toBe(304);
    const stale = await request.get(CARD, { headers: { "If-None-Match": '"not-this-one"' } });
    expect((await expectCard(stale)).equals(body)).toBe(true);

    // The query string plays no part: same bytes, same tag.
    const queried = await request.get(`${CARD}?title=Hacked&v=2`);
    expect((await expectCard(queried)).equals(body)).toBe(true);
    expect(queried.headers().etag).toBe(etag);
  });

  test("HEAD has the headers of GET; other methods get 405", async ({ request }) => {
    const get = await request.get(CARD);
    const head = await request.head(CARD);
    expect(head.status()).toBe(200);
    for (const name of ["content-type", "content-length", "etag", "cache-control"]) {
      expect(head.headers()[name], name).toBe(get.headers()[name]);
    }
    expect((await head.body()).length).toBe(0);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await request.fetch(CARD, { method });
      expect(response.status(), method).toBe(405);
      expect(response.headers().allow).toBe("GET, HEAD");
    }
  });

  test("an unknown post's card is 404, and it is never stored", async ({ request }) => {
    for (const path of ["/resources/blog/no-such-post/og.png", "/resources/blog/00000000-0000-4000-8000-000000000000/og.png"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(response.headers()["cache-control"]).toBe("no-store");
    }
  });
});

test.describe("the post page points at its card", () => {
  test("og:image and twitter:image are the card's absolute URL, with size, alt and a large summary card", async ({ request }) => {
    const html = await (await request.get(`/resources/blog/${SLUG}`)).text();
    const meta = (attribute: "property" | "name", key: string) =>
      new RegExp(`<meta ${attribute}="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1];
    const image = meta("property", "og:image");
    expect(image).toMatch(new RegExp(`^https?://[^/]+${CARD.replace(/[.]/g, "\\.")}$`));
    expect(meta("name", "twitter:image")).toBe(image);
    expect(meta("property", "og:image:width")).toBe("1200");
    expect(meta("property", "og:image:height")).toBe("630");
    expect(meta("property", "og:image:alt")).toContain("Sentinel 2.4");
    expect(meta("name", "twitter:card")).toBe("summary_large_image");
    // The URL named is the card itself.
    await expectCard(await request.get(new URL(image!).pathname));
  });
});

test.describe("one render per post version", () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startPrivateServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const get = (request: APIRequestContext, path = CARD, headers: Record<string, string> = {}) =>
    request.get(`${server.url}${path}`, { headers });

  test("a card is rendered once and served from cache; an edit of the title renders a new one", async ({ request }) => {
    const { id } = postRow(server, SLUG);
    const first = await get(request);
    const firstBody = await expectCard(first);
    const etag = first.headers().etag!;
    // Concurrent requests for a new version share its one render.
    const burst = await Promise.all(Array.from({ length: 5 }, () => get(request)));
    for (const response of burst) {
      expect((await expectCard(response)).equals(firstBody)).toBe(true);
      expect(response.headers().etag).toBe(etag);
    }
    expect((await get(request, CARD, { "If-None-Match": etag })).status()).toBe(304);
    await expect.poll(() => renders(server, id)).toBe(1);

    // An editor's tool changes the title directly in the database.
    updatePost(server, SLUG, { title: "Sentinel 2.5: A Retitled Release" });
    await wait(1_100); // past the one-second freshness promise
    const edited = await get(request, CARD, { "If-None-Match": etag });
    const editedBody = await expectCard(edited);
    expect(edited.headers().etag).not.toBe(etag);
    expect(editedBody.equals(firstBody)).toBe(false);
    await expect.poll(() => renders(server, id)).toBe(2);
    const editedAgain = await get(request);
    expect((await expectCard(editedAgain)).equals(editedBody)).toBe(true);
    await expect.poll(() => renders(server, id)).toBe(2);

    // An edit the card does not show (the body) is no new version: nothing is rendered, same tag.
    updatePost(server, SLUG, { content: "A new body." });
    await wait(1_100);
    const contentEdit = await get(request, CARD, { "If-None-Match": edited.headers().etag! });
    expect(contentEdit.status()).toBe(304);
    await wait(500);
    expect(renders(server, id)).toBe(2);
  });

  test("a new image or title gives a new card even when written without touching updated_at; the card shows the image", async ({
    request,
  }) => {
    const slug = "continuous-evaluation-pipelines";
    const path = `/resources/blog/${slug}/og.png`;
    const { id } = postRow(server, slug);
    const setQuietly = (column: "image_url" | "title", value: string) =>
      withDatabase(server.databasePath, (db) =>
        db.prepare(`UPDATE blog_posts SET ${column} = ? WHERE slug = ?`).run(value, slug),
      );
    /** The card's mean colour under its text-free middle right: the image shows through there, or the plain ground. */
    const patch = async (body: Buffer) => {
      const { default: sharp } = await import("sharp");
      const { data } = await sharp(body)
        .extract({ left: 900, top: 400, width: 200, height: 120 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      let sum = 0;
      for (const value of data) sum += value;
      return sum / data.length;
    };

    const plain = await get(request, path);
    const plainBody = await expectCard(plain);
    setQuietly("image_url", "/images/photos/aurora-over-ridge.jpg");
    await wait(1_100);
    const pictured = await get(request, path, { "If-None-Match": plain.headers().etag! });
    const picturedBody = await expectCard(pictured);
    expect(pictured.headers().etag).not.toBe(plain.headers().etag);
    expect(Math.abs((await patch(picturedBody)) - (await patch(plainBody)))).toBeGreaterThan(2);

    setQuietly("title", "Continuous evaluation, retitled");
    await wait(1_100);
    const retitled = await get(request, path, { "If-None-Match": pictured.headers().etag! });
    expect((await expectCard(retitled)).equals(picturedBody)).toBe(false);
    await expect.poll(() => renders(server, id)).toBe(3);
  });

  test("a draft's card is 404, like its page", async ({ request }) => {
    const slug = "ai-governance-operating-model";
    await expectCard(await get(request, `/resources/blog/${slug}/og.png`));
    updatePost(server, slug, { published: 0 });
    await wait(1_100);
    expect((await get(request, `/resources/blog/${slug}/og.png`)).status()).toBe(404);
    expect((await request.get(`${server.url}/resources/blog/${slug}`)).status()).toBe(404);
  });

  test("hostile titles, categories and authors still render a legible card", async ({ request }) => {
    const slug = "eu-ai-act-readiness-checklist";
    const hostile = [
      `${"Supercalifragilisticexpialidocious".repeat(30)} ${"word ".repeat(400)}`,
      "🚀👩🏽‍💻🇫🇷❤️1️⃣ Emoji only around this",
      "שלום עולם مرحبا بالعالم \u202eoverride\u202c \u2067isolate\u2069",
      "Control\u0000\u0007\u001b[31m\u0085\u2028chars\ud800 and a lone surrogate",
      "日本語のタイトル 한국어 中文标题",
      "   ",
    ];
    for (const title of hostile) {
      withDatabase(server.databasePath, (db) =>
        db
          .prepare("UPDATE blog_posts SET title = ?, category = ?, author = ?, updated_at = ? WHERE slug = ?")
          .run(title, title.slice(0, 200), title.slice(0, 300), new Date().toISOString(), slug),
      );
      await expectCard(await get(request, `/resources/blog/${slug}/og.png`));
    }
    expect(server.output()).not.toContain("post card could not be rendered");
  });
});
