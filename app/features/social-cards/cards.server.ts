import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { CardText, Coverage } from "~/features/social-cards/layout";
import { cardBackdrop } from "~/features/social-cards/backdrop.server";
import { renderCard } from "~/features/social-cards/render.server";
import { logger } from "~/platform/logger.server";
import { getEnv } from "~/env.server";
import { sharedCacheControl } from "~/features/cdn/shared-cache.server";
import { pageKey, postKey } from "~/features/cdn/surrogate-keys";

// Social cards over HTTP, whatever they belong to (a post, a page). Each request reads the card's
// fields (so an edit shows at once) and hands them here; the PNG is rendered once per version of
// those fields and kept.

/**
 * Like the pages (sharedCacheControl): without a purge endpoint a CDN may keep a card for the
 * freshness second (an edit made in the database shows within a second), with one it keeps it until
 * a publish purges it; browsers revalidate every time, which costs a 304 thanks to the strong ETag.
 */
const cardCacheControl = () => sharedCacheControl(getEnv());

/** One card as its owner reads it from the database. */
export type CardSource = {
  /** What it belongs to: its log lines say "<kind> card rendered" with `<kind>Id`. */
  kind: "post" | "page";
  id: string;
  /** Everything stored that its text is made of: with `image`, its version is a hash of these. */
  fields: readonly unknown[];
  /** Its backdrop: an image of this site (a path), or none. */
  image: string | null | undefined;
  /** Its text, from `fields`, keeping only what the fonts cover. */
  text: (covered: Coverage) => CardText;
};

type Card = { png: Buffer; etag: string };

/** Rendered cards by version: about 100–160 KB each, 24 MB in all. */
const cards = new LRUCache<string, Card>({ maxSize: 24 * 1024 * 1024, sizeCalculation: (card) => card.png.length + 128 });
/** The ETag of each version seen, kept longer than the bytes, so a revalidation never needs a render. */
const etags = new LRUCache<string, string>({ max: 10_000 });
/** Renders in progress by version: concurrent requests for one new version share one render. */
const rendering = new Map<string, Promise<Card>>();

/**
 * A card's version is a hash of everything that decides it (a post's title, category, author,
 * date and image, say), not of an updated_at: a new title or image makes a new card (and a new
 * ETag) even when it was written straight into the database without touching updated_at.
 */
export function cardVersion(source: Pick<CardSource, "kind" | "id" | "fields" | "image">): string {
  const hash = createHash("sha256")
    .update(JSON.stringify([source.fields, source.image ?? null]))
    .digest("base64url");
  return `${source.kind}:${source.id}@${hash}`;
}

async function render(source: CardSource, version: string, requestId?: string): Promise<Card> {
  const started = performance.now();
  const png = await renderCard(source.text, await cardBackdrop(source.image, { kind: source.kind, requestId }));
  // Strong: the same tag means the same bytes (a hash of them, not of the version, so an edit
  // that leaves the card's text alone keeps its tag).
  const etag = `"${createHash("sha256").update(png).digest("base64url").slice(0, 27)}"`;
  const card = { png, etag };
  cards.set(version, card);
  etags.set(version, etag);
  logger.info(
    { requestId, [`${source.kind}Id`]: source.id, version, bytes: png.length, ms: Math.round(performance.now() - started) },
    `${source.kind} card rendered`,
  );
  return card;
}

/**
 * Cards are never shed under load (a social network's crawler that gets a 503 shows the link
 * without a picture, and does not come back soon): their own budget instead is one render at a
 * time, every kind together, the others waiting their turn, so a burst of first shares costs one
 * core's worth of rendering, never more, and never a refusal.
 */
let renderTurn: Promise<unknown> = Promise.resolve();

function renderInTurn(source: CardSource, version: string, requestId?: string): Promise<Card> {
  const turn = renderTurn.then(() => render(source, version, requestId));
  renderTurn = turn.catch(() => undefined);
  return turn;
}

function cardOf(source: CardSource, version: string, requestId?: string): Promise<Card> {
  const cached = cards.get(version);
  if (cached) return Promise.resolve(cached);
  let pending = rendering.get(version);
  if (!pending) {
    pending = renderInTurn(source, version, requestId).finally(() => rendering.delete(version));
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

/** No such card: a draft's, an unknown one's, a malformed address. */
export function cardNotFound(): Response {
  return plain(404, "Not found.");
}

/** The card's fields could not be read (the database failed). */
export function cardUnavailable(): Response {
  return plain(503, "The card cannot be loaded right now.", { "Retry-After": "30" });
}

/**
 * The card of `source`: 200 with the PNG, 304 when the client holds it, 500 when rendering fails.
 * The query string plays no part.
 */
export async function cardResponse(request: Request, source: CardSource, requestId?: string): Promise<Response> {
  // The card shows its owner's fields: purged with the post's or page's own answers.
  const headers = {
    "Cache-Control": cardCacheControl(),
    "Surrogate-Key": source.kind === "post" ? postKey(source.id) : pageKey(source.id),
  };
  const version = cardVersion(source);
  const knownTag = etags.get(version);
  if (knownTag && matches(request.headers.get("If-None-Match"), knownTag)) {
    return new Response(null, { status: 304, headers: { ...headers, ETag: knownTag } });
  }
  let card: Card;
  try {
    card = await cardOf(source, version, requestId);
  } catch (error) {
    logger.error(
      { requestId, err: error, [`${source.kind}Id`]: source.id, version },
      `${source.kind} card could not be rendered`,
    );
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
