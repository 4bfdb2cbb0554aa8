import type { AppLoadContext } from "react-router";
import type { Env } from "~/env.server";
import { SITE_KEY, surrogateKeyList } from "~/features/cdn/surrogate-keys";

// What a shared cache (a CDN in front) is told about a public answer: how long it may keep it, and
// the surrogate keys that purge it. Browsers keep revalidating every time (max-age=0, then a 304).

/** How long a CDN may serve its last good copy while the site answers errors or cannot be reached. */
export const STALE_IF_ERROR_SECONDS = 86_400;
/** How long a CDN with a purge endpoint may serve a copy while it fetches a new one. */
export const STALE_WHILE_REVALIDATE_SECONDS = 86_400;

/**
 * Cache-Control of the shareable pages, feeds and cards. With a purge endpoint the CDN keeps them
 * long (a publish purges what it changed); without one only for a second (nobody would purge it),
 * but in both cases it may answer with its last copy while the site is down (stale-if-error).
 */
export function sharedCacheControl(env: Pick<Env, "CDN_PURGE_URL" | "CDN_MAX_AGE_SECONDS">): string {
  return env.CDN_PURGE_URL
    ? `public, max-age=0, s-maxage=${env.CDN_MAX_AGE_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}, stale-if-error=${STALE_IF_ERROR_SECONDS}`
    : `public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=${STALE_IF_ERROR_SECONDS}`;
}

/** A loader says what its answer shows: these keys are sent with it (see surrogateKeyHeaders). */
export function dependsOn(context: Pick<AppLoadContext, "surrogateKeys">, ...keys: string[]): void {
  for (const key of surrogateKeyList(keys)) context.surrogateKeys?.add(key);
}

/**
 * The headers naming `keys` (the site-wide key first, the others sorted, so every render of a page
 * says the same whichever loader finished first): Surrogate-Key, and Cache-Tag for Cloudflare.
 */
export function surrogateKeyHeaders(keys: Iterable<string>, style: Env["CDN_PURGE_STYLE"]): Record<string, string> {
  const list = surrogateKeyList([SITE_KEY, ...[...keys].filter((key) => key !== SITE_KEY).sort()]);
  return style === "cloudflare"
    ? { "Surrogate-Key": list.join(" "), "Cache-Tag": list.join(",") }
    : { "Surrogate-Key": list.join(" ") };
}
