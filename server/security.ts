import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { logger } from "~/lib/logger.server";
import { ownOrigin } from "./public-url";

/** Hosts our post markup may embed: YouTube (through youtube-nocookie) and Vimeo. */
const FRAME_SOURCES = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"];

/** A fresh nonce for every request; the CSP and every inline script use it. */
export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/**
 * All security headers in one place. Scripts run only with the request's nonce;
 * 'strict-dynamic' lets the router's module scripts load their own imports.
 * HSTS is sent only when the request arrived over https (see docs/decisions/001-csp.md).
 */
export function securityHeaders(): RequestHandler {
  const headers = helmet({
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
  const hsts = helmet.strictTransportSecurity({ maxAge: 63072000, includeSubDomains: true, preload: true });

  return (req, res, next) => {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
    headers(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (req.secure) return hsts(req, res, next);
      next();
    });
  };
}

/**
 * POSTs from other sites are refused: no login exists, but leads must not be forged from
 * another origin. Browsers send Sec-Fetch-Site and Origin; a post is accepted when its Origin is
 * SITE_URL's origin (a proxy terminating TLS in front) or the request's own origin.
 */
export function rejectCrossSitePosts(siteUrl: URL): RequestHandler {
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
      // problem, not an attack, and the operator must hear of it.
      logger.warn(
        { requestId: res.locals.requestId, origin, siteUrl: siteUrl.origin, requestOrigin: own },
        `form post refused: its Origin ${origin} is not SITE_URL (${siteUrl.origin}); set SITE_URL to the origin visitors use`,
      );
    }
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
