import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

// Each published page's social card: its meta tags name it, at an address keyed by the page's id;
// a 1200×630 PNG rendered once per version of what it draws and revalidated with a strong ETag.
// Request-level only: no browser.

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

/** The head's social tags of the page at `path`. */
async function socialTags(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  const meta = (attribute: "property" | "name", key: string) =>
    new RegExp(`<meta ${attribute}="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1];
  return {
    image: meta("property", "og:image"),
    twitterImage: meta("name", "twitter:image"),
    width: meta("property", "og:image:width"),
    height: meta("property", "og:image:height"),
    alt: meta("property", "og:image:alt"),
    twitterCard: meta("name", "twitter:card"),
  };
}

const CARD_ADDRESS = /^https?:\/\/[^/]+(\/social-cards\/pages\/([0-9a-f-]{36})\.png)$/;

test.describe("a page's card", () => {
  test("the home page names its card, a 1200×630 PNG with a strong ETag that revalidates with a 304", async ({ request }) => {
    const tags = await socialTags(request, "/");
    const [, path, id] = CARD_ADDRESS.exec(tags.image ?? "") ?? [];
    expect(path, `og:image ${tags.image}`).toBeDefined();
    expect(tags).toEqual({
      image: tags.image,
      twitterImage: tags.image,
      width: "1200",
      height: "630",
      alt: "Private AI Compliance, Security and Governance Platform, Quorvant",
      twitterCard: "summary_large_image",
    });
    // The address names the home page's id, which no other page's card shares.
    expect((await socialTags(request, "/company/about")).image).not.toContain(id!);

    const response = await request.get(path!);
    const body = await expectCard(response);
    const etag = response.headers().etag!;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/
    expect(response.headers()["cache-control"]).toBe(
      "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400",
    );
    const again = await request.get(path!, { headers: { "If-None-Match": etag } });
    expect(again.status()).toBe(304);
    expect(again.headers().etag).toBe(etag);
    expect((await again.body()).length).toBe(0);
    expect((await expectCard(await request.get(`${path}?v=2`))).equals(body)).toBe(true);
  });

  test("an unknown page's card or a malformed address is 404; the not-found page names no card", async ({ request }) => {
    const { image } = await socialTags(request, "/");
    const id = CARD_ADDRESS.exec(image ?? "")![2]!;
    for (const path of [
      `/social-cards/pages/${randomUUID()}.png`,
      `/social-cards/pages/${id.toUpperCase()}.png`,
      `/social-cards/pages/${id}.jpg`,
      `/social-cards/pages/${id}`,
      "/social-cards/pages/home.png",
      "/social-cards/pages/%2F.png",
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(response.headers()["cache-control"], path).toBe("no-store");
    }
    const missing = await request.get("/no-such-page-here");
    expect(missing.status()).toBe(404);
    const html = await missing.text();
    expect(html).not.toMatch(/og:image|twitter:image|social-cards/);
  });
});

test.describe("a page's card follows the page", () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startPrivateServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const get = (request: APIRequestContext, path: string, headers: Record<string, string> = {}) =>
    request.get(`${server.url}${path}`, { headers });
  const pageId = (path: string) =>
    withDatabase(server.databasePath, (db) =>
      db.prepare("SELECT id FROM content_documents WHERE published_path = ?").get(path),
    ) as {
      id: string;
    };
  const renders = (id: string) =>
    server
      .output()
      .split("\n")
      .filter((line) => line.includes('"msg":"page card rendered"') && line.includes(`"pageId":"${id}"`)).length;

  test("a renamed title makes a new card and a new ETag, rendered once", async ({ request }) => {
    const { id } = pageId("/company/about");
    const card = `/social-cards/pages/${id}.png`;
    const first = await get(request, card);
    const firstBody = await expectCard(first);
    const etag = first.headers().etag!;
    expect((await get(request, card, { "If-None-Match": etag })).status()).toBe(304);
    await expect.poll(() => renders(id)).toBe(1);

    // An editor's tool renames the page straight in the database: the next request shows it.
    withDatabase(server.databasePath, (db) =>
      db
        .prepare("UPDATE content_documents SET published = json_set(published, '$.title', ?) WHERE id = ?")
        .run("About Quorvant", id),
    );
    const renamed = await get(request, card, { "If-None-Match": etag });
    expect((await expectCard(renamed)).equals(firstBody)).toBe(false);
    expect(renamed.headers().etag).not.toBe(etag);
    expect((await get(request, card, { "If-None-Match": renamed.headers().etag! })).status()).toBe(304);
    await expect.poll(() => renders(id)).toBe(2);
  });

  test("a draft's card and an unpublished page's card are 404", async ({ request }) => {
    const draft = randomUUID();
    const now = new Date().toISOString();
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          `INSERT INTO content_documents (id, type, path, draft, state, revision, created_at, created_by_email, updated_at, updated_by_email)
           VALUES (?, 'page', '/solutions/draft', ?, 'draft', 1, ?, 'editor@quorvant.com', ?, 'editor@quorvant.com')`,
        )
        .run(
          draft,
          JSON.stringify({ path: "/solutions/draft", title: "Draft", description: "", noindex: false, blocks: [] }),
          now,
          now,
        ),
    );
    expect((await get(request, `/social-cards/pages/${draft}.png`)).status()).toBe(404);

    const { id } = pageId("/company/charter");
    await expectCard(await get(request, `/social-cards/pages/${id}.png`));
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          "UPDATE content_documents SET state = 'unpublished', published = NULL, published_path = NULL, published_at = NULL, unpublished_at = ? WHERE id = ?",
        )
        .run(now, id),
    );
    expect((await get(request, `/social-cards/pages/${id}.png`)).status()).toBe(404);
  });
});
