import { getEnv } from "~/env.server";

// Where a GET came from. The session cookie is SameSite=Lax, so a link on any other site, followed
// by a signed-in person, arrives signed in: a GET that does something in their name (an export, an
// audited look at a lead) must first know that the person started it here.

/**
 * Whether this request was started from another site: its Sec-Fetch-Site is anything but
 * `same-origin` or `none` (typed, bookmarked, opened from another program), or, from a browser that
 * sends no Sec-Fetch-Site, its Origin or Referer is neither SITE_URL's origin nor the request's own.
 */
export function startedOnAnotherSite(request: Request, siteOrigin = new URL(getEnv().SITE_URL).origin): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null) return fetchSite !== "same-origin" && fetchSite !== "none";
  const own = new Set([siteOrigin, new URL(request.url).origin]);
  for (const header of ["origin", "referer"]) {
    const value = request.headers.get(header);
    if (!value || value === "null") continue;
    let origin: string;
    try {
      origin = new URL(value).origin;
    } catch {
      return true;
    }
    if (!own.has(origin)) return true;
  }
  return false;
}
