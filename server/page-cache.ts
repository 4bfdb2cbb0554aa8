import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { withScriptHashes } from "./security";

/**
 * A server-side cache of whole HTML pages (DESIGN.md §7). Pages are the same for every visitor,
 * so a page rendered once is served again for up to `ttlMs` (1 s keeps edits made directly in the
 * database visible within a second, DESIGN.md §8).
 *
 * A cached page must not hand one CSP nonce to every visitor, so cached copies are served with a
 * policy listing the SHA-256 hashes of their own inline scripts instead (docs/decisions/001-csp.md).
 */
type CachedPage = {
  headers: Record<string, string>;
  body: Buffer;
  csp: string;
  encoded: { br?: Buffer; gzip?: Buffer };
  storedAt: number;
};

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
  "x-page-cache",
]);

export function pageCache({ ttlMs = 1000, maxBytes = 64 * 1024 * 1024 } = {}): RequestHandler {
  const cache = new LRUCache<string, CachedPage>({
    ttl: ttlMs,
    maxSize: maxBytes,
    sizeCalculation: (page) => page.body.length + 1,
  });
  /** Renders in progress, by key: one request renders, the others wait for its result. */
  const rendering = new Map<string, Promise<void>>();
  /** Pages that just answered with something uncacheable (an error, a form answer): don't queue behind them. */
  const uncacheable = new LRUCache<string, true>({ max: 10_000, ttl: ttlMs });

  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Pages have no file extension; assets, feeds and `.data` requests are not pages.
    if (/\.[^/]*$/.test(req.path)) return next();
    const key = req.originalUrl;
    const serve = (page: CachedPage) => sendCached(req.get("accept-encoding") ?? "", req.method === "HEAD", res, page);

    let page = cache.get(key);
    // Past half its life, one request re-renders the page while the others keep getting the
    // cached copy, so a busy page never expires into a burst of renders and nothing served is
    // older than ttlMs.
    if (page && (rendering.has(key) || Date.now() - page.storedAt < ttlMs / 2)) return serve(page);
    if (!page && rendering.has(key) && !uncacheable.has(key)) {
      await rendering.get(key);
      page = cache.get(key);
      if (page) return serve(page);
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
    captureBody(res, (body) => {
      if (isCacheable(res)) cache.set(key, toCachedPage(res, body));
      else uncacheable.set(key, true);
      finish();
    });
    next();
  };
}

function toCachedPage(res: Response, body: Buffer): CachedPage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (!PER_RESPONSE_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
  }
  const csp = withScriptHashes(String(res.getHeader("content-security-policy") ?? ""), inlineScriptHashes(body.toString("utf8")));
  return { headers, body, csp, encoded: {}, storedAt: Date.now() };
}

function isCacheable(res: Response): boolean {
  const cacheControl = String(res.getHeader("cache-control") ?? "");
  return (
    res.statusCode === 200 &&
    String(res.getHeader("content-type") ?? "").startsWith("text/html") &&
    !res.hasHeader("set-cookie") &&
    !/no-store|private/.test(cacheControl)
  );
}

function sendCached(acceptEncoding: string, headOnly: boolean, res: Response, page: CachedPage) {
  res.set(page.headers);
  res.setHeader("Content-Security-Policy", page.csp);
  res.setHeader("X-Page-Cache", "HIT");
  res.setHeader("Vary", "Accept-Encoding");
  let body = page.body;
  // Compress once per cached page, not once per request.
  if (/\bbr\b/.test(acceptEncoding)) {
    page.encoded.br ??= brotliCompressSync(page.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    body = page.encoded.br;
    res.setHeader("Content-Encoding", "br");
  } else if (/\bgzip\b/.test(acceptEncoding)) {
    page.encoded.gzip ??= gzipSync(page.body, { level: 6 });
    body = page.encoded.gzip;
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", body.length);
  res.status(200).end(headOnly ? undefined : body);
}

/** Collects what the app writes (before compression, which is mounted earlier). */
function captureBody(res: Response, onComplete: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    collect(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    collect(chunk, rest[0]);
    const result = end(chunk, ...rest);
    if (!res.destroyed) onComplete(Buffer.concat(chunks));
    return result;
  }) as Response["end"];
}

/** SHA-256 of every inline executable script, as CSP source expressions. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\bsrc\s*=/.test(attributes) || /type\s*=\s*"application\/(ld\+)?json"/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(match[2] ?? "", "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
