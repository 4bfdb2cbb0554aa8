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
import { filesByLanguage, pagePathProblems, pageTranslationOf } from "~/features/content/translation-files.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
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
/** A checked page file; a translation names its source page's path (`translation_of`). */
export type PageFileChecked = { file: string; page: PageSnapshot; translationOf?: string };

/** The files' pages through the page type's schema: every problem, or the pages. */
export function checkPageFiles(files: readonly PageFile[]): {
  problems: PageFileProblem[];
  pages: PageFileChecked[];
} {
  const problems: PageFileProblem[] = [];
  const pages: PageFileChecked[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    // A translation's source is the document row's, not one of the page's fields.
    const translation = pageTranslationOf(file);
    problems.push(...translation.problems);
    // The page and each block against its own type's schema, as the public renderer checks it;
    // then the shape the core stores.
    const checked = validatePageDocument(translation.value);
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
    problems.push(...pagePathProblems(file.path, parsed.data.path, translation.translationOf));
    pages.push({
      file: file.path,
      page: parsed.data,
      ...(translation.translationOf === undefined ? {} : { translationOf: translation.translationOf }),
    });
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
    const written = await writePages(trx, pages, options);
    if (written.problems.length && !options.dryRun) throw new PagesRefused(written.problems);
    return written;
  };
  try {
    return options.dryRun ? await run(db) : await db.transaction().execute(run);
  } catch (error) {
    if (error instanceof PagesRefused) return { problems: error.problems, changes: [] };
    throw error;
  }
}

/** Ends `importPages`' transaction, keeping nothing, when a translation's source is missing. */
class PagesRefused extends Error {
  constructor(readonly problems: PageFileProblem[]) {
    super("pages refused");
  }
}

/**
 * The writes of `importPages` inside the caller's transaction (the content import's), pages already
 * checked: the source language's pages first, then the translations, each pointed at its source
 * (found by path among the pages stored now). A translation the import creates or changes is
 * brought up to date with its source's current revision; one left unchanged keeps the revision it
 * was made from, so a change to the source shows it outdated. A translation whose source is not
 * stored is a problem (the caller writes nothing then).
 */
export async function writePages(
  trx: Db,
  pages: readonly PageFileChecked[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<{ changes: PageChange[]; problems: PageFileProblem[] }> {
  if (options.onlyIntoEmpty) {
    const any = await trx.selectFrom("content_documents").select("id").where("type", "=", "page").executeTakeFirst();
    if (any) return { changes: [], problems: [] };
  }
  const write = { dryRun: options.dryRun };
  const sources = pages.filter((entry) => entry.translationOf === undefined);
  const changes = await writeDocumentFiles(
    trx,
    "page",
    sources.map(({ file, page }) => ({ file, path: page.path, snapshot: page, locale: documentLocaleOf(page.path) })),
    write,
  );
  const problems: PageFileProblem[] = [];
  const translations = [];
  for (const { file, page, translationOf } of pages) {
    if (translationOf === undefined) continue;
    const source = await trx
      .selectFrom("content_documents")
      .select(["id", "revision"])
      .where("type", "=", "page")
      .where("path", "=", translationOf)
      .where("locale", "=", SOURCE_LOCALE)
      .executeTakeFirst();
    // A dry run writes nothing: a source it would create counts as found.
    const planned = options.dryRun && sources.some((entry) => entry.page.path === translationOf);
    if (!source && !planned) {
      problems.push({
        path: file,
        field: "translation_of",
        message: `names ${translationOf}, where there is no ${SOURCE_LOCALE} page`,
      });
      continue;
    }
    translations.push({
      file,
      path: page.path,
      snapshot: page,
      locale: documentLocaleOf(page.path),
      translation: { of: source?.id ?? "", revision: Number(source?.revision ?? 0) },
    });
  }
  changes.push(...(await writeDocumentFiles(trx, "page", translations, write)));
  return { changes, problems };
}

/**
 * The page files of `dir` (`<name>.yaml`), parsed but not checked; a missing folder has none. With
 * `translations`, each language's folder too (`de/<name>.yaml`), after the source language's pages.
 */
export function readPageFiles(
  dir: string,
  relativeTo = dir,
  options: { translations?: boolean } = {},
): { files: PageFile[]; problems: PageFileProblem[] } {
  const isYaml = (name: string) => name.endsWith(".yaml") || name.endsWith(".yml");
  const listed = options.translations
    ? filesByLanguage(dir, isYaml, (file) => path.relative(relativeTo, file))
    : { files: yamlFilesIn(dir).map((name) => path.join(dir, name)), problems: [] };
  const files: PageFile[] = [];
  const problems: PageFileProblem[] = [...listed.problems];
  for (const full of listed.files) {
    const file = path.relative(relativeTo, full);
    try {
      files.push({ path: file, value: parseYaml(readFileSync(full, "utf8")) });
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

/**
 * The translations among the pages visitors see now whose source they see too: each one's path
 * with its source's, for the export's `translation_of`. A translation of a page the export leaves
 * out (never published, or taken off the site) is written without it, so the files still import.
 */
export async function listPageSourcesForExport(db: Db, now: Date = new Date()): Promise<Map<string, string>> {
  const live = await listLiveDocuments<PageSnapshot>(db, "page", now);
  const rows = await db.selectFrom("content_documents").select(["id", "translation_of"]).where("type", "=", "page").execute();
  const livePaths = new Map(live.map((page) => [page.id, page.data.path]));
  const sources = new Map<string, string>();
  for (const row of rows) {
    const path = livePaths.get(row.id);
    const source = row.translation_of ? livePaths.get(row.translation_of) : undefined;
    if (path !== undefined && source !== undefined) sources.set(path, source);
  }
  return sources;
}

export const pageType = contentTypes.page;
