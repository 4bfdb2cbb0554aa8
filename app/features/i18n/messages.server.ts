import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import type { Catalog } from "~/features/i18n/catalog-check";

// The site's messages in every language it has: one catalog per locale in ./catalogs (ICU
// MessageFormat, checked by the build and the tests against the English source, catalog-check.ts).
// A new language is a new catalog file, found here by name.

/**
 * The catalog files by path: bundled by Vite (the server, the tests); read from beside this module
 * when it runs without Vite (the command-line tools under tsx, where import.meta.glob is undefined).
 */
function catalogFiles(): Record<string, Catalog> {
  try {
    return import.meta.glob<Catalog>("./catalogs/*.json", { eager: true, import: "default" });
  } catch {
    const dir = path.join(import.meta.dirname, "catalogs");
    return Object.fromEntries(
      readdirSync(dir)
        .filter((file) => file.endsWith(".json"))
        .map((file) => [`./catalogs/${file}`, JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Catalog]),
    );
  }
}

const files = catalogFiles();

/** The catalogs by locale tag ("en", "de", "pt-BR"), from their file names. */
export const CATALOGS: ReadonlyMap<string, Catalog> = new Map(
  Object.entries(files).map(([file, catalog]) => [file.replace(/^.*\/([^/]+)\.json$/, "$1"), catalog]),
);

export const SOURCE_LOCALE = "en";

const formats = new Map<string, IntlMessageFormat>();

/** The catalog a locale reads: its own, else its language's ("de" for "de-AT"), else the source's. */
function catalogOf(tag: string): [string, Catalog] {
  for (const candidate of [tag, tag.split("-")[0]!, SOURCE_LOCALE]) {
    const catalog = CATALOGS.get(candidate);
    if (catalog) return [candidate, catalog];
  }
  throw new Error(`no ${SOURCE_LOCALE} catalog`);
}

/** Whether `tag` has a catalog of its own or its language's. */
export const hasCatalog = (tag: string) => CATALOGS.has(tag) || CATALOGS.has(tag.split("-")[0]!);

/** The message `key` in `locale`, its arguments filled in by ICU's rules (numbers, plurals, dates). */
export function catalogMessage(locale: string, key: string, values?: Record<string, string | number | Date>): string {
  const [tag, catalog] = catalogOf(locale);
  const cacheKey = `${tag}\u0000${key}`;
  let format = formats.get(cacheKey);
  if (!format) {
    const message = catalog[key];
    if (message === undefined) throw new Error(`the ${tag} catalog has no message ${key}`);
    format = new IntlMessageFormat(message, tag);
    formats.set(cacheKey, format);
  }
  return String(format.format(values));
}
