import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { pathChanged } from "~/features/content/publish-hook.server";
import { contentQuery, keptQuery } from "~/features/site/query-params";
import { sourceAddressOf } from "~/features/i18n/route-paths.server";
import { POSITION_FEED_PATHS } from "~/features/careers/position-feeds";
import { isBackOfficePath } from "./back-office";
import { canonicalPath } from "~/platform/canonical-path";
import { pageCacheHit, pageCacheMiss, pageCacheStale } from "~/platform/metrics.server";
import { withScriptHashes } from "./security";

/**
 * A server-side cache of whole pages. Pages are the same for every visitor, so a page rendered
 * once is served again for up to `ttlMs` (1 s: an edit made directly in the database shows
 * within a second).
 *
 * A cached page must not hand one CSP nonce to every visitor, so it is served with a policy
 * listing the SHA-256 hashes of the inline scripts this render emitted instead
 * (docs/decisions/001-csp.md). A render that finishes quickly is answered in that cached form
 * straight away, so every visitor, browser cache and CDN sees the same bytes under one strong
 * ETag. A render still streaming data after `holdMs` is sent as it goes, with its nonce, and is
 * marked private: no shared cache may keep a nonce.
 *
 * Everything a hit sends is prepared once per content coding, when a client first asks for that
 * coding: the compressed body and the header lines of the 200 and of the 304. A page asked for
 * once (a variant only one visitor or a flood of unique query strings reads) is never compressed
 * in a coding nobody took. A hit (`serveHit`, mounted before Express) then only picks the coding,
 * compares If-None-Match and writes.
 */
type Coding = "br" | "gzip" | "identity";

/** One content coding of a cached page, ready to write. */
type Representation = {
  body: Buffer;
  /** This coding's strong ETag, quoted. */
  etag: string;
  /** The 200's headers as `writeHead` takes them (name, value, name, value…), but for X-Request-Id, Age and HSTS. */
  ok: string[];
  /** The 304's: the same without Content-Type, Content-Encoding and Content-Length. */
  notModified: string[];
};

type CachedPage = {
  /** The page's own headers as its render set them (security headers included). */
  headers: Record<string, string>;
  body: Buffer;
  csp: string;
  /** The page version's tag, unquoted; each coding's ETag adds its suffix. */
  etag: string;
  /** The codings prepared so far: each is made when a client first asks for it (`representationOf`). */
  representations: Partial<Record<Coding, Representation>>;
  storedAt: number;
  /** Called when a coding was added, so the cache counts the page's new size. */
  grown?: () => void;
};

/** What a hit needs to know of its request beyond the URL: its id and whether HSTS applies. */
export type HitContext = { requestId: string; secure: boolean; strictTransportSecurity: string | undefined };

/**
 * What a shared cache (a CDN in front) may do with a page when no purge endpoint is set: keep it
 * for the freshness second, serve it for one more second while it fetches a new copy, and for a
 * day while the site answers errors. Browsers revalidate every time (max-age=0), which costs a 304
 * thanks to the ETag. With a purge endpoint the server passes a longer one (sharedCacheControl).
 */
export const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400";
/** A response carrying this render's nonce is for this visitor only. */
export const NONCE_PAGE_CACHE_CONTROL = "private, no-cache";

/** Resource routes cached like pages. */
const CACHED_RESOURCES = new Set(["/rss.xml", "/atom.xml", "/feed.json", "/sitemap.xml", "/robots.txt"]);
// The open positions' feeds, under the careers page.
for (const path of Object.values(POSITION_FEED_PATHS)) CACHED_RESOURCES.add(path);
/** The blog's feeds of another language, under its prefix (/de/rss.xml); only a 200 is kept. */
const LANGUAGE_FEED = /^\/[a-z]{2,3}(?:-[a-z0-9]+)*\/(?:rss\.xml|atom\.xml|feed\.json)$/;
// And the open positions' feeds of another language, under its careers page (/de/unternehmen/karriere/atom.xml).
const isCachedResource = (path: string) =>
  CACHED_RESOURCES.has(path) || LANGUAGE_FEED.test(path) || CACHED_RESOURCES.has(sourceAddressOf(path));
const CACHEABLE_TYPES = /^(text\/html|text\/plain|application\/xml|application\/(rss|atom)\+xml|application\/feed\+json)\b/;

/** Headers that belong to one response, not to the page (the security middleware sets them per request). */
const PER_RESPONSE_HEADERS = new Set([
  "content-security-policy",
  "strict-transport-security",
  "x-request-id",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "vary",
  "etag",
  "age",
  "x-page-cache",
]);

/** What only a shareable copy says (a CDN's surrogate keys): not sent with a private streamed render. */
const SHARED_ONLY_HEADERS = ["surrogate-key", "cache-tag"];

type Options = {
  ttlMs?: number;
  /** How long a copy is kept past its freshness, to answer with when the server is too busy to render (stale-if-busy). */
  staleMs?: number;
  maxBytes?: number;
  maxEntries?: number;
  holdMs?: number;
  /** While this says the server is overloaded, a page is served until it expires instead of re-rendered at half-life. */
  busy?: () => boolean;
  /** Renders of campaign variants not cached yet, per second (twice as many in a burst). */
  campaignVariantsPerSecond?: number;
  /** Cache-Control of a shareable copy (SHARED_PAGE_CACHE_CONTROL unless a CDN purges). */
  sharedCacheControl?: string;
};

export type PageCache = {
  /**
   * The cached page a GET or HEAD of this URL would be answered with right now, or undefined
   * (the request then goes through the whole app, `middleware` included). A campaign variant over
   * its render budget is pointed at the page's plain address first (`req.url` rewritten).
   */
  lookup: (req: IncomingMessage) => CachedPage | undefined;
  /** Answers `req` with `page` (from `lookup`); returns the status sent (200 or 304). */
  serveHit: (req: IncomingMessage, res: ServerResponse, page: CachedPage, context: HitContext) => number;
  /** Renders and stores misses (mounted where the app renders), and waits for a render in progress. */
  middleware: RequestHandler;
  /**
   * Answers `req` with the last good copy of its page, however old (within `staleMs`), when the
   * server is too busy to render it; false when there is none.
   */
  serveStale: (req: Request, res: Response) => boolean;
  /**
   * Marks the cached copies of `paths` (exact, or "/prefix/*") out of date, every query variant
   * included: content published here shows at once. Returns how many copies it marked.
   */
  forget: (paths: readonly string[]) => number;
  /** What the cache holds now: pages, and their bytes in every coding made. */
  held: () => { entries: number; bytes: number };
};

export function createPageCache({
  ttlMs = 1000,
  staleMs = 10 * 60_000,
  maxBytes = 64 * 1024 * 1024,
  maxEntries = 5_000,
  holdMs = 50,
  busy = () => false,
  campaignVariantsPerSecond = 5,
  sharedCacheControl = SHARED_PAGE_CACHE_CONTROL,
}: Options = {}): PageCache {
  const cache = new LRUCache<string, CachedPage>({
    ttl: Math.max(staleMs, ttlMs),
    max: maxEntries,
    maxSize: maxBytes,
    // Counted again each time a coding is added (`grown`).
    sizeCalculation: (page) =>
      page.body.length + (page.representations.br?.body.length ?? 0) + (page.representations.gzip?.body.length ?? 0) + 1,
  });
  /** Renders in progress, by key: one request renders, the others wait for its result. */
  const rendering = new Map<string, Promise<void>>();
  /** Pages that just answered with something uncacheable (an error, a form answer): don't queue behind them. */
  const uncacheable = new LRUCache<string, true>({ max: 10_000, ttl: ttlMs });

  // Past half its life, one request re-renders the page while the others keep getting the
  // cached copy, so a busy page never expires into a burst of renders and nothing served is
  // older than ttlMs. An overloaded server would shed that render: it serves the copy it has
  // until the copy expires, and then one request re-renders it. While a re-render is under way,
  // or on its way (the request sent to re-render may wait its turn before it reaches
  // `middleware`), the others get the copy, expired or not: under load they would otherwise all
  // pile up on that one render. Older copies are kept only for serveStale.
  const current = (page: CachedPage) => Date.now() - page.storedAt < ttlMs;
  const reRenderSent = new LRUCache<string, number>({ max: maxEntries });
  const reRenderOnItsWay = (key: string, page: CachedPage) => {
    const sentAt = reRenderSent.get(key);
    return sentAt !== undefined && sentAt >= page.storedAt && Date.now() - sentAt < ttlMs / 2;
  };
  const fresh = (key: string, page: CachedPage) =>
    rendering.has(key) || reRenderOnItsWay(key, page) || Date.now() - page.storedAt < ttlMs / 2 || (current(page) && busy());

  // A campaign's parameters (utm_*) change nothing on a page but where its form posts and its
  // links lead. A variant not cached yet is rendered within a budget; beyond it, the request is
  // answered as the page's plain address (the tab keeps the campaign from its landing page, and a
  // form posted without JavaScript takes it from the Referer): a flood of made-up campaign values
  // costs a hit each, not a render each, and cannot push the real pages out of the cache.
  const takeVariantRender = tokenBucket(campaignVariantsPerSecond, campaignVariantsPerSecond * 2);

  const lookup = (req: IncomingMessage): CachedPage | undefined => {
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    const url = req.url ?? "";
    const queryStart = url.indexOf("?");
    const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
    // Only a URL the app would answer with this page itself: a plain path (read the same way by
    // Express, so no fragment, space or control character) already in its canonical form (the
    // app redirects any other). A key is always a path that passed the app's checks.
    if (!PLAIN_PATH.test(pathname) || canonicalPath(pathname) !== pathname || isBackOfficePath(pathname)) return undefined;
    const query = queryStart === -1 ? "" : url.slice(queryStart + 1);
    // A translated address reads the parameters of its English one (/de/ressourcen/blog?category=…).
    const readsLike = sourceAddressOf(pathname);
    let key = pathname + keptQuery(readsLike, query);
    let page = cache.get(key);
    if (!page && !rendering.has(key)) {
      const plainKey = pathname + contentQuery(readsLike, query);
      if (plainKey !== key && !takeVariantRender()) {
        req.url = key = plainKey; // the app, if it must render, renders the plain page
        page = cache.get(key);
      }
    }
    if (!page) return undefined;
    if (fresh(key, page)) return page;
    // This request re-renders the page; the ones behind it keep getting the copy meanwhile.
    reRenderSent.set(key, Date.now());
    return undefined;
  };

  const middleware: RequestHandler = async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // The back office is one person's: never stored, never served from here.
    if (isBackOfficePath(req.path) || (!isPagePath(req.path) && !isCachedResource(req.path))) return next();
    const key = keyOf(req);
    reRenderSent.delete(key); // this is the request `lookup` sent to re-render, or a plain miss
    let page = cache.get(key);
    if (page && fresh(key, page)) return sendCached(req, res, page, "HIT");
    if (rendering.has(key) && !uncacheable.has(key)) {
      await rendering.get(key);
      page = cache.get(key);
      if (page && current(page)) return sendCached(req, res, page, "HIT");
    }

    pageCacheMiss.inc();
    let done!: () => void;
    const thisRender = new Promise<void>((resolve) => (done = resolve));
    rendering.set(key, thisRender);
    const finish = () => {
      if (rendering.get(key) === thisRender) rendering.delete(key);
      done();
    };
    res.once("close", finish);
    res.setHeader("X-Page-Cache", "MISS");
    holdResponse(res, holdMs, (body, streamed) => {
      const cacheable = isCacheable(res);
      const rendered = cacheable ? toCachedPage(res, body, cache.peek(key), sharedCacheControl) : undefined;
      if (rendered) {
        rendered.grown = () => {
          if (cache.peek(key) === rendered) cache.set(key, rendered, { noUpdateTTL: true });
        };
        cache.set(key, rendered);
      } else uncacheable.set(key, true);
      finish();
      return !streamed && rendered ? () => sendCached(req, res, rendered, "MISS") : undefined;
    });
    next();
  };

  const serveStale = (req: Request, res: Response): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const page = cache.get(keyOf(req));
    if (!page) return false;
    // Sent through the render's own response: marked so it is not stored again as a new copy.
    res.locals.staleCopy = true;
    sendCached(req, res, page, "STALE");
    return true;
  };

  const forget = (paths: readonly string[]): number => {
    let count = 0;
    for (const [key, page] of cache.entries()) {
      const queryStart = key.indexOf("?");
      if (!pathChanged(paths, queryStart === -1 ? key : key.slice(0, queryStart))) continue;
      // Out of date from now on: the next request renders it again. The copy stays for serveStale,
      // which answers with whatever it has only while the server is too busy to render.
      page.storedAt = Math.min(page.storedAt, Date.now() - ttlMs);
      count += 1;
    }
    return count;
  };

  const held = () => ({ entries: cache.size, bytes: cache.calculatedSize });

  return { lookup, serveHit, middleware, serveStale, forget, held };
}

/**
 * One key per page: its path and the query parameters it reads; anything else in the URL neither
 * varies the cache nor renders anew.
 */
function keyOf(req: Request): string {
  const queryStart = req.originalUrl.indexOf("?");
  return req.path + keptQuery(sourceAddressOf(req.path), queryStart === -1 ? "" : req.originalUrl.slice(queryStart + 1));
}

/** Takes one of `capacity` tokens, refilled at `perSecond`; false when none is left. */
function tokenBucket(perSecond: number, capacity: number): () => boolean {
  let tokens = capacity;
  let updatedAt = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(capacity, tokens + ((now - updatedAt) / 1000) * perSecond);
    updatedAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** RFC 3986 path characters only: a path that Express's URL parser takes exactly as written. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/** Pages have no file extension; assets and `.data` requests are not pages. Linear in the path. */
export function isPagePath(path: string): boolean {
  return !path.slice(path.lastIndexOf("/") + 1).includes(".");
}

/**
 * The shareable copy of a render: its own inline scripts allowed by hash, and the render's
 * nonce attributes removed (they are useless under a hash policy), so that re-rendering an
 * unchanged page gives the same bytes and the same ETag. An unchanged re-render keeps the
 * previous version's compressed bodies, so a busy page is compressed once per change, not once
 * per render.
 */
function toCachedPage(res: Response, rendered: Buffer, previous: CachedPage | undefined, cacheControl: string): CachedPage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (!PER_RESPONSE_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
  }
  Object.assign(headers, res.locals.sharedOnlyHeaders ?? {});
  headers["cache-control"] = cacheControl;
  const { body, scriptHashes } = withoutNonce(rendered, String(res.locals.cspNonce ?? ""));
  const csp = withScriptHashes(String(res.getHeader("content-security-policy") ?? ""), scriptHashes);
  const etag = createHash("sha256").update(body).digest("base64url").slice(0, 32);
  const page: CachedPage = { headers, body, csp, etag, representations: {}, storedAt: Date.now() };
  if (previous?.etag === etag) {
    // Same bytes in, same bytes out: the new version's headers with the codings already compressed.
    for (const coding of ["br", "gzip"] as const) {
      const made = previous.representations[coding];
      if (made) page.representations[coding] = representationFor(page, coding, made.body);
    }
  }
  return page;
}

const COMPRESS: Record<Exclude<Coding, "identity">, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};

/** One coding of `page`, made (and kept with the page) the first time a client asks for it. */
function representationOf(page: CachedPage, coding: Coding): Representation {
  const made = page.representations[coding];
  if (made) return made;
  const representation = representationFor(page, coding, coding === "identity" ? page.body : COMPRESS[coding](page.body));
  page.representations[coding] = representation;
  if (coding !== "identity") page.grown?.();
  return representation;
}

function representationFor(page: CachedPage, coding: Coding, encoded: Buffer): Representation {
  const { headers, csp, etag } = page;
  const tag = `"${etag}${coding === "identity" ? "" : `-${coding}`}"`;
  const notModified: string[] = [];
  for (const [name, value] of Object.entries(headers)) if (name !== "content-type") notModified.push(name, value);
  notModified.push("Content-Security-Policy", csp, "X-Page-Cache", "HIT", "Vary", "Accept-Encoding", "ETag", tag);
  const ok = [...notModified];
  if (headers["content-type"] !== undefined) ok.push("content-type", headers["content-type"]);
  if (coding !== "identity") ok.push("Content-Encoding", coding);
  ok.push("Content-Length", String(encoded.length));
  return { body: encoded, etag: tag, ok, notModified };
}

function isCacheable(res: Response): boolean {
  return (
    res.statusCode === 200 &&
    res.locals.staleCopy !== true &&
    CACHEABLE_TYPES.test(String(res.getHeader("content-type") ?? "")) &&
    !res.hasHeader("set-cookie") &&
    !/no-store/.test(String(res.getHeader("cache-control") ?? ""))
  );
}

/** The coding a client gets: brotli when it names br, else gzip when it names gzip, else the page as is. */
function codingFor(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return "identity";
  return /\bbr\b/.test(acceptEncoding) ? "br" : /\bgzip\b/.test(acceptEncoding) ? "gzip" : "identity";
}

/** If-None-Match names this page version (in any coding): the client's copy is current. */
function clientHasCurrent(header: string | undefined, page: CachedPage, representation: Representation): boolean {
  if (!header) return false;
  if (header === representation.etag) return true;
  if (header.trim() === "*") return true;
  return header.split(",").some(
    (tag) =>
      tag
        .trim()
        .replace(/^W\//, "")
        .replace(/^"|"$/g, "")
        .replace(/-(br|gzip)$/, "") === page.etag,
  );
}

/** Seconds since the page was stored, as the Age header says it. */
const ageOf = (page: CachedPage) => String(Math.floor((Date.now() - page.storedAt) / 1000));

/**
 * A hit outside Express: the prepared header lines plus the three that belong to this request
 * (X-Request-Id, Age, and HSTS when it arrived over https), written in one `writeHead`. HEAD gets
 * the GET's headers, Content-Length included, and no body.
 */
function serveHit(req: IncomingMessage, res: ServerResponse, page: CachedPage, context: HitContext): number {
  const representation = representationOf(page, codingFor(req.headers["accept-encoding"]));
  const notModified = clientHasCurrent(req.headers["if-none-match"], page, representation);
  const headers = notModified ? representation.notModified : representation.ok;
  const perRequest = ["X-Request-Id", context.requestId, "Age", ageOf(page)];
  if (context.secure && context.strictTransportSecurity)
    perRequest.push("Strict-Transport-Security", context.strictTransportSecurity);
  const status = notModified ? 304 : 200;
  pageCacheHit.inc();
  res.writeHead(status, headers.concat(perRequest));
  if (notModified || req.method === "HEAD") res.end();
  else res.end(representation.body);
  return status;
}

/** A cached page answered inside Express (a miss just stored, or a hit that waited for its render). */
function sendCached(req: Request, res: Response, page: CachedPage, status: "HIT" | "MISS" | "STALE") {
  // A MISS was counted when its render began.
  if (status === "HIT") pageCacheHit.inc();
  else if (status === "STALE") pageCacheStale.inc();
  const coding = codingFor(req.get("accept-encoding"));
  const representation = representationOf(page, coding);
  res.set(page.headers);
  res.setHeader("Content-Security-Policy", page.csp);
  res.setHeader("X-Page-Cache", status);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("ETag", representation.etag);
  res.setHeader("Age", ageOf(page));
  if (clientHasCurrent(req.get("if-none-match"), page, representation)) {
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  if (coding !== "identity") res.setHeader("Content-Encoding", coding);
  res.setHeader("Content-Length", representation.body.length);
  res.status(200).end(req.method === "HEAD" ? undefined : representation.body);
}

/**
 * Holds what the app writes (before compression, which is mounted earlier). When the response
 * ends within `holdMs` of its first write, `onComplete` may answer it differently (the cached
 * form); past `holdMs` the held bytes are sent and the rest streams through.
 * `onComplete(body, streamed)` returns the replacement answer, or nothing to send what was held.
 */
function holdResponse(res: Response, holdMs: number, onComplete: (body: Buffer, streamed: boolean) => (() => void) | undefined) {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const flush = (res as Response & { flush?: () => void }).flush?.bind(res);
  let streaming = false;
  let timer: NodeJS.Timeout | undefined;

  const toBuffer = (chunk: unknown, encoding?: unknown): Buffer => {
    if (Buffer.isBuffer(chunk)) return chunk;
    if (chunk instanceof Uint8Array) return Buffer.from(chunk);
    return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  };
  const startStreaming = () => {
    if (streaming || res.destroyed) return;
    streaming = true;
    clearTimeout(timer);
    // This copy carries a per-request nonce: no shared cache may keep it.
    if (res.statusCode === 200 && !/no-store/.test(String(res.getHeader("cache-control") ?? ""))) {
      res.setHeader("Cache-Control", NONCE_PAGE_CACHE_CONTROL);
    }
    // Nor is it one a CDN keeps, so it names no surrogate keys; the shareable copy keeps them.
    const sharedOnly: Record<string, string> = {};
    for (const name of SHARED_ONLY_HEADERS) {
      const value = res.getHeader(name);
      if (value === undefined) continue;
      sharedOnly[name] = String(value);
      res.removeHeader(name);
    }
    res.locals.sharedOnlyHeaders = sharedOnly;
    if (chunks.length > 0) write(Buffer.concat(chunks));
    flush?.();
  };
  res.once("close", () => clearTimeout(timer));

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return true;
    const buffer = toBuffer(chunk, rest[0]);
    if (streaming) {
      chunks.push(buffer);
      return write(buffer);
    }
    chunks.push(buffer);
    timer ??= setTimeout(startStreaming, holdMs);
    return true;
  }) as Response["write"];
  if (flush) (res as Response & { flush: () => void }).flush = () => (streaming ? flush() : undefined);

  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    clearTimeout(timer);
    const callback = [chunk, ...rest].find((arg) => typeof arg === "function") as (() => void) | undefined;
    const last = chunk !== undefined && chunk !== null && typeof chunk !== "function" ? toBuffer(chunk, rest[0]) : undefined;
    if (last) chunks.push(last);
    res.write = write as Response["write"];
    res.end = end as Response["end"];
    if (res.destroyed) return res;
    // A page sent whole (a stale copy, a short page) is one chunk: no copy of it is made.
    const held = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    // The cache decision reads the headers as the app set them, before a nonce copy is marked private.
    const answer = onComplete(held, streaming);
    if (answer) {
      answer();
      callback?.();
      return res;
    }
    if (!streaming) return held.length > 0 ? end(held, callback) : end(callback);
    return last ? end(last, callback) : end(callback);
  }) as Response["end"];
}

/**
 * The render's bytes without its nonce attributes, and the SHA-256 of the inline scripts that
 * carried the nonce, as CSP source expressions. Only scripts carrying the render's nonce count:
 * markup that merely looks like a script (injected into content, say) is never blessed by a hash.
 * Works on the bytes: a large page is never decoded into a string and encoded again, which cost
 * a 1 MB article 25 ms of the event loop per render.
 */
export function withoutNonce(rendered: Buffer, nonce: string): { body: Buffer; scriptHashes: string[] } {
  if (!nonce) return { body: rendered, scriptHashes: [] };
  const attribute = Buffer.from(` nonce="${nonce}"`);
  const pieces: Buffer[] = [];
  const hashes = new Set<string>();
  let from = 0;
  for (let at = rendered.indexOf(attribute); at !== -1; at = rendered.indexOf(attribute, from)) {
    pieces.push(rendered.subarray(from, at));
    from = at + attribute.length;
    const tagStart = rendered.lastIndexOf("<", at);
    const tagEnd = rendered.indexOf(">", from);
    if (tagStart === -1 || tagEnd === -1) continue;
    const tag = rendered.toString("latin1", tagStart, at) + rendered.toString("latin1", from, tagEnd);
    if (!/^<script\b/i.test(tag) || /\bsrc\s*=/i.test(tag)) continue;
    const close = rendered.indexOf("</script>", tagEnd);
    if (close === -1) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(rendered.subarray(tagEnd + 1, close))
        .digest("base64")}'`,
    );
  }
  if (from === 0) return { body: rendered, scriptHashes: [] };
  pieces.push(rendered.subarray(from));
  return { body: Buffer.concat(pieces), scriptHashes: [...hashes] };
}
