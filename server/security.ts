import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import type { Env } from "~/env.server";
import { logger } from "~/platform/logger.server";
import { refusedRequests } from "~/platform/metrics.server";
import { logThrottle, untrusted, type LogThrottle } from "./log-throttle";
import { ownOrigin } from "./public-url";

/** Hosts our post markup may embed: YouTube (through youtube-nocookie) and Vimeo. */
const FRAME_SOURCES = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"];

/** A fresh nonce for every request; the CSP and every inline script use it. */
export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/** Stands in for the nonce while the policy is written once; every response puts its own in. */
const NONCE_PLACEHOLDER = "NONCE-PLACEHOLDER";

/**
 * Helmet's headers for our policy. Scripts run only with the request's nonce; 'strict-dynamic'
 * lets the router's module scripts load their own imports. HSTS is sent only when the request
 * arrived over https (see docs/decisions/001-csp.md).
 */
const helmetHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      "default-src": ["'self'"],
      "script-src": [
        "'self'",
        (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
        "'strict-dynamic'",
      ],
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "data:", "https:"],
      "font-src": ["'self'"],
      "connect-src": ["'self'"],
      "frame-src": FRAME_SOURCES,
      "frame-ancestors": ["'none'"],
      "form-action": ["'self'"],
      "base-uri": ["'none'"],
      "object-src": ["'none'"],
    },
  },
  strictTransportSecurity: false,
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  crossOriginEmbedderPolicy: false,
  xFrameOptions: { action: "deny" },
});

/**
 * The headers a Helmet middleware sets, recorded once. Helmet's headers depend on nothing in the
 * request but the nonce (our own directive function), so every response can copy them instead of
 * running Helmet's dozen middlewares again.
 */
function recordHeaders(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void) {
  const headers = new Map<string, string>();
  const recorder = {
    locals: { cspNonce: NONCE_PLACEHOLDER },
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => (failure = error));
  if (failure) throw failure;
  return headers;
}

const recorded = recordHeaders(helmetHeaders);
const cspTemplate = recorded.get("Content-Security-Policy") ?? "";
recorded.delete("Content-Security-Policy");
recorded.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");

/** Every security header that is the same on every response (the CSP, which carries the nonce, aside). */
export const STATIC_SECURITY_HEADERS: ReadonlyMap<string, string> = recorded;

/**
 * Strict-Transport-Security for responses to requests that arrived over https, from the HSTS
 * setting; undefined when it is off.
 */
export function strictTransportSecurity(hsts: Env["HSTS"]): string | undefined {
  if (!hsts) return undefined;
  return recordHeaders(helmet.strictTransportSecurity(hsts)).get("Strict-Transport-Security");
}

/** The Content-Security-Policy of a response rendered with `nonce`. */
export function contentSecurityPolicy(nonce: string): string {
  return cspTemplate.replace(NONCE_PLACEHOLDER, nonce);
}

/**
 * The one page any page of ours may frame: the back office's page preview, framed by the page
 * editor beside its form, on the same origin. Every other answer refuses to be framed.
 */
const PAGE_PREVIEW = /^\/admin\/pages\/[0-9a-f-]{36}\/preview$/;

/**
 * The policy of `path`. A back-office document may become the page editor without a new load (a
 * click in the app), so every back-office page may frame this origin; only the preview may be
 * framed, and only by this origin.
 */
function policyFor(path: string, nonce: string): string {
  const policy = contentSecurityPolicy(nonce);
  if (PAGE_PREVIEW.test(path))
    return policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'").replace("frame-src ", "frame-src 'self' ");
  if (path === "/admin" || path.startsWith("/admin/")) return policy.replace("frame-src ", "frame-src 'self' ");
  return policy;
}

/** All security headers in one place: the precomputed ones, the request's CSP, HSTS (when set) over https. */
export function securityHeaders(hstsHeader: string | undefined): RequestHandler {
  return (req, res, next) => {
    for (const [name, value] of STATIC_SECURITY_HEADERS) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", policyFor(req.path, String(res.locals.cspNonce)));
    if (PAGE_PREVIEW.test(req.path)) res.setHeader("X-Frame-Options", "SAMEORIGIN");
    if (hstsHeader && req.secure) res.setHeader("Strict-Transport-Security", hstsHeader);
    next();
  };
}

/**
 * POSTs from other sites are refused: no login exists, but leads must not be forged from
 * another origin. Browsers send Sec-Fetch-Site and Origin; a post is accepted when its Origin is
 * SITE_URL's origin (a proxy terminating TLS in front) or the request's own origin.
 */
const refusedCrossSite = refusedRequests.labels("cross-site");

export function rejectCrossSitePosts(siteUrl: URL, throttle: LogThrottle = logThrottle()): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const fetchSite = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const own = ownOrigin(req);
    const crossSiteFetch = fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none";
    const foreignOrigin = origin !== undefined && origin !== "null" && origin !== siteUrl.origin && origin !== own;
    if (!crossSiteFetch && !foreignOrigin) return next();
    if (!crossSiteFetch) {
      // The browser says same-origin, yet the origin is neither ours nor SITE_URL: a deployment
      // problem the operator must hear of, or a client that lies, which may write a few lines a
      // minute and no more (the origin escaped and cut short: it is the client's text).
      const { log, suppressed } = throttle("cross-site post");
      if (log) {
        logger.warn(
          {
            requestId: res.locals.requestId,
            origin: untrusted(origin ?? ""),
            siteUrl: siteUrl.origin,
            requestOrigin: untrusted(own ?? ""),
            suppressed,
          },
          `form post refused: its Origin ${untrusted(origin ?? "")} is not SITE_URL (${siteUrl.origin}); set SITE_URL to the origin visitors use` +
            (suppressed ? ` (${suppressed} more such posts since the last line)` : ""),
        );
      }
    }
    refusedCrossSite.inc();
    res.status(403).set("Cache-Control", "no-store").type("text/plain").send("Cross-site form posts are not accepted.");
  };
}

/**
 * The policy for a cached page: the same directives, but scripts are allowed by the hashes of
 * the page's own inline scripts instead of a nonce. 'strict-dynamic' is dropped so that 'self'
 * still covers the fingerprinted modules and their preloads.
 */
export function withScriptHashes(policy: string, hashes: string[]): string {
  return policy
    .split(";")
    .map((directive) => (directive.trim().startsWith("script-src") ? ["script-src", "'self'", ...hashes].join(" ") : directive))
    .join(";");
}
