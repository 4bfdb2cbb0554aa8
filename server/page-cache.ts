import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
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
 */
type CachedPage = {
  headers: Record<string, string>;
  body: Buffer;
  csp: string;
  etag: string;
  encoded: { br?: Buffer; gzip?: Buffer };
  storedAt: number;
};

/**
 * What a shared cache (a CDN in front) may do with a page: keep it for the freshness second and
 * serve it for one more second while it fetches a new copy. Browsers revalidate every time
 * (max-age=0), which costs a 304 thanks to the ETag.
 */
export const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=1";
/** A response carrying this render's nonce is for this visitor only. */
export const NONCE_PAGE_CACHE_CONTROL = "private, no-cache";

/** Resource routes cached like pages. */
const CACHED_RESOURCES = new Set(["/rss.xml", "/sitemap.xml", "/robots.txt"]);
const CACHEABLE_TYPES = /^(text\/html|text\/plain|application\/xml|application\/rss\+xml)\b/;

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

type Options = { ttlMs?: number; maxBytes?: number; maxEntries?: number; holdMs?: number };

export function pageCache({
  ttlMs = 1000,
  maxBytes = 64 * 1024 * 1024,
  maxEntries = 5_000,
  holdMs = 50,
}: Options = {}): RequestHandler {
  const cache = new LRUCache<string, CachedPage>({
    ttl: ttlMs,
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (page) => page.body.length + 1,
  });
  /** Renders in progress, by key: one request renders, the others wait for its result. */
  const rendering = new Map<string, Promise<void>>();
  /** Pages that just answered with something uncacheable (an error, a form answer): don't queue behind them. */
  const uncacheable = new LRUCache<string, true>({ max: 10_000, ttl: ttlMs });

  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!isPagePath(req.path) && !CACHED_RESOURCES.has(req.path)) return next();
    const key = req.originalUrl;

    let page = cache.get(key);
    // Past half its life, one request re-renders the page while the others keep getting the
    // cached copy, so a busy page never expires into a burst of renders and nothing served is
    // older than ttlMs.
    if (page && (rendering.has(key) || Date.now() - page.storedAt < ttlMs / 2)) return sendCached(req, res, page, "HIT");
    if (!page && rendering.has(key) && !uncacheable.has(key)) {
      await rendering.get(key);
      page = cache.get(key);
      if (page) return sendCached(req, res, page, "HIT");
    }

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
      const rendered = cacheable ? toCachedPage(res, body) : undefined;
      if (rendered) cache.set(key, rendered);
      else uncacheable.set(key, true);
      finish();
      return !streamed && rendered ? () => sendCached(req, res, rendered, "MISS") : undefined;
    });
    next();
  };
}

/** Pages have no file extension; assets and `.data` requests are not pages. Linear in the path. */
function isPagePath(path: string): boolean {
  return !path.slice(path.lastIndexOf("/") + 1).includes(".");
}

/**
 * The shareable copy of a render: its own inline scripts allowed by hash, and the render's
 * nonce attributes removed (they are useless under a hash policy), so that re-rendering an
 * unchanged page gives the same bytes and the same ETag.
 */
function toCachedPage(res: Response, rendered: Buffer): CachedPage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (!PER_RESPONSE_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
  }
  headers["cache-control"] = SHARED_PAGE_CACHE_CONTROL;
  const nonce = String(res.locals.cspNonce ?? "");
  const html = rendered.toString("utf8");
  const csp = withScriptHashes(String(res.getHeader("content-security-policy") ?? ""), inlineScriptHashes(html, nonce));
  const body = nonce ? Buffer.from(html.replaceAll(` nonce="${nonce}"`, ""), "utf8") : rendered;
  const etag = createHash("sha256").update(body).digest("base64url").slice(0, 32);
  return { headers, body, csp, etag, encoded: {}, storedAt: Date.now() };
}

function isCacheable(res: Response): boolean {
  return (
    res.statusCode === 200 &&
    CACHEABLE_TYPES.test(String(res.getHeader("content-type") ?? "")) &&
    !res.hasHeader("set-cookie") &&
    !/no-store/.test(String(res.getHeader("cache-control") ?? ""))
  );
}

/** The representation's strong ETag: one per page version and content coding. */
function etagFor(page: CachedPage, coding: "br" | "gzip" | undefined): string {
  return `"${page.etag}${coding ? `-${coding}` : ""}"`;
}

/** If-None-Match names this page version (in any coding): the client's copy is current. */
function clientHasCurrent(req: Request, page: CachedPage): boolean {
  const header = req.get("if-none-match");
  if (!header) return false;
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

function sendCached(req: Request, res: Response, page: CachedPage, status: "HIT" | "MISS") {
  const acceptEncoding = req.get("accept-encoding") ?? "";
  const coding = /\bbr\b/.test(acceptEncoding) ? "br" : /\bgzip\b/.test(acceptEncoding) ? "gzip" : undefined;
  res.set(page.headers);
  res.setHeader("Content-Security-Policy", page.csp);
  res.setHeader("X-Page-Cache", status);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("ETag", etagFor(page, coding));
  res.setHeader("Age", String(Math.floor((Date.now() - page.storedAt) / 1000)));
  if (clientHasCurrent(req, page)) {
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  let body = page.body;
  // Compress once per cached page, not once per request.
  if (coding === "br") {
    page.encoded.br ??= brotliCompressSync(page.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    body = page.encoded.br;
  } else if (coding === "gzip") {
    page.encoded.gzip ??= gzipSync(page.body, { level: 6 });
    body = page.encoded.gzip;
  }
  if (coding) res.setHeader("Content-Encoding", coding);
  res.setHeader("Content-Length", body.length);
  res.status(200).end(req.method === "HEAD" ? undefined : body);
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
    // The cache decision reads the headers as the app set them, before a nonce copy is marked private.
    const answer = onComplete(Buffer.concat(chunks), streaming);
    if (answer) {
      answer();
      callback?.();
      return res;
    }
    if (!streaming) {
      const held = Buffer.concat(chunks);
      return held.length > 0 ? end(held, callback) : end(callback);
    }
    return last ? end(last, callback) : end(callback);
  }) as Response["end"];
}

/**
 * SHA-256 of the inline scripts this render emitted, as CSP source expressions. Only scripts
 * carrying the render's nonce count: markup that merely looks like a script (injected into
 * content, say) is never blessed by a hash.
 */
export function inlineScriptHashes(html: string, nonce: string): string[] {
  const hashes = new Set<string>();
  if (!nonce) return [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\bsrc\s*=/i.test(attributes)) continue;
    if (!attributes.includes(`nonce="${nonce}"`)) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[2] ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return [...hashes];
}
