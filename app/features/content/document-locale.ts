// A document's language follows its address: the language whose prefix (/de, /pt-br) begins it,
// among the languages the site has a catalog for, whether configured or not (so a German page
// stays German while German is switched off); English, the source language, has no prefix.

export const SOURCE_LOCALE = "en";

/** The prefix of a language's addresses: "" for the source language, else "/" and the tag in lower case. */
export const localePrefix = (tag: string) => (tag === SOURCE_LOCALE ? "" : `/${tag.toLowerCase()}`);

/** The language of the document at `path`, among `tags` (the languages that have a catalog). */
export function localeOfDocumentPath(path: string, tags: Iterable<string>): string {
  const lower = path.toLowerCase();
  for (const tag of tags) {
    const prefix = localePrefix(tag);
    if (prefix && (lower === prefix || lower.startsWith(`${prefix}/`))) return tag;
  }
  return SOURCE_LOCALE;
}

/** A language's name in that language, as its translators read it ("Deutsch", "Français"). */
export function languageName(tag: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([tag], { type: "language" }).of(tag);
  } catch {
    name = undefined;
  }
  const text = name ?? tag;
  return text.charAt(0).toLocaleUpperCase(tag) + text.slice(1);
}

/** Where a translation of the page at `sourcePath` lives in `tag` by default: the same address under its prefix. */
export const translatedPagePath = (sourcePath: string, tag: string) =>
  sourcePath === "/" ? localePrefix(tag) : `${localePrefix(tag)}${sourcePath}`;
