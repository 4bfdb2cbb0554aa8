import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { contentTypes, positionSnapshotSchema, type PositionSnapshot } from "~/features/content/content-types";
import {
  publishDocument,
  restoreDocumentRevision,
  saveDocument,
  unpublishDocument,
  type Editor,
  type FieldErrors,
  type PublishOutcome,
  type SaveOutcome,
  type TranslationWrite,
  addressIn,
} from "~/features/content/core.server";
import {
  findDocument,
  listDocuments,
  listLiveDocuments,
  liveVersionOf,
  documentStateOf,
} from "~/features/content/documents.server";
import type { ContentDocument, DocumentState } from "~/features/content/documents.server";
import { writeDocumentFiles, type DocumentFileChange } from "~/features/content/document-files.server";
import type { ContentExporter } from "~/features/content/content-exporter.server";
import { parseYaml, stringifyYaml } from "~/features/content/content-yaml.server";
import { isOpenAt, POSITION_SLUG_PATTERN, positionPath } from "~/features/careers/positions";
import { contentLocales, filesByLanguage, folderOf, localeOfFolder } from "~/features/content/translation-files.server";
import { SOURCE_LOCALE } from "~/features/content/document-locale";
import { checkMarkup } from "~/features/blog/markup/check.server";
import type { Database } from "~/db/schema";

// Open positions as the content core stores them (content_documents, type "position"): what the
// back office writes and lists, and the content files of content/positions. Public reads are in
// ./positions.server.

type Db = Kysely<Database>;

const labels = contentTypes.position.fieldLabels;

/**
 * A refused field's message keyed by where an editor fixes it: the field, or the part of the pay
 * range ("pay.min", "pay.currency"); a list's entries are told on the list.
 */
export function positionFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const [field = "position", ...rest] = issue.path.map(String);
    const key = field === "pay" && rest.length ? `pay.${rest[0]}` : field;
    const where = rest.length
      ? ` (${field === "pay" ? (payPartLabels[rest[0]!] ?? rest[0]) : `entry ${Number(rest[0]) + 1}`})`
      : "";
    errors[key] ??= `${labels[field] ?? field}${where} ${issue.message}.`;
  }
  return errors;
}

const payPartLabels: Record<string, string> = { min: "minimum", max: "maximum", currency: "currency", period: "period" };

/**
 * Saves `position` as the draft of position `id` (a new one when undefined); visitors see no
 * change until it is published. A position visitors do not see yet may not close before now (it
 * would never open); one they see may: a closing date passed means it is closed.
 */
export async function savePosition(
  db: Db,
  editor: Editor,
  input: { id?: string; baseRevision: number; position: unknown; translation?: TranslationWrite },
): Promise<SaveOutcome> {
  const parsed = positionSnapshotSchema.safeParse(input.position);
  if (!parsed.success) return { ok: false, errors: positionFieldErrors(parsed.error) };
  const markup = descriptionProblem(parsed.data.description);
  if (markup) return { ok: false, errors: { description: `${labels.description} ${markup}.` } };
  if (parsed.data.closesAt !== null) {
    const now = Date.now();
    const doc = input.id ? await findPositionForEditor(db, input.id) : undefined;
    const refused = doc && liveVersionOf(doc, now) ? undefined : closingRefusal(parsed.data.closesAt, now);
    if (refused) return refused;
  }
  return saveDocument(db, editor, {
    type: "position",
    id: input.id,
    baseRevision: input.baseRevision,
    fields: parsed.data,
    ...(input.translation ? { translation: input.translation } : {}),
  });
}

/** What the post markup renderer would drop or show as text in a description (its first line), if anything. */
function descriptionProblem(description: string): string | undefined {
  const problem = checkMarkup(description)[0];
  return problem && `line ${problem.line}: ${problem.message.replace(/\.$/, "")}`;
}

/** The refusal of a closing date before the position's opening, if it is. */
function closingRefusal(closesAt: string, opening: number): { ok: false; errors: FieldErrors } | undefined {
  if (Date.parse(closesAt) >= opening) return undefined;
  return {
    ok: false,
    errors: { closesAt: `${labels.closesAt} must not be before the position opens (${new Date(opening).toISOString()}).` },
  };
}

/**
 * Publishes the position's saved draft now, or from `at` on when that is in the future. A
 * position that is not public yet and would close before it opens is refused on `closesAt`,
 * nothing written. Closing a position now: publish it with closesAt now.
 */
export async function publishPosition(
  db: Db,
  editor: Editor,
  input: { id: string; baseRevision: number; at?: string },
): Promise<PublishOutcome> {
  const doc = await findPositionForEditor(db, input.id);
  if (doc && doc.revision === input.baseRevision && doc.draft.closesAt !== null) {
    const now = Date.now();
    const opens = input.at && Date.parse(input.at) > now ? Date.parse(input.at) : now;
    const refused = liveVersionOf(doc, now) ? undefined : closingRefusal(doc.draft.closesAt, opens);
    if (refused) return refused;
  }
  return publishDocument(db, editor, { type: "position", ...input });
}

export function unpublishPosition(db: Db, editor: Editor, id: string) {
  return unpublishDocument(db, editor, { type: "position", id });
}

export function restorePositionRevision(db: Db, editor: Editor, input: { id: string; number: number; baseRevision: number }) {
  return restoreDocumentRevision(db, editor, { type: "position", ...input });
}

export async function findPositionForEditor(db: Db, id: string): Promise<ContentDocument<PositionSnapshot> | undefined> {
  const doc = await findDocument<PositionSnapshot>(db, id);
  return doc?.type === "position" ? doc : undefined;
}

export type PositionListItem = {
  id: string;
  path: string;
  /** Its language (its address's), and for a translation, its English source's id. */
  locale: string;
  translationOf: string | null;
  title: string;
  team: string;
  state: DocumentState;
  /** Whether visitors can apply now: null when visitors see no version of it. */
  open: boolean | null;
  closesAt: string | null;
  publishAt: string | null;
  updatedAt: string;
  revision: number;
};

/** Every position for the back office's list: the latest change first. */
export async function listPositionsForEditors(db: Db, now = Date.now()): Promise<PositionListItem[]> {
  const docs = await listDocuments<PositionSnapshot>(db, "position");
  return docs.map((doc) => {
    const live = liveVersionOf(doc, now);
    return {
      id: doc.id,
      path: doc.path,
      locale: doc.locale,
      translationOf: doc.translationOf,
      title: doc.draft.title,
      team: doc.draft.team,
      state: documentStateOf(doc, now),
      open: live ? isOpenAt(live.data, now) : null,
      closesAt: live?.data.closesAt ?? doc.draft.closesAt,
      publishAt: doc.publishAt,
      updatedAt: doc.updatedAt,
      revision: doc.revision,
    };
  });
}

/** How the back office names where a position stands for visitors. */
export function positionStateLabel(item: Pick<PositionListItem, "state" | "open">): string {
  if (item.open !== null) return item.open ? "Open" : "Closed";
  return { draft: "Draft", scheduled: "Scheduled", published: "Open", unpublished: "Taken off the site" }[item.state];
}

// Content files ---------------------------------------------------------------------------------

/**
 * A position read from a content file (content/positions/<slug>.yaml; a translation in its
 * language's folder, content/positions/de/<slug>.yaml), before it is checked.
 */
export type PositionFile = { path: string; value: unknown };
export type PositionFileProblem = { path: string; field: string; message: string };
/** A checked position file: its language (its folder's) and, for a translation, its English source's slug. */
export type PositionFileChecked = { file: string; position: PositionSnapshot; locale: string; translationOf?: string };

/** The position files of `dir` and of each language's folder in it, parsed but not checked; a missing folder has none. */
export function readPositionFiles(dir: string, relativeTo = dir): { files: PositionFile[]; problems: PositionFileProblem[] } {
  const isYaml = (name: string) => name.endsWith(".yaml") || name.endsWith(".yml");
  const listed = filesByLanguage(dir, isYaml, (file) => path.relative(relativeTo, file));
  const files: PositionFile[] = [];
  const problems: PositionFileProblem[] = [...listed.problems];
  for (const full of listed.files) {
    const file = path.relative(relativeTo, full);
    try {
      files.push({ path: file, value: parseYaml(readFileSync(full, "utf8")) });
    } catch (error) {
      problems.push({ path: file, field: "position", message: `is not valid YAML (${(error as Error).message.split("\n")[0]})` });
    }
  }
  return { files, problems };
}

/**
 * A position file's `translation_of` taken out of its fields (the document row keeps it): the
 * position's fields without it, the source's slug, and what is wrong with it.
 */
function positionTranslationOf(file: PositionFile, locale: string) {
  if (!file.value || typeof file.value !== "object" || !("translation_of" in file.value))
    return { value: file.value, problems: [] as PositionFileProblem[] };
  const { translation_of: source, ...value } = file.value as Record<string, unknown>;
  const problem = (message: string) => ({ value, problems: [{ path: file.path, field: "translation_of", message }] });
  if (locale === SOURCE_LOCALE)
    return problem(
      `is for translations, which are in their language's folder (such as positions/de/): this file is ${SOURCE_LOCALE}`,
    );
  if (typeof source !== "string" || !POSITION_SLUG_PATTERN.test(source))
    return problem(`must be the slug of the ${SOURCE_LOCALE} position this one translates, such as security-researcher`);
  return { value, translationOf: source, problems: [] as PositionFileProblem[] };
}

/** The files' positions through the position type's schema: every problem, or the positions. */
export function checkPositionFiles(files: readonly PositionFile[]): {
  problems: PositionFileProblem[];
  positions: PositionFileChecked[];
} {
  const problems: PositionFileProblem[] = [];
  const positions: PositionFileChecked[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const locale = localeOfFolder(file.path) ?? SOURCE_LOCALE;
    const translation = positionTranslationOf(file, locale);
    problems.push(...translation.problems);
    const parsed = positionSnapshotSchema.safeParse(translation.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: file.path, field: issue.path.join(".") || "position", message: issue.message });
      continue;
    }
    const markup = descriptionProblem(parsed.data.description);
    if (markup) problems.push({ path: file.path, field: "description", message: markup });
    // A slug is one position's in its language: the German one may keep the English slug.
    const key = `${locale} ${parsed.data.slug}`;
    const other = seen.get(key);
    if (other) problems.push({ path: file.path, field: "slug", message: `is also the slug of ${other}` });
    seen.set(key, file.path);
    positions.push({
      file: file.path,
      position: parsed.data,
      locale,
      ...(translation.translationOf === undefined ? {} : { translationOf: translation.translationOf }),
    });
  }
  return { problems, positions };
}

/** A position's address in its language: /company/careers/<slug>, /de/unternehmen/karriere/<slug>. */
export const positionPathIn = (slug: string, locale: string) => addressIn("position", positionPath(slug), locale);

/**
 * The import's writes of checked positions, inside its transaction, published as their files say:
 * the English ones first, then the translations, each pointed at its source (found by its English
 * slug among the positions stored now). A translation the import creates or changes is brought up
 * to date with its source's current revision; one left unchanged keeps the revision it was made
 * from. A translation whose source is not stored is a problem (the caller writes nothing then).
 */
export async function writePositions(
  trx: Db,
  positions: readonly PositionFileChecked[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<{ changes: DocumentFileChange[]; problems: PositionFileProblem[] }> {
  if (options.onlyIntoEmpty) {
    const any = await trx.selectFrom("content_documents").select("id").where("type", "=", "position").executeTakeFirst();
    if (any) return { changes: [], problems: [] };
  }
  const write = { dryRun: options.dryRun };
  const sources = positions.filter((entry) => entry.translationOf === undefined);
  const changes = await writeDocumentFiles(
    trx,
    "position",
    sources.map(({ file, position, locale }) => ({
      file,
      path: positionPathIn(position.slug, locale),
      snapshot: position,
      locale,
    })),
    write,
  );
  const problems: PositionFileProblem[] = [];
  const translations = [];
  for (const { file, position, locale, translationOf } of positions) {
    if (translationOf === undefined) continue;
    const source = await trx
      .selectFrom("content_documents")
      .select(["id", "revision"])
      .where("type", "=", "position")
      .where("path", "=", positionPath(translationOf))
      .where("locale", "=", SOURCE_LOCALE)
      .executeTakeFirst();
    // A dry run writes nothing: a source it would create counts as found.
    const planned =
      options.dryRun && sources.some((entry) => entry.locale === SOURCE_LOCALE && entry.position.slug === translationOf);
    if (!source && !planned) {
      problems.push({
        path: file,
        field: "translation_of",
        message: `names "${translationOf}", which is the slug of no ${SOURCE_LOCALE} position`,
      });
      continue;
    }
    translations.push({
      file,
      path: positionPathIn(position.slug, locale),
      snapshot: position,
      locale,
      translation: { of: source?.id ?? "", revision: Number(source?.revision ?? 0) },
    });
  }
  changes.push(...(await writeDocumentFiles(trx, "position", translations, write)));
  return { changes, problems };
}

/** A position visitors see now, for the export: its fields, its language, and the English source's slug it translates, if exported too. */
export type ExportedPosition = { position: PositionSnapshot; locale: string; translationOf?: string };

/**
 * What visitors see of every position now (open or closed), English first, each language by slug:
 * the export (the import publishes what it reads). A translation whose source is not exported
 * (never published, or taken off the site) is written without its source, so the files still import.
 */
export async function listPublishedPositionsForExport(db: Db, now: Date = new Date()): Promise<ExportedPosition[]> {
  const [live, rows] = await Promise.all([
    listLiveDocuments<PositionSnapshot>(db, "position", now),
    db.selectFrom("content_documents").select(["id", "locale", "translation_of"]).where("type", "=", "position").execute(),
  ]);
  const liveSlugs = new Map(live.map((position) => [position.id, position.data.slug]));
  const rowOf = new Map(rows.map((row) => [row.id, row]));
  return live
    .map((entry) => {
      const row = rowOf.get(entry.id);
      const source = row?.translation_of ? liveSlugs.get(row.translation_of) : undefined;
      return {
        position: entry.data,
        locale: row?.locale ?? SOURCE_LOCALE,
        ...(source === undefined ? {} : { translationOf: source }),
      };
    })
    .sort(
      (a, b) =>
        Number(a.locale !== SOURCE_LOCALE) - Number(b.locale !== SOURCE_LOCALE) ||
        a.locale.localeCompare(b.locale) ||
        a.position.slug.localeCompare(b.position.slug),
    );
}

/** The folder of a language's position files under positions/ ("" for English, "de/" for German). */
function languageFolder(tag: string): string {
  const locale = contentLocales().find((entry) => entry.tag === tag);
  return locale?.prefix ? `${folderOf(locale)}/` : "";
}

/**
 * Positions as visitors see them, open or closed (DIR/positions/<slug>.yaml, a translation as
 * DIR/positions/<language>/<slug>.yaml naming its source's slug): the import publishes what it
 * reads, so a position never published stays out and is counted in the summary.
 */
export const positionsExporter: ContentExporter = {
  folder: "positions",
  extensions: [".yaml", ".yml"],
  async export(db) {
    const [live, all] = await Promise.all([listPublishedPositionsForExport(db), listPositionsForEditors(db)]);
    const files = live.map(({ position, locale, translationOf }) => {
      // Fields in the schema's order, whatever order the engine keeps them in (jsonb sorts keys);
      // a translation's source right after its slug.
      const { slug, ...ordered } = positionSnapshotSchema.parse(position);
      const fields = { slug, ...(translationOf === undefined ? {} : { translation_of: translationOf }), ...ordered };
      return { path: `positions/${languageFolder(locale)}${slug}.yaml`, text: stringifyYaml(fields) };
    });
    // The reader is the import's own: what it makes of each file must be the position as stored.
    const problems = files.flatMap((file, index) => {
      const checked = checkPositionFiles([{ path: file.path, value: parseYaml(file.text) }]);
      if (checked.problems.length) return checked.problems;
      const read = checked.positions[0]!;
      const stored = live[index]!;
      return isDeepStrictEqual(read.position, stored.position) &&
        read.locale === stored.locale &&
        read.translationOf === stored.translationOf
        ? []
        : [{ path: file.path, field: "position", message: "would not import back as stored" }];
    });
    const drafts = all.length - live.length;
    return {
      files,
      problems,
      summary: all.length
        ? `${live.length} position${live.length === 1 ? "" : "s"}${drafts ? ` (${drafts} never published or taken off the site, not exported)` : ""}`
        : "",
      check: () => [],
    };
  },
};
