import { readFileSync } from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/db/schema";
import type { ContentExporter, ExportFile } from "~/features/content/content-exporter.server";
import type { ContentProblem } from "~/features/content/content-files.server";
import { parseYaml, stringifyYaml, yamlFilesIn } from "~/features/content/content-yaml.server";
import { findRedirectByPath, insertRedirect, listRedirectRows, updateRedirect } from "~/features/redirects/db/redirects.server";
import type { RedirectFieldErrors, RedirectKind, Target } from "~/features/redirects/redirect-rules";
import { checkRedirectFields, refusalsFor } from "~/features/redirects/redirects.server";

// Redirects as content files: DIR/redirects/redirects.yaml, a list of the redirects editors keep,
// by old address: from, kind (permanent, temporary or gone), target (none when gone) and source
// (page-move when a page's move left it). Each is checked by the back office's own rules
// (redirects.server.ts): the fields first, then, in the import's transaction once its pages and
// posts are written, the rules that need the database (no page at the old address, a live target,
// no loop, no chain). Use counts are the running site's statistics and are not written. A post's
// old slugs are not redirects of this table: they belong to the post and are not written here.

type Db = Kysely<Database>;
const FOLDER = "redirects";
const FILE = `${FOLDER}/redirects.yaml`;

type Source = "editor" | "page-move";

/** A redirect of a file that passed the checks that need no database. */
export type RedirectEntry = {
  file: string;
  index: number;
  fromPath: string;
  kind: RedirectKind;
  target: Target | undefined;
  /** Left out of the file: a stored redirect keeps its own, a new one is an editor's. */
  source?: Source;
};

const text = z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") });
const entryShape = z.strictObject({
  from: text,
  kind: text,
  target: text.optional(),
  source: z.enum(["editor", "page-move"], { error: "must be editor or page-move" }).optional(),
});
const fileShape = z.array(entryShape, { error: "must be a list of redirects, each with from, kind and target" });

const fieldProblems = (file: string, index: number, errors: RedirectFieldErrors): ContentProblem[] =>
  Object.entries(errors).map(([field, message]) => ({ path: file, field: `${index}.${field}`, message: message! }));

/** One redirects file's text, read and checked by the rules of a redirect's fields. */
export function parseRedirectFile(
  file: string,
  source: string,
  siteUrl?: string,
): { entries: RedirectEntry[]; problems: ContentProblem[] } {
  let value: unknown;
  try {
    // An empty file is no redirects.
    value = parseYaml(source) ?? [];
  } catch (error) {
    return {
      entries: [],
      problems: [{ path: file, field: "redirects", message: `is not valid YAML (${(error as Error).message.split("\n")[0]})` }],
    };
  }
  const shape = fileShape.safeParse(value);
  if (!shape.success) {
    return {
      entries: [],
      problems: shape.error.issues.map((issue) =>
        issue.code === "unrecognized_keys"
          ? {
              path: file,
              field: [...issue.path, issue.keys.join(", ")].join("."),
              message: "is not a known field (check the spelling)",
            }
          : { path: file, field: issue.path.join(".") || "redirects", message: issue.message },
      ),
    };
  }
  const entries: RedirectEntry[] = [];
  const problems: ContentProblem[] = [];
  shape.data.forEach((entry, index) => {
    const checked = checkRedirectFields({ from: entry.from, kind: entry.kind, target: entry.target ?? "" }, siteUrl);
    if (!checked.ok) {
      problems.push(...fieldProblems(file, index, checked.fieldErrors));
      return;
    }
    // The form ignores a gone redirect's target; in a file it is a mistake worth naming.
    if (checked.kind === "gone" && entry.target !== undefined) {
      problems.push({ path: file, field: `${index}.target`, message: "must be left out: a gone address leads nowhere" });
      return;
    }
    entries.push({ file, index, fromPath: checked.fromPath, kind: checked.kind, target: checked.target, source: entry.source });
  });
  return { entries, problems };
}

/** DIR/redirects/*.yaml, read and checked; a missing folder has none (the redirects stay as they are). */
export function readRedirectFiles(dir: string, siteUrl?: string): { entries: RedirectEntry[]; problems: ContentProblem[] } {
  const names = yamlFilesIn(path.join(dir, FOLDER));
  const entries: RedirectEntry[] = [];
  const problems: ContentProblem[] = [];
  const seen = new Map<string, RedirectEntry>();
  for (const name of names) {
    const file = `${FOLDER}/${name}`;
    const read = parseRedirectFile(file, readFileSync(path.join(dir, FOLDER, name), "utf8"), siteUrl);
    problems.push(...read.problems);
    for (const entry of read.entries) {
      // Spellings of one address are one address (/Old/ is /old).
      const other = seen.get(entry.fromPath);
      if (other) {
        problems.push({
          path: file,
          field: `${entry.index}.from`,
          message: `${entry.fromPath} is also redirected by ${other.file} (${other.index}.from)`,
        });
        continue;
      }
      seen.set(entry.fromPath, entry);
      entries.push(entry);
    }
  }
  return { entries, problems };
}

export type RedirectChange = { file: string; fromPath: string; id: string; action: "create" | "update" | "unchanged" };

/**
 * Stores the files' redirects in the import's transaction, by old address: a new one is added, a
 * stored one whose kind, target or source differs is changed (its use counts kept). Saved by
 * nobody in particular (the command line), as imported posts and pages are. Redirects stored and
 * not in the files stay.
 */
export async function writeRedirects(db: Db, entries: readonly RedirectEntry[]): Promise<RedirectChange[]> {
  const changes: RedirectChange[] = [];
  for (const entry of entries) {
    const target = entry.target?.value ?? "";
    const existing = await findRedirectByPath(db, entry.fromPath);
    if (!existing) {
      const id = await insertRedirect(
        db,
        { fromPath: entry.fromPath, target, kind: entry.kind, source: entry.source ?? "editor" },
        "",
      );
      changes.push({ file: entry.file, fromPath: entry.fromPath, id, action: "create" });
      continue;
    }
    const same =
      existing.kind === entry.kind &&
      existing.target === target &&
      (entry.source === undefined || existing.source === entry.source);
    changes.push({ file: entry.file, fromPath: entry.fromPath, id: existing.id, action: same ? "unchanged" : "update" });
    if (!same) await updateRedirect(db, existing.id, { target, kind: entry.kind, source: entry.source }, "");
  }
  return changes;
}

/**
 * The rules that need the database, asked of each redirect of the files once everything the
 * import brings is written (`ids`: each entry's row), so the order of the entries does not matter.
 */
export async function checkRedirectRules(
  db: Db,
  entries: readonly RedirectEntry[],
  ids: readonly string[],
): Promise<ContentProblem[]> {
  const problems: ContentProblem[] = [];
  for (const [position, entry] of entries.entries()) {
    const errors = await refusalsFor(db, entry.fromPath, entry.target, ids[position]);
    problems.push(...fieldProblems(entry.file, entry.index, errors));
  }
  return problems;
}

/**
 * Every redirect of the table, by old address (in code-unit order, the same on both engines). A
 * redirect the import would refuse (its target no longer a page, a chain another tool wrote) is
 * reported instead: fix it in the back office and export again.
 */
export const redirectsExporter: ContentExporter = {
  folder: FOLDER,
  extensions: [".yaml", ".yml"],
  async export(db) {
    const rows = (await listRedirectRows(db)).sort((a, b) => (a.fromPath < b.fromPath ? -1 : a.fromPath > b.fromPath ? 1 : 0));
    if (rows.length === 0) return { files: [], problems: [], summary: "", check: () => [] };
    const source = stringifyYaml(
      rows.map((row) => ({
        from: row.fromPath,
        kind: row.kind,
        ...(row.kind === "gone" ? {} : { target: row.target }),
        ...(row.source === "editor" ? {} : { source: row.source }),
      })),
    );
    const files: ExportFile[] = [{ path: FILE, text: source }];
    // Read back by the import's own reader: each entry must be the row it came from.
    const readBack = parseRedirectFile(FILE, source);
    const problems = [...readBack.problems];
    const read = new Map(readBack.entries.map((entry) => [entry.index, entry]));
    for (const [index, row] of rows.entries()) {
      const entry = read.get(index);
      if (!entry) continue;
      const same =
        entry.fromPath === row.fromPath &&
        entry.kind === row.kind &&
        (row.kind === "gone" || entry.target?.value === row.target) &&
        (entry.source ?? "editor") === row.source;
      if (!same) {
        problems.push({
          path: FILE,
          field: `${index}`,
          message: `would not import back as stored (the redirect from ${row.fromPath})`,
        });
        continue;
      }
      problems.push(...fieldProblems(FILE, index, await refusalsFor(db, entry.fromPath, entry.target, row.id)));
    }
    return { files, problems, summary: `${rows.length} redirect${rows.length === 1 ? "" : "s"}`, check: () => [] };
  },
};
