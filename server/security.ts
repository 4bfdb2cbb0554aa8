import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

/** Hosts our post markup may embed (DESIGN.md §5: YouTube via youtube-nocookie, Vimeo). */
const FRAME_SOURCES = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"];

/** A fresh nonce for every request; the CSP and every inline script use it. */
export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/**
 * All security headers in one place (DESIGN.md §7). Scripts run only with the request's nonce;
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
 * another origin. Browsers send Sec-Fetch-Site; older ones at least send Origin.
 */
export const rejectCrossSitePosts: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const fetchSite = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const crossSite =
    (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") ||
    (origin !== undefined && origin !== "null" && safeHost(origin) !== req.get("host"));
  if (crossSite) {
    res.status(403).set("Cache-Control", "no-store").type("text/plain").send("Cross-site form posts are not accepted.");
    return;
  }
  next();
};

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
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
