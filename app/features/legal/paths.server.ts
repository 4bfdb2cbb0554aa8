import { data } from "react-router";
import { getEnv } from "~/env.server";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { localizedPath, localizedRouteOf } from "~/features/i18n/route-paths.server";
import type { SiteLocale } from "~/features/i18n/site-locales";
import type { LocalizedRouteName } from "~/features/i18n/route-paths";
import { legalDocumentPath, legalVersionPath, type LegalDocumentType } from "~/features/legal/documents";

// A legal document's addresses in each language: English keeps /terms/…; another language's come
// from its catalog (/de/rechtliches/datenschutzerklaerung), as every localized route's do.

export const LEGAL_ROUTE_NAMES = {
  "privacy-policy": "privacyPolicy",
  "terms-of-use": "termsOfUse",
} as const satisfies Record<LegalDocumentType, LocalizedRouteName>;

export function legalTypeOfRoute(name: LocalizedRouteName): LegalDocumentType | undefined {
  return (Object.keys(LEGAL_ROUTE_NAMES) as LegalDocumentType[]).find((type) => LEGAL_ROUTE_NAMES[type] === name);
}

/** The document's current page in `tag` (a language with a catalog, whether the site shows it or not). */
export function legalPathIn(type: LegalDocumentType, tag: string): string {
  if (tag === SOURCE_LOCALE) return legalDocumentPath(type);
  return localizedPath(LEGAL_ROUTE_NAMES[type], { tag, prefix: `/${tag.toLowerCase()}` });
}

/** An earlier version's page in `tag`. */
export function legalVersionPathIn(type: LegalDocumentType, tag: string, version: string): string {
  if (tag === SOURCE_LOCALE) return legalVersionPath(type, version);
  return `${legalPathIn(type, tag)}/versions/${encodeURIComponent(version)}`;
}

/** The languages a legal document may be translated into: every catalog but the governing language's. */
export function translationLocales(): string[] {
  return [...CATALOGS.keys()].filter((tag) => tag !== SOURCE_LOCALE).sort();
}

/** "Deutsch": a language's name in itself, as its translators and readers know it. */
export function localeName(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Everything a legal document's change may leave out of date, in every language. */
export function legalPagesOfEveryLanguage(type: LegalDocumentType): string[] {
  return [SOURCE_LOCALE, ...translationLocales()].flatMap((tag) => {
    const path = legalPathIn(type, tag);
    return [path, `${path}/*`];
  });
}

/**
 * The document and language a public legal page's address names. An address of a language the
 * site does not show (SITE_LOCALES) is the site's 404.
 */
export function legalPageOf(pathname: string): { type: LegalDocumentType; locale: SiteLocale } {
  const route = localizedRouteOf(pathname, getEnv().SITE_LOCALES);
  const type = route ? legalTypeOfRoute(route.name) : undefined;
  if (!route || !type) throw data(null, { status: 404 });
  return { type, locale: route.locale };
}
