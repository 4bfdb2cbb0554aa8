// The languages the site is published in: configuration (SITE_LOCALES=en,de), the first the
// default. The default lives at today's addresses; every other locale under its own prefix
// (/de/…), which must not be the first segment of an address the site already answers.

export type SiteLocale = {
  /** The BCP 47 tag in its canonical form: "en", "de", "pt-BR". */
  tag: string;
  /** "" for the default locale, else "/" and the tag in lower case: "/de", "/pt-br". */
  prefix: string;
};

/**
 * First path segments the site answers whatever the content: its routes (app/routes.ts), the files
 * it serves and the folders of public/. A locale's prefix may be none of them.
 */
export const RESERVED_FIRST_SEGMENTS: ReadonlySet<string> = new Set([
  "admin",
  "assets",
  "atom.xml",
  "company",
  "contact-sales",
  "favicon.svg",
  "feed.json",
  "healthz",
  "images",
  "media",
  "preview",
  "request-demo",
  "resources",
  "robots.txt",
  "rss.xml",
  "sitemap.xml",
  "social-cards",
  "terms",
]);

/** SITE_LOCALES read: the locales, the default first, or the one line that says what is wrong. */
export function parseSiteLocales(text: string): { ok: true; locales: SiteLocale[] } | { ok: false; problem: string } {
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => entry === ""))
    return { ok: false, problem: "must list language tags separated by commas, such as en,de" };
  const locales: SiteLocale[] = [];
  for (const [index, entry] of entries.entries()) {
    let tag: string;
    try {
      [tag = ""] = Intl.getCanonicalLocales(entry);
    } catch {
      return { ok: false, problem: `names "${entry}", which is not a language tag (such as de or pt-BR)` };
    }
    const prefix = index === 0 ? "" : `/${tag.toLowerCase()}`;
    if (locales.some((locale) => locale.tag === tag)) return { ok: false, problem: `names ${tag} twice` };
    if (RESERVED_FIRST_SEGMENTS.has(tag.toLowerCase()))
      return {
        ok: false,
        problem: `gives ${tag} the prefix ${prefix || `/${tag.toLowerCase()}`}, which the site already answers`,
      };
    locales.push({ tag, prefix });
  }
  return { ok: true, locales };
}

/** The locale whose prefix begins `pathname` (/de, /de/…), else the default: the first of `locales`. */
export function localeOfPath(pathname: string, locales: readonly SiteLocale[]): SiteLocale {
  const lower = pathname.toLowerCase();
  return (
    locales.find((locale) => locale.prefix && (lower === locale.prefix || lower.startsWith(`${locale.prefix}/`))) ?? locales[0]!
  );
}

/** The configured locale of content in language `tag`, else the default: the frame such content is shown in. */
export function frameLocaleOf(tag: string | undefined, locales: readonly SiteLocale[]): SiteLocale {
  return locales.find((locale) => locale.tag === tag) ?? locales[0]!;
}
