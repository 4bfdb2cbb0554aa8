import { data } from "react-router";
import { getEnv } from "~/env.server";
import { hasCatalog } from "~/features/i18n/messages.server";
import { localeOfPath, type SiteLocale } from "~/features/i18n/site-locales";

// A request's language: the configured locale whose prefix begins its path (English, the default,
// has none), and whether the path instead begins with a language the site does not publish
// (/fr/… on a site in en,de; /de/… on a site in English alone). Such a path is not found, drawn in
// the default language's frame.

export type RequestLocale = {
  /** The configured locale of the path: its prefix's, else the default. */
  locale: SiteLocale;
  /**
   * The path's first segment when it reads as a language tag that is not configured ("fr",
   * "pt-br"), else null. `catalogued`: the site has messages for it (its routes are mounted).
   */
  foreign: { tag: string; catalogued: boolean } | null;
};

/** Two or three letters, then subtags: what a language's prefix looks like (/de, /pt-br). */
const LANGUAGE_SEGMENT = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

export function pathLocale(pathname: string, locales: readonly SiteLocale[] = getEnv().SITE_LOCALES): RequestLocale {
  const locale = localeOfPath(pathname, locales);
  if (locale.prefix) return { locale, foreign: null };
  const segment = /^\/([^/]+)/.exec(pathname)?.[1] ?? "";
  if (!LANGUAGE_SEGMENT.test(segment)) return { locale, foreign: null };
  let tag: string;
  try {
    [tag = segment] = Intl.getCanonicalLocales(segment);
  } catch {
    return { locale, foreign: null };
  }
  // The default's own tag as a prefix (/en/…) is no language of its own: it is an address like any.
  if (locales.some((configured) => configured.tag.toLowerCase() === tag.toLowerCase())) return { locale, foreign: null };
  return { locale, foreign: { tag, catalogued: hasCatalog(tag) } };
}

/** The language of a request's address (pathLocale). */
export const requestLocale = (request: Request, locales?: readonly SiteLocale[]) =>
  pathLocale(new URL(request.url).pathname, locales);

/**
 * The language a route module mounted in every catalog's language (route-paths.ts) answers in: a
 * language that is not configured answers 404, as if the route were not there.
 */
export function routeLocale(request: Request, locales?: readonly SiteLocale[]): SiteLocale {
  const { locale, foreign } = requestLocale(request, locales);
  if (foreign) throw data(null, { status: 404, statusText: "Not Found" });
  return locale;
}
