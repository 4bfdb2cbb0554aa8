import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { FETCH_FAILED } from "~/features/blog/posts.server";
import { getDb } from "~/db/index.server";
import { findPublishedPostCard, type BlogPostCard } from "~/features/blog/db/posts.server";
import { logger } from "~/platform/logger.server";
import { cardBackdrop } from "~/features/blog/og-card/backdrop.server";
import { renderPostCard } from "~/features/blog/og-card/render.server";

// A post's social card over HTTP. Each request reads the post's card fields (a few short columns,
// so an edit shows at once); the PNG (the post's image, when it has one of this site, under its
// text) is rendered once per version of those fields and kept.

/**
 * Like the pages: a CDN may keep a card for the freshness second (an edit made in the database
 * shows within a second) and serve it one more second while it refetches; browsers revalidate
 * every time, which costs a 304 thanks to the strong ETag.
 */
export const CARD_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=1";

type Card = { png: Buffer; etag: string };

/** Rendered cards by post version: about 100–160 KB each, 24 MB in all. */
const cards = new LRUCache<string, Card>({ maxSize: 24 * 1024 * 1024, sizeCalculation: (card) => card.png.length + 128 });
/** The ETag of each version seen, kept longer than the bytes, so a revalidation never needs a render. */
const etags = new LRUCache<string, string>({ max: 10_000 });
/** Renders in progress by version: concurrent requests for one new version share one render. */
const rendering = new Map<string, Promise<Card>>();

/**
 * A card's version is a hash of everything that decides it (title, category, author, date and
 * image), not of updated_at: a new title or image_url makes a new card (and a new ETag) even when
 * it was written straight into the database without touching updated_at.
 */
function versionOf(post: BlogPostCard): string {
  const fields = [post.title, post.category, post.author, post.published_date, post.image_url];
  return `${post.id}@${createHash("sha256").update(JSON.stringify(fields)).digest("base64url")}`;
}

async function render(post: BlogPostCard, version: string, requestId?: string): Promise<Card> {
  const started = performance.now();
  const png = await renderPostCard(post, await cardBackdrop(post.image_url, requestId));
  // Strong: the same tag means the same bytes (a hash of them, not of the version, so a content
  // edit that leaves the card's text alone keeps its tag).
  const etag = `"${createHash("sha256").update(png).digest("base64url").slice(0, 27)}"`;
  const card = { png, etag };
  cards.set(version, card);
  etags.set(version, etag);
  logger.info(
    { requestId, postId: post.id, version, bytes: png.length, ms: Math.round(performance.now() - started) },
    "post card rendered",
  );
  return card;
}

/**
 * Cards are never shed under load (a social network's crawler that gets a 503 shows the post
 * without a picture, and does not come back soon): their own budget instead is one render at a
 * time, the others waiting their turn, so a burst of first shares costs one core's worth of
 * rendering, never more, and never a refusal.
 */
let renderTurn: Promise<unknown> = Promise.resolve();

function renderInTurn(post: BlogPostCard, version: string, requestId?: string): Promise<Card> {
  const turn = renderTurn.then(() => render(post, version, requestId));
  renderTurn = turn.catch(() => undefined);
  return turn;
}

function cardOf(post: BlogPostCard, requestId?: string): Promise<Card> {
  const version = versionOf(post);
  const cached = cards.get(version);
  if (cached) return Promise.resolve(cached);
  let pending = rendering.get(version);
  if (!pending) {
    pending = renderInTurn(post, version, requestId).finally(() => rendering.delete(version));
    rendering.set(version, pending);
  }
  return pending;
}

/** If-None-Match names this tag (weak comparison, as conditional GETs use; `*` matches any). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/**
 * The card of the published post named by `slugOrId` (slug first, then id, like its page): 200
 * with the PNG, 304 when the client holds it, 404 for a draft or an unknown post, 503 when the
 * database fails, 500 when rendering fails. The query string plays no part.
 */
export async function postCardResponse(request: Request, slugOrId: string, requestId?: string): Promise<Response> {
  let post: BlogPostCard | undefined;
  try {
    post = await findPublishedPostCard(getDb(), slugOrId);
  } catch (error) {
    logger.error({ requestId, err: error, what: "post card" }, FETCH_FAILED);
    return plain(503, "The card cannot be loaded right now.", { "Retry-After": "30" });
  }
  if (!post) return plain(404, "Not found.");

  const headers = { "Cache-Control": CARD_CACHE_CONTROL };
  const version = versionOf(post);
  const knownTag = etags.get(version);
  if (knownTag && matches(request.headers.get("If-None-Match"), knownTag)) {
    return new Response(null, { status: 304, headers: { ...headers, ETag: knownTag } });
  }
  let card: Card;
  try {
    card = await cardOf(post, requestId);
  } catch (error) {
    logger.error({ requestId, err: error, postId: post.id, version }, "post card could not be rendered");
    return plain(500, "Unexpected Application Error!");
  }
  if (matches(request.headers.get("If-None-Match"), card.etag)) {
    return new Response(null, { status: 304, headers: { ...headers, ETag: card.etag } });
  }
  return new Response(new Uint8Array(card.png), {
    headers: {
      ...headers,
      "Content-Type": "image/png",
      "Content-Length": String(card.png.length),
      ETag: card.etag,
    },
  });
}
