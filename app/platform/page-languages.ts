import { useRouteLoaderData } from "react-router";

// What the root loader tells the page about its languages (page-languages.server.ts), for the
// head's alternates, the language switcher and the suggestion. Absent on a site in one language.

/** Another configured language: where the switcher leads (this page there, else that language's home) and its texts, in it. */
export type OtherLanguage = {
  tag: string;
  /** Its name in itself: "Deutsch". */
  name: string;
  path: string;
  /** Set when this page has no version in it: says that the link leads to its home. */
  missing?: string;
  suggestion: { label: string; text: string; open: string; dismiss: string };
};

export type PageLanguages = {
  /** The page's language. */
  tag: string;
  /** The switcher's name, in the page's language. */
  label: string;
  openGraphLocale: string;
  /** The page's versions (itself included) when it has at least one translation; else none. */
  alternates: { tag: string; path: string; openGraphLocale: string }[];
  /** The default language: its version is the x-default. */
  defaultTag: string;
  others: OtherLanguage[];
};

/** The page's languages from the root's data; undefined on a site in one language and in the back office. */
export function usePageLanguages(): PageLanguages | undefined {
  const data = useRouteLoaderData("root") as { languages?: PageLanguages } | undefined;
  return data?.languages;
}

/**
 * The language to suggest to a browser that prefers `preferred` (navigator.languages, most wanted
 * first): the first of them the site offers, matched by tag, else by language ("de-DE" is de), when
 * it is not the page's own and not dismissed before. None for a browser that prefers the page's.
 */
export function suggestedLanguage(
  preferred: readonly string[],
  languages: PageLanguages,
  dismissed: ReadonlySet<string> = new Set(),
): OtherLanguage | undefined {
  const offered = [languages.tag, ...languages.others.map((other) => other.tag)];
  const primary = (tag: string) => tag.toLowerCase().split("-")[0];
  for (const wish of preferred) {
    const match =
      offered.find((tag) => tag.toLowerCase() === wish.toLowerCase()) ?? offered.find((tag) => primary(tag) === primary(wish));
    if (!match) continue;
    if (match === languages.tag || dismissed.has(match)) return undefined;
    return languages.others.find((other) => other.tag === match);
  }
  return undefined;
}
