// What the Express server hands every loader and action (see server/app.ts).
declare module "react-router" {
  interface AppLoadContext {
    /** Unique id of this request, also in every log line about it and in X-Request-Id. */
    requestId: string;
    /** Per-request CSP nonce; every inline script we emit must carry it. */
    cspNonce: string;
    /** Client address: the socket's, or X-Forwarded-For's when TRUST_PROXY says so. */
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
  }
}

export {};
