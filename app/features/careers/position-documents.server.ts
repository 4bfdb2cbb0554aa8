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
import { parseYaml, stringifyYaml, yamlFilesIn } from "~/features/content/content-yaml.server";
import { isOpenAt, positionPath } from "~/features/careers/positions";
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
  input: { id?: string; baseRevision: number; position: unknown },
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
  return saveDocument(db, editor, { type: "position", id: input.id, baseRevision: input.baseRevision, fields: parsed.data });
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

/** A position read from a content file (content/positions/<slug>.yaml), before it is checked. */
export type PositionFile = { path: string; value: unknown };
export type PositionFileProblem = { path: string; field: string; message: string };

/** The position files of `dir`, parsed but not checked; a missing folder has none. */
export function readPositionFiles(dir: string, relativeTo = dir): { files: PositionFile[]; problems: PositionFileProblem[] } {
  const files: PositionFile[] = [];
  const problems: PositionFileProblem[] = [];
  for (const name of yamlFilesIn(dir)) {
    const file = path.relative(relativeTo, path.join(dir, name));
    try {
      files.push({ path: file, value: parseYaml(readFileSync(path.join(dir, name), "utf8")) });
    } catch (error) {
      problems.push({ path: file, field: "position", message: `is not valid YAML (${(error as Error).message.split("\n")[0]})` });
    }
  }
  return { files, problems };
}

/** The files' positions through the position type's schema: every problem, or the positions. */
export function checkPositionFiles(files: readonly PositionFile[]): {
  problems: PositionFileProblem[];
  positions: { file: string; position: PositionSnapshot }[];
} {
  const problems: PositionFileProblem[] = [];
  const positions: { file: string; position: PositionSnapshot }[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const parsed = positionSnapshotSchema.safeParse(file.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: file.path, field: issue.path.join(".") || "position", message: issue.message });
      continue;
    }
    const markup = descriptionProblem(parsed.data.description);
    if (markup) problems.push({ path: file.path, field: "description", message: markup });
    const other = seen.get(parsed.data.slug);
    if (other) problems.push({ path: file.path, field: "slug", message: `is also the slug of ${other}` });
    seen.set(parsed.data.slug, file.path);
    positions.push({ file: file.path, position: parsed.data });
  }
  return { problems, positions };
}

/** The import's writes of checked positions, inside its transaction: published as their files say. */
export function writePositions(
  trx: Db,
  positions: readonly { file: string; position: PositionSnapshot }[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<DocumentFileChange[]> {
  const documents = positions.map(({ file, position }) => ({ file, path: positionPath(position.slug), snapshot: position }));
  return writeDocumentFiles(trx, "position", documents, options);
}

/** What visitors see of every position now (open or closed), by slug: the export (the import publishes what it reads). */
export async function listPublishedPositionsForExport(db: Db, now: Date = new Date()): Promise<PositionSnapshot[]> {
  const positions = await listLiveDocuments<PositionSnapshot>(db, "position", now);
  return positions.map((position) => position.data).sort((a, b) => a.slug.localeCompare(b.slug));
}

/**
 * Positions as visitors see them, open or closed (DIR/positions/<slug>.yaml): the import publishes
 * what it reads, so a position never published stays out and is counted in the summary.
 */
export const positionsExporter: ContentExporter = {
  folder: "positions",
  extensions: [".yaml", ".yml"],
  async export(db) {
    const [live, all] = await Promise.all([listPublishedPositionsForExport(db), listPositionsForEditors(db)]);
    // Fields in the schema's order, whatever order the engine keeps them in (jsonb sorts keys).
    const files = live.map((position) => ({
      path: `positions/${position.slug}.yaml`,
      text: stringifyYaml(positionSnapshotSchema.parse(position)),
    }));
    // The reader is the import's own: what it makes of each file must be the position as stored.
    const problems = files.flatMap((file, index) => {
      const checked = checkPositionFiles([{ path: file.path, value: parseYaml(file.text) }]);
      if (checked.problems.length) return checked.problems;
      return isDeepStrictEqual(checked.positions[0]!.position, live[index])
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
