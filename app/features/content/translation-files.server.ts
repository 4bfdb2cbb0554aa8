import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { parseSiteLocales, type SiteLocale } from "~/features/i18n/site-locales";
import { PAGE_PATH_PATTERN } from "~/features/content/content-types";
import { documentLocaleOf } from "~/features/content/locales.server";

// Translations in content files. A document's language is the one whose prefix begins its address
// (/de/produkte/sentinel is German), among every language with a message catalog, configured or
// not: a file may bring German pages to a site that does not serve German yet. A translation names
// its source in the source language: a page by the source's path, a post by its slug.

export type TranslationProblem = { path: string; field: string; message: string };

/** Every language content may be written in (each with a catalog), the source language first. */
export function contentLocales(): SiteLocale[] {
  const others = [...CATALOGS.keys()].filter((tag) => tag !== SOURCE_LOCALE).sort();
  const parsed = parseSiteLocales([SOURCE_LOCALE, ...others].join(","));
  if (!parsed.ok) throw new Error(`the message catalogs' languages: SITE_LOCALES ${parsed.problem}`);
  return parsed.locales;
}

/** The folder of each language but the source's, under pages/ and posts/: its prefix ("de", "pt-br"). */
export const folderOf = (locale: SiteLocale): string => locale.prefix.slice(1);

/** The language a file's folder gives (`pages/de/product.yaml`), when the folder is a language's. */
export function localeOfFolder(file: string): string | undefined {
  const folder = path.basename(path.dirname(file)).toLowerCase();
  return contentLocales().find((locale) => locale.prefix && folderOf(locale) === folder)?.tag;
}

/**
 * The files of a content folder a filter keeps, the source language's first (FOLDER/<name>), then
 * each other language's (FOLDER/de/<name>), by name; a folder in it that is no language's is a problem.
 */
export function filesByLanguage(
  folder: string,
  keep: (name: string) => boolean,
  shownAs: (file: string) => string,
): { files: string[]; problems: TranslationProblem[] } {
  const files: string[] = [];
  const problems: TranslationProblem[] = [];
  if (!existsSync(folder)) return { files, problems };
  const folders = new Set(
    contentLocales()
      .filter((locale) => locale.prefix)
      .map(folderOf),
  );
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) if (!entry.isDirectory() && keep(entry.name)) files.push(path.join(folder, entry.name));
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (!folders.has(entry.name)) {
      problems.push({
        path: shownAs(path.join(folder, entry.name)),
        field: "folder",
        message: `names no language with a message catalog (${[...folders].join(", ") || "none but the source's"})`,
      });
      continue;
    }
    const inner = path.join(folder, entry.name);
    for (const name of readdirSync(inner).sort()) {
      const file = path.join(inner, name);
      if (keep(name) && statSync(file).isFile()) files.push(file);
    }
  }
  return { files, problems };
}

/**
 * A page file's `translation_of` taken out of its fields (it is not one of the page's own: the
 * document row keeps it): the page's fields without it, the source's path, and what is wrong.
 */
export function pageTranslationOf(file: { path: string; value: unknown }): {
  value: unknown;
  translationOf?: string;
  problems: TranslationProblem[];
} {
  if (!file.value || typeof file.value !== "object" || !("translation_of" in file.value)) return { value: file.value, problems: [] };
  const { translation_of: source, ...value } = file.value as Record<string, unknown>;
  const problem = (message: string) => ({ value, problems: [{ path: file.path, field: "translation_of", message }] });
  if (typeof source !== "string" || !PAGE_PATH_PATTERN.test(source))
    return problem("must be the path of the page this one translates, such as /products/sentinel");
  const sourceLocale = documentLocaleOf(source);
  if (sourceLocale !== SOURCE_LOCALE)
    return problem(`names ${source}, a page in ${sourceLocale}: a translation names the ${SOURCE_LOCALE} page it translates`);
  return { value, translationOf: source, problems: [] };
}

/** What is wrong with a checked page's path for its file: a translation's must carry a language prefix, a language's folder must agree. */
export function pagePathProblems(file: string, pagePath: string, translationOf: string | undefined): TranslationProblem[] {
  const locale = documentLocaleOf(pagePath);
  const problems: TranslationProblem[] = [];
  if (translationOf !== undefined && locale === SOURCE_LOCALE) {
    const prefixes = contentLocales()
      .filter((entry) => entry.prefix)
      .map((entry) => `${entry.prefix}/…`)
      .join(", ");
    problems.push({
      path: file,
      field: "path",
      message: `must begin with its language's prefix (${prefixes}): a page with translation_of is a translation`,
    });
  }
  const named = localeOfFolder(file);
  if (named !== undefined && named !== locale) {
    const prefix = contentLocales().find((entry) => entry.tag === named)!.prefix;
    problems.push({ path: file, field: "path", message: `must begin with ${prefix}: the file's folder is for pages in ${named}` });
  }
  return problems;
}
