import type { Request, Response } from "express";
import type { AppLoadContext } from "react-router";
import type { Env } from "~/env.server";
import { surrogateKeyHeaders } from "~/features/cdn/shared-cache.server";
import { isBackOfficePath } from "./back-office";

/**
 * Sends the surrogate keys the loaders named (plus the site-wide key and any the answer names itself) with an answer a shared cache
 * may keep: a GET or HEAD, not an error, not marked no-store, setting no cookie, not the back
 * office. Everything else (form answers, previews, errors) goes without, so no purge is ever needed
 * for it and no CDN keeps it.
 */
export function tagForSharedCache(req: Request, res: Response, context: AppLoadContext, style: Env["CDN_PURGE_STYLE"]): void {
  if (!context.surrogateKeys) return;
  if (req.method !== "GET" && req.method !== "HEAD") return;
  if (res.statusCode >= 400 || isBackOfficePath(req.path) || res.hasHeader("set-cookie")) return;
  if (/no-store|private/.test(String(res.getHeader("cache-control") ?? "")) && !isRenderedPage(res)) return;
  // A resource route may name its keys in its own Surrogate-Key header (a card names its owner's).
  const own = String(res.getHeader("surrogate-key") ?? "")
    .split(" ")
    .filter(Boolean);
  for (const [name, value] of Object.entries(surrogateKeyHeaders([...context.surrogateKeys, ...own], style)))
    res.setHeader(name, value);
}

/**
 * A page's render is marked private (it carries this visitor's nonce) until the page cache makes
 * its shareable copy, which keeps these headers; a copy that streams is stripped of them there.
 */
function isRenderedPage(res: Response): boolean {
  return (
    String(res.getHeader("cache-control")) === "private, no-cache" &&
    /^text\/html\b/.test(String(res.getHeader("content-type") ?? ""))
  );
}
