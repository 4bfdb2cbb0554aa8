import { readdirSync } from "node:fs";
import matter from "gray-matter";

// The YAML reader and writer of the content files: js-yaml's safe schema, as gray-matter uses it
// for front matter, so every content file is read by one parser.

const engine = (
  matter as unknown as {
    engines: { yaml: { parse: (text: string) => unknown; stringify: (value: unknown, options?: object) => string } };
  }
).engines.yaml;

/** Parses YAML text; throws with the line of the mistake. */
export const parseYaml = (text: string): unknown => engine.parse(text);

/** YAML as people write it: no folded lines, so each field stays one line in a diff. */
export const stringifyYaml = (value: unknown): string => engine.stringify(value, { lineWidth: -1 });

/** The YAML files of a content folder (`*.yaml`, `*.yml`), by name; a missing folder has none. */
export function yamlFilesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith(".yaml") || name.endsWith(".yml"))
      .sort();
  } catch {
    return [];
  }
}
