import type { Request, Response } from "express";
import { refusedRequests } from "~/platform/metrics.server";

// The answer to a request the server refuses before any route runs: overloaded (503), rate
// limited (429), too large (413), a method the page does not take (405). A refusal must cost
// next to nothing, or a flood of refused requests is itself the overload; so it is a small page
// written here, never a render of the site. A browser gets a branded page with a way back (and,
// when the refusal is temporary and nothing was posted, one that asks again by itself, with no
// script); anything else gets the sentence as plain text.

export type Refusal = {
  status: 405 | 413 | 429 | 503;
  title: string;
  message: string;
  /** Seconds until asking again makes sense: sent as Retry-After; a refused page load then reloads itself after them. */
  retryAfterSeconds?: number;
  /** Where the visitor goes from here; the home page when not said. */
  way?: { href: string; label: string };
  headers?: Record<string, string>;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

/** Styles for this page only (the site's stylesheet is an asset the refused client need not fetch). */
const STYLE =
  "body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a;background:#f8fafc;line-height:1.5}" +
  "main{max-width:34rem;margin:12vh auto;padding:0 1.5rem}" +
  ".brand{font-weight:700;font-size:1.25rem;color:#2540b5;margin:0 0 2rem}" +
  "h1{font-size:1.75rem;line-height:1.2;margin:0 0 1rem}" +
  "a{color:#2540b5;font-weight:600}a:focus-visible{outline:3px solid #2f4fd8;outline-offset:2px}";

/** The small HTML page of a refusal; `reload` makes it ask for the same address again after Retry-After. */
export function refusalHtml(refusal: Refusal, reload: boolean): string {
  const way = refusal.way ?? { href: "/", label: "Go to the home page" };
  const refresh = reload && refusal.retryAfterSeconds ? `<meta http-equiv="refresh" content="${refusal.retryAfterSeconds}">` : "";
  const retrying = refresh ? "<p>This page will try again by itself in a moment.</p>" : "";
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">${refresh}` +
    `<title>${escapeHtml(refusal.title)} | Quorvant</title><style>${STYLE}</style></head>` +
    `<body><main><p class="brand">Quorvant</p><h1>${escapeHtml(refusal.title)}</h1>` +
    `<p>${escapeHtml(refusal.message)}</p>${retrying}<p><a href="${escapeHtml(way.href)}">${escapeHtml(way.label)}</a></p>` +
    `</main></body></html>`
  );
}

/** Refusals counted by reason, one series per status this page answers with. */
const refusalCounters = {
  405: refusedRequests.labels("method-not-allowed"),
  413: refusedRequests.labels("too-large"),
  429: refusedRequests.labels("rate-limited"),
  503: refusedRequests.labels("overloaded"),
} as const;

/**
 * Sends `refusal`: HTML to a browser asking for a page (one that reloads itself when a plain page
 * load was refused for a while), plain text to everything else, including the router's data
 * requests (the client retries those itself). Never stored by any cache.
 */
export function sendRefusal(req: Request, res: Response, refusal: Refusal): void {
  refusalCounters[refusal.status].inc();
  if (res.headersSent) return void res.end();
  res.status(refusal.status).set("Cache-Control", "no-store");
  if (refusal.retryAfterSeconds) res.set("Retry-After", String(refusal.retryAfterSeconds));
  if (refusal.headers) res.set(refusal.headers);
  const page = !req.path.endsWith(".data") && req.accepts(["text/plain", "text/html"]) === "text/html";
  if (!page) return void res.type("text/plain").send(`${refusal.title}: ${refusal.message}`);
  const reload = req.method === "GET" || req.method === "HEAD";
  res.type("text/html").send(refusalHtml(refusal, reload));
}
