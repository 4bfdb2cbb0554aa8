import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { alternatesOf, type Alternate } from "~/features/i18n/alternates.server";
import { catalogMessage } from "~/features/i18n/messages.server";
import { localeOfPath, type SiteLocale } from "~/features/i18n/site-locales";
import type { OtherLanguage, PageLanguages } from "~/platform/page-languages";
import { logger } from "~/platform/logger.server";

// What a page says about its languages, made once by the root loader when the site has more than
// one: its versions (the head's hreflang alternates), and for each other language the switcher's
// link and the suggestion's texts, in that language. Everything is the same for every visitor (the
// page cache keeps one copy); the browser alone picks a suggestion by its own languages.

/** A language's name in itself ("Deutsch", "English"), its first letter in capitals. */
export function ownName(tag: string): string {
  const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}

/** Open Graph's form of a language: en_US, de_DE (the likeliest region when the tag names none). */
export function openGraphLocale(tag: string): string {
  const locale = new Intl.Locale(tag).maximize();
  return locale.region ? `${locale.language}_${locale.region}` : locale.language;
}

/** The page at `pathname`'s languages; `alternates` is what alternatesOf found (none: a page alone in its language). */
export function pageLanguagesOf(
  pathname: string,
  locales: readonly SiteLocale[],
  alternates: readonly Alternate[],
): PageLanguages {
  const current = localeOfPath(pathname, locales);
  const others: OtherLanguage[] = locales
    .filter((locale) => locale.tag !== current.tag)
    .map((locale) => {
      const version = alternates.find((alternate) => alternate.tag === locale.tag);
      const message = (key: string) => catalogMessage(locale.tag, `seo.${key}`);
      return {
        tag: locale.tag,
        name: ownName(locale.tag),
        path: version?.path ?? (locale.prefix || "/"),
        ...(version ? {} : { missing: message("switcher.missing") }),
        suggestion: {
          label: message("suggestion.label"),
          text: message(version ? "suggestion.available" : "suggestion.home"),
          open: message(version ? "suggestion.open" : "suggestion.openHome"),
          dismiss: message("suggestion.dismiss"),
        },
      };
    });
  return {
    tag: current.tag,
    label: catalogMessage(current.tag, "seo.switcher.label"),
    openGraphLocale: openGraphLocale(current.tag),
    alternates: alternates.map((alternate) => ({ ...alternate, openGraphLocale: openGraphLocale(alternate.tag) })),
    defaultTag: locales[0]!.tag,
    others,
  };
}

/** The languages of the page at `pathname`; a failure to read its versions leaves it without alternates, never without a page. */
export async function loadPageLanguages(
  db: Kysely<Database>,
  pathname: string,
  locales: readonly SiteLocale[],
): Promise<PageLanguages> {
  let alternates: Alternate[] = [];
  try {
    alternates = await alternatesOf(db, pathname, locales);
  } catch (error) {
    logger.warn({ err: error }, "the page's translations could not be read; it is drawn without its alternates");
  }
  return pageLanguagesOf(pathname, locales, alternates);
}
