import { readFileSync } from "node:fs";
import { parseYaml, yamlFilesIn } from "~/features/content/content-yaml.server";
import path from "node:path";
import type { Kysely } from "kysely";
import { contentTypes, pageSnapshotSchema, type PageSnapshot } from "~/features/content/content-types";
import {
  publishDocument,
  restoreDocumentRevision,
  saveDocument,
  unpublishDocument,
  type Editor,
  type PublishOutcome,
  type SaveOutcome,
  type TranslationWrite,
} from "~/features/content/core.server";
import {
  documentStateOf,
  findDocument,
  findLiveDocument,
  findLiveDocumentById,
  listDocuments,
  listLiveDocuments,
  type ContentDocument,
  type DocumentState,
} from "~/features/content/documents.server";
import { writeDocumentFiles } from "~/features/content/document-files.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import { checkPageBeforePublish } from "~/features/pages/page-checks.server";
import { lockContentWrites } from "~/db/content-lock.server";
import type { Database } from "~/db/schema";

// The marketing pages as the core stores them (content_documents, type "page"): what the public
// route reads, what the editor lists and writes, and the seed of a fresh database from the
// content files. A page's fields and blocks are checked by the page type of the registry.

type Db = Kysely<Database>;

export type PublishedPage = PageSnapshot & { id: string; publishedAt: string };

/** The page visitors see at `path` at `now` (a scheduled version once its time has come), if any. */
export async function findPublishedPage(db: Db, path: string, now: Date = new Date()): Promise<PublishedPage | undefined> {
  const live = await findLiveDocument<PageSnapshot>(db, "page", path, now);
  return live && { ...live.data, id: live.id, publishedAt: live.since };
}

/** The page visitors see at `now` whose id is `id` (its social card's address names it), if any. */
export async function findPublishedPageById(db: Db, id: string, now: Date = new Date()): Promise<PublishedPage | undefined> {
  const live = await findLiveDocumentById<PageSnapshot>(db, "page", id, now);
  return live && { ...live.data, id: live.id, publishedAt: live.since };
}

/** Every page visitors see at `now` (the sitemap lists those not marked noindex). */
export async function listPublishedPages(db: Db, now: Date = new Date()) {
  const pages = await listLiveDocuments<PageSnapshot>(db, "page", now);
  return pages.map((page) => ({ id: page.id, path: page.path, noindex: page.data.noindex, updatedAt: page.since }));
}

export type PageListItem = {
  id: string;
  path: string;
  title: string;
  state: DocumentState;
  /** A published page with a change waiting for its time. */
  publishAt: string | null;
  updatedAt: string;
  updatedByEmail: string;
  revision: number;
  locale: string;
  /** A translation's English source; null for a source. */
  translationOf: string | null;
};

/** Every page for the editor's list: the latest change first. */
export async function listPagesForEditors(db: Db, now = Date.now()): Promise<PageListItem[]> {
  const docs = await listDocuments<PageSnapshot>(db, "page");
  return docs.map((doc) => ({
    id: doc.id,
    path: doc.path,
    title: doc.draft.title,
    state: documentStateOf(doc, now),
    publishAt: doc.publishAt,
    updatedAt: doc.updatedAt,
    updatedByEmail: doc.updatedByEmail,
    revision: doc.revision,
    locale: doc.locale,
    translationOf: doc.translationOf,
  }));
}

export async function findPageForEditor(db: Db, id: string): Promise<ContentDocument<PageSnapshot> | undefined> {
  const doc = await findDocument<PageSnapshot>(db, id);
  return doc?.type === "page" ? doc : undefined;
}

export function savePage(
  db: Db,
  editor: Editor,
  input: { id?: string; baseRevision: number; page: unknown; translation?: TranslationWrite },
): Promise<SaveOutcome> {
  // The page's own fields are checked (and labelled) by the core; each block then against its own
  // type's schema (the renderer's check), and stored as that schema reads it.
  let fields = input.page;
  if (pageSnapshotSchema.safeParse(input.page).success) {
    const checked = validatePageDocument(input.page);
    if (!checked.ok) {
      const errors: Record<string, string> = {};
      for (const problem of checked.problems) errors[problem.path || "page"] ??= `Blocks: ${problem.path} ${problem.message}.`;
      return Promise.resolve({ ok: false, errors });
    }
    fields = pageSnapshotSchema.parse(checked.page);
  }
  return saveDocument(db, editor, {
    type: "page",
    id: input.id,
    baseRevision: input.baseRevision,
    fields,
    ...(input.translation ? { translation: input.translation } : {}),
  });
}

/**
 * Publishes the page's saved draft now, or from `at` on when that is in the future, once it passes
 * the checks a page must pass before it goes live; otherwise nothing is written and the problems
 * are returned (`checks`).
 */
export async function publishPage(
  db: Db,
  editor: Editor,
  input: { id: string; baseRevision: number; at?: string },
): Promise<PublishOutcome> {
  // Checked outside the publishing transaction, which holds every content write while it runs: a
  // revision's draft never changes, and publishing refuses any revision but `baseRevision`.
  const doc = await findPageForEditor(db, input.id);
  if (doc && doc.revision === input.baseRevision) {
    const checks = await checkPageBeforePublish(db, doc.draft);
    if (checks.length) return { ok: false, checks };
  }
  return publishDocument(db, editor, { type: "page", ...input });
}

export function unpublishPage(db: Db, editor: Editor, id: string) {
  return unpublishDocument(db, editor, { type: "page", id });
}

export function restorePageRevision(db: Db, editor: Editor, input: { id: string; number: number; baseRevision: number }) {
  return restoreDocumentRevision(db, editor, { type: "page", ...input });
}

/** A page read from a content file (content/pages/<name>.yaml), before it is checked. */
export type PageFile = { path: string; value: unknown };
export type PageFileProblem = { path: string; field: string; message: string };

/** The files' pages through the page type's schema: every problem, or the pages. */
export function checkPageFiles(files: readonly PageFile[]): {
  problems: PageFileProblem[];
  pages: { file: string; page: PageSnapshot }[];
} {
  const problems: PageFileProblem[] = [];
  const pages: { file: string; page: PageSnapshot }[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    // The page and each block against its own type's schema, as the public renderer checks it;
    // then the shape the core stores.
    const checked = validatePageDocument(file.value);
    if (!checked.ok) {
      for (const problem of checked.problems)
        problems.push({ path: file.path, field: problem.path || "page", message: problem.message });
      continue;
    }
    const parsed = pageSnapshotSchema.safeParse(checked.page);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: file.path, field: issue.path.join(".") || "page", message: issue.message });
      continue;
    }
    const other = seen.get(parsed.data.path);
    if (other) problems.push({ path: file.path, field: "path", message: `is also the path of ${other}` });
    seen.set(parsed.data.path, file.path);
    pages.push({ file: file.path, page: parsed.data });
  }
  return { problems, pages };
}

export type PageChange = { path: string; file: string; action: "create" | "update" | "unchanged" };

/**
 * Writes pages from content files, published: a path not stored yet becomes a new page; a stored
 * page whose draft differs gets the file's version as a new revision, published. With
 * `onlyIntoEmpty` (SEED=auto) nothing is written once any page exists. Returns what changed.
 */
export async function importPages(
  db: Db,
  files: readonly PageFile[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<{ problems: PageFileProblem[]; changes: PageChange[] }> {
  const { problems, pages } = checkPageFiles(files);
  if (problems.length) return { problems, changes: [] };
  const run = async (trx: Db) => {
    await lockContentWrites(trx);
    return writePages(trx, pages, options);
  };
  const changes = options.dryRun ? await run(db) : await db.transaction().execute(run);
  return { problems: [], changes };
}

/** The writes of `importPages` inside the caller's transaction (the content import's), pages already checked. */
export async function writePages(
  trx: Db,
  pages: readonly { file: string; page: PageSnapshot }[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<PageChange[]> {
  const documents = pages.map(({ file, page }) => ({ file, path: page.path, snapshot: page }));
  return writeDocumentFiles(trx, "page", documents, options);
}

/** The page files of `dir` (`<name>.yaml`), parsed but not checked; a missing folder has none. */
export function readPageFiles(dir: string, relativeTo = dir): { files: PageFile[]; problems: PageFileProblem[] } {
  const names = yamlFilesIn(dir);
  const files: PageFile[] = [];
  const problems: PageFileProblem[] = [];
  for (const name of names) {
    const file = path.relative(relativeTo, path.join(dir, name));
    try {
      files.push({ path: file, value: parseYaml(readFileSync(path.join(dir, name), "utf8")) });
    } catch (error) {
      problems.push({ path: file, field: "page", message: `is not valid YAML (${(error as Error).message.split("\n")[0]})` });
    }
  }
  return { files, problems };
}

/** What visitors see of every page now, by path (the export: the import publishes what it reads). */
export async function listPublishedPagesForExport(db: Db, now: Date = new Date()): Promise<PageSnapshot[]> {
  const pages = await listLiveDocuments<PageSnapshot>(db, "page", now);
  return pages.map((page) => page.data).sort((a, b) => a.path.localeCompare(b.path));
}

export const pageType = contentTypes.page;
