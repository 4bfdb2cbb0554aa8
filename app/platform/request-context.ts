import ipaddr from "ipaddr.js";

// What the Express server hands every loader and action (see server/app.ts).
declare module "react-router" {
  interface AppLoadContext {
    /** Unique id of this request, also in every log line about it and in X-Request-Id. */
    requestId: string;
    /** Per-request CSP nonce; every inline script we emit must carry it. */
    cspNonce: string;
    /** Client address: the socket's, or X-Forwarded-For's when TRUST_PROXY says so (see clientAddress). */
    clientIp: string;
    /** A whole HTML document is being rendered (not the router's `.data` request of a client navigation). */
    documentRequest: boolean;
    /** A post to one of the site's forms: whether its client's budget allowed it (counted once, before the router). */
    formLimit?: { allowed: true } | { allowed: false; retryAfterSeconds: number };
    /**
     * Server-rendered HTML that a document carries once, in its markup, instead of also in the
     * router's hydration data (a post's article). Filled by loaders, read while rendering.
     */
    documentHtml: Map<string, string>;
    /**
     * What the answer shows, as a CDN's surrogate keys (~/features/cdn): filled by loaders through
     * `dependsOn`, sent with a cacheable answer. Absent where nothing sends them (a command line).
     */
    surrogateKeys?: Set<string>;
  }
}

/**
 * The client's address, as the audit log, the logs and the rate limits key it: Express's `req.ip`
 * (the socket's address, or with TRUST_PROXY the X-Forwarded-For item the trusted proxies name)
 * when it is an IP address, written one way (IPv6 lower-case and compressed, an IPv4-mapped one as
 * IPv4). Anything else in X-Forwarded-For (`=HYPERLINK(…)`, a host name, garbage) falls back to
 * the socket's address: a trusted proxy writes the address it was connected from, so such a value
 * came from the client itself (the app port reached directly, past the proxies TRUST_PROXY
 * assumes), and the socket's is the only address known to be true. That keeps text a spreadsheet
 * would run out of the audit log, and gives a client one rate-limit budget, not one per made-up value.
 */
export function clientAddress(req: { ip?: string; socket: { remoteAddress?: string } }): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  const forwarded = req.ip;
  if (forwarded === undefined || forwarded === socket) return socket;
  if (ipaddr.IPv4.isValidFourPartDecimal(forwarded)) return forwarded;
  if (ipaddr.IPv6.isValid(forwarded)) return ipaddr.process(forwarded).toString();
  return socket;
}
