import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { ROUTE_PATH_PATTERN } from "~/features/i18n/route-paths";

// The message catalogs' check, run by the build and the tests: a catalog missing a key of the
// source catalog, carrying one it does not have, holding a message that is not ICU MessageFormat,
// or naming other arguments than the source's, fails them (never a visitor's page).

export type Catalog = Record<string, string>;

/** The arguments a message names ({name}, {count, plural, …}, <b>…</b>), at any depth. */
export function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

/** What is wrong with `catalogs` (by locale tag), each problem one line naming the catalog and key. */
export function checkCatalogs(catalogs: Record<string, unknown>, source: string): string[] {
  const problems: string[] = [];
  const reference = catalogs[source];
  if (!isCatalog(reference)) return [`${source}: the source catalog is missing or is not an object of texts`];
  const sourceArguments = new Map<string, Set<string>>();
  for (const [tag, catalog] of Object.entries(catalogs)) {
    if (!isCatalog(catalog)) {
      problems.push(`${tag}: not an object of texts`);
      continue;
    }
    for (const key of Object.keys(reference)) if (!(key in catalog)) problems.push(`${tag}: missing ${key}`);
    for (const [key, message] of Object.entries(catalog)) {
      if (!(key in reference)) {
        problems.push(`${tag}: ${key} is not in the ${source} catalog`);
        continue;
      }
      // An address (route-paths.ts): lower-case path segments, no prefix, no slash at either end.
      if (key.startsWith("route.") && !ROUTE_PATH_PATTERN.test(message)) {
        problems.push(`${tag}: ${key} is not an address such as demo-anfordern or ressourcen/blog`);
        continue;
      }
      let names: Set<string>;
      try {
        names = argumentsOf(parse(message));
      } catch (error) {
        problems.push(`${tag}: ${key} is not a valid ICU message (${(error as Error).message})`);
        continue;
      }
      if (tag === source) sourceArguments.set(key, names);
      else {
        const expected = sourceArguments.get(key) ?? safeArguments(reference[key]!);
        const differ = [...expected].some((name) => !names.has(name)) || [...names].some((name) => !expected.has(name));
        if (expected && differ)
          problems.push(
            `${tag}: ${key} names {${[...names].sort().join(", ")}}, the ${source} catalog {${[...expected].sort().join(", ")}}`,
          );
      }
    }
  }
  return problems;
}

const isCatalog = (value: unknown): value is Catalog =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((text) => typeof text === "string");

function safeArguments(message: string): Set<string> {
  try {
    return argumentsOf(parse(message));
  } catch {
    return new Set();
  }
}
