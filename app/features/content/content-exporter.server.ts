import type { Kysely } from "kysely";
import type { ContentProblem, ContentSet } from "~/features/content/content-files.server";
import type { Database } from "~/db/schema";

// What a kind of content gives the export (app/features/content/content-export.server.ts): a
// module of its own, so the features that export their rows (menus, redirects) and the export
// that lists them do not import each other.

/** One file of the export: its path under DIR (with forward slashes) and its text, or bytes for an image. */
export type ExportFile = { path: string; text: string } | { path: string; bytes: Buffer };

/** What one exporter made of its rows: its files, a line for the report, and its check of the read-back. */
export type ExportedKind = {
  files: ExportFile[];
  problems: ContentProblem[];
  summary: string;
  /** Compares what the importer's reader made of the files with the rows they came from. */
  check: (readBack: ContentSet) => ContentProblem[];
};

/**
 * One kind of content. An exporter owns one folder under DIR: each export replaces its files with
 * that extension there (others are left alone) and removes those no longer in the database.
 */
export type ContentExporter = {
  folder: string;
  extensions: readonly string[];
  export: (db: Kysely<Database>) => Promise<ExportedKind>;
};
