import { LOCALIZED_FILES, LOCALIZED_ROUTES, routeMessageKey, type LocalizedRouteName } from "~/features/i18n/route-paths";
import { CATALOGS, SOURCE_LOCALE, catalogMessage } from "~/features/i18n/messages.server";
import type { SiteLocale } from "~/features/i18n/site-locales";

// A route module's address in a language, and the reverse: which route module and language an
// address is (route-paths.ts says where the translated addresses come from).

/** The address of `name` in `locale`: /request-demo in English, /de/demo-anfordern in German. */
export function localizedPath(name: LocalizedRouteName, locale: SiteLocale): string {
  if (!locale.prefix) return `/${LOCALIZED_ROUTES[name].path}`;
  return `${locale.prefix}/${catalogMessage(locale.tag, routeMessageKey(name))}`;
}

/**
 * The address of `name` in the language `tag`, for any language with a catalog, configured or not
 * (a German position stays under /de/unternehmen/karriere while German is switched off).
 */
export function routePathIn(name: LocalizedRouteName, tag: string): string {
  if (tag === SOURCE_LOCALE) return `/${LOCALIZED_ROUTES[name].path}`;
  return `/${tag.toLowerCase()}/${catalogMessage(tag, routeMessageKey(name))}`;
}

/**
 * The route module and language `pathname` belongs to (at its address or under it: a post, a
 * version), with what follows its address ("" or "/slug"); null for any other address.
 */
export function localizedRouteOf(
  pathname: string,
  locales: readonly SiteLocale[],
): { name: LocalizedRouteName; locale: SiteLocale; rest: string } | null {
  for (const locale of locales)
    for (const name of Object.keys(LOCALIZED_ROUTES) as LocalizedRouteName[]) {
      const base = localizedPath(name, locale);
      if (pathname === base || pathname.startsWith(`${base}/`)) return { name, locale, rest: pathname.slice(base.length) };
    }
  return null;
}

/** Every other language's address of each route module and file, with its English one: [translated, English]. */
const TRANSLATED_BASES: readonly [string, string][] = [...CATALOGS.keys()]
  .filter((tag) => tag !== SOURCE_LOCALE)
  .flatMap((tag) => {
    const prefix = `/${tag.toLowerCase()}`;
    return [
      ...(Object.keys(LOCALIZED_ROUTES) as LocalizedRouteName[]).map((name): [string, string] => [
        `${prefix}/${catalogMessage(tag, routeMessageKey(name))}`,
        `/${LOCALIZED_ROUTES[name].path}`,
      ]),
      ...LOCALIZED_FILES.map((file): [string, string] => [`${prefix}/${file.path}`, `/${file.path}`]),
    ];
  });

/**
 * The English address of a route module's translated address (/de/ressourcen/blog/x →
 * /resources/blog/x), else `pathname` itself: what decides the query parameters a page reads.
 */
export function sourceAddressOf(pathname: string): string {
  for (const [translated, english] of TRANSLATED_BASES)
    if (pathname === translated || pathname.startsWith(`${translated}/`)) return english + pathname.slice(translated.length);
  return pathname;
}
