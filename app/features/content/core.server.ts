import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { changedSurrogateKeys, contentTypeOf, type ContentTypeId } from "~/features/content/content-types";
import {
  findDocumentForUpdate,
  findPathHolder,
  insertDocument,
  liveVersionOf,
  settleDueVersion,
  updateDraft,
  writePublished,
  writeScheduled,
  writeUnpublished,
  type ContentDocument,
} from "~/features/content/documents.server";
import { announceContentChange, type ContentChange } from "~/features/content/publish-hook.server";
import {
  findRevision,
  insertRevision,
  isUniqueViolation,
  latestRevisionNumber,
  type RevisionAuthor,
} from "~/features/content/revisions.server";
import { isAuditAction, type AuditAction } from "~/features/audit/admin/audit-actions";
import { recordAudit, type Actor } from "~/features/audit/audit.server";
import type { PublishProblem } from "~/features/content/publish-checks.server";
import { diffFields, type TextDiff } from "~/ui/admin/line-diff";
import { lockContentWrites } from "~/db/content-lock.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { languageName, localePrefix, SOURCE_LOCALE } from "~/features/content/document-locale";
import { routePathIn } from "~/features/i18n/route-paths.server";
import { isUuid } from "~/db/normalize";
import type { Database } from "~/db/schema";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";

// The content core: one conflict rule, one revision history with its diff and restore, one
// publish / schedule / unpublish, one audit vocabulary and one publish hook, for every type of the
// registry. Types with a table of their own (posts, legal documents) use its revision and conflict
// pieces around their own writes; types stored as documents (pages, open positions) use all of it.

type Db = Kysely<Database>;

/** Who acts, and from where (the audit entry's actor and address). */
export type Editor = { actor: NonNullable<Actor>; ip: string };

// Audit vocabulary -----------------------------------------------------------------------------

/**
 * The audit action of `verb` done to a document of `type`: always `<type>.<verb>` (post.published,
 * legal.draft-saved, page.scheduled), so the log's filter finds a type's entries by its prefix.
 */
export function contentAuditAction(type: ContentTypeId, verb: string): AuditAction {
  const action = `${type}.${verb}`;
  if (!isAuditAction(action)) throw new Error(`the audit log does not know "${action}"`);
  return action;
}

// Revisions, diff and the conflict rule --------------------------------------------------------

export type FieldChange = { field: string; label: string; diff: TextDiff };

/** What changed between two revisions of a type, field by field, as text a reader can follow. */
export function diffSnapshots(type: ContentTypeId, before: unknown, after: unknown): FieldChange[] {
  const definition = contentTypeOf(type);
  return diffFields(definition.asText(before), definition.asText(after), definition.fieldLabels);
}

export type Conflict = { number: number; authorEmail: string; createdAt: string; changes: FieldChange[] };

/** Thrown inside a save's transaction when the document was saved since its form was made. */
export class StaleRevision extends Error {
  constructor() {
    super("saved by someone else since");
  }
}

/** Whether a save failed because another save got there first (stale base, or the same number taken at once). */
export function isConflict(error: unknown): boolean {
  return error instanceof StaleRevision || isUniqueViolation(error);
}

/** The number the next revision takes; refuses (StaleRevision) a save based on anything but the newest. */
export async function nextRevisionNumber(trx: Db, type: ContentTypeId, id: string, baseRevision: number): Promise<number> {
  const latest = await latestRevisionNumber(trx, type, id);
  if (latest !== baseRevision) throw new StaleRevision();
  return latest + 1;
}

/** Keeps a revision; the primary key refuses a second save that took the same number at the same moment. */
export function keepRevision(
  trx: Db,
  revision: { type: ContentTypeId; id: string; number: number; snapshot: unknown; summary: string; author: RevisionAuthor | null },
): Promise<void> {
  return insertRevision(trx, { ...revision, documentId: revision.id });
}

/** What was saved after `baseRevision`, by whom, for the editor whose save was refused. */
export async function conflictSince(db: Db, type: ContentTypeId, id: string, baseRevision: number): Promise<Conflict> {
  const latest = await findRevision(db, type, id, await latestRevisionNumber(db, type, id));
  if (!latest) throw new Error("a conflicting save left no revision");
  // A document's first revision is how it stood before anyone edited it here: the base of a save at 0.
  const base = await findRevision(db, type, id, Math.max(1, baseRevision));
  return {
    number: latest.number,
    authorEmail: latest.authorEmail || "the content import",
    createdAt: latest.createdAt,
    changes: base ? diffSnapshots(type, base.snapshot, latest.snapshot) : [],
  };
}

// Documents of the core's own table ------------------------------------------------------------

export type FieldErrors = Record<string, string>;

export type SaveOutcome =
  | { ok: true; id: string; revision: number }
  | { ok: false; errors: FieldErrors }
  | { ok: false; conflict: Conflict };

export type PublishOutcome =
  | { ok: true; id: string; path: string; at: string; scheduled: boolean }
  | { ok: false; errors: FieldErrors }
  | { ok: false; conflict: Conflict }
  | { ok: false; missing: true }
  /** The draft fails the checks it must pass before it goes live (./publish-checks.server): what to fix, and where. */
  | { ok: false; checks: PublishProblem[] };

/** A refused field's message per field (the first problem of each), labelled as the editor shows it. */
export function fieldErrorsOf(type: ContentTypeId, error: z.ZodError): FieldErrors {
  const labels = contentTypeOf(type).fieldLabels;
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "document");
    const where = issue.path.length > 1 ? ` (${issue.path.slice(1).join(" › ")})` : "";
    errors[field] ??= `${labels[field] ?? field}${where} ${issue.message}.`;
  }
  return errors;
}

type Validated = { ok: true; snapshot: unknown; path: string } | { ok: false; errors: FieldErrors };

/**
 * `path` (an address the type's fields give in English) in the language `locale`: a type whose
 * addresses are under one of the site's translated routes (a position under the careers page)
 * moves under that route's address in the language (/de/unternehmen/karriere/<slug>). A page's
 * address is whole already, prefix included.
 */
export function addressIn(type: ContentTypeId, path: string, locale: string): string {
  const route = contentTypeOf(type).localizedRoute;
  if (!route || locale === SOURCE_LOCALE) return path;
  const base = routePathIn(route, SOURCE_LOCALE);
  return path === base || path.startsWith(`${base}/`) ? `${routePathIn(route, locale)}${path.slice(base.length)}` : path;
}

/**
 * The fields through the type's schema, and the public address they give the document (its path
 * column) in its language.
 */
function validate(type: ContentTypeId, fields: unknown, id: string, locale: string = SOURCE_LOCALE): Validated {
  const definition = contentTypeOf(type);
  if (definition.storage !== "documents") throw new Error(`${type} is not stored as a document of the core`);
  const parsed = definition.schema.safeParse(fields);
  if (!parsed.success) return { ok: false, errors: fieldErrorsOf(type, parsed.error) };
  const path = definition.publicPath(parsed.data, id);
  if (path === null) throw new Error(`a ${definition.noun} stored as a document needs an address of its own`);
  return { ok: true, snapshot: parsed.data, path: addressIn(type, path, locale) };
}

/**
 * The language a save's address is made in, for a type whose address does not carry it (a
 * position's slug): a new translation's, else the document's own, which never changes; English
 * for a new document. A page's language is its address's, so it needs none.
 */
async function addressLocale(db: Db, type: ContentTypeId, id: string | undefined, made: { locale: string } | undefined): Promise<string> {
  if (!contentTypeOf(type).localizedRoute) return SOURCE_LOCALE;
  if (made) return made.locale;
  if (!id || !isUuid(id)) return SOURCE_LOCALE;
  const row = await db.selectFrom("content_documents").select("locale").where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row?.locale ?? SOURCE_LOCALE;
}

async function pathTaken(db: Db, type: ContentTypeId, path: string, id: string | undefined): Promise<FieldErrors | undefined> {
  const holder = await findPathHolder(db, path, id);
  if (!holder) return undefined;
  const noun = contentTypeOf(holder.type).noun;
  const { addressField = "path", fieldLabels } = contentTypeOf(type);
  return { [addressField]: `${fieldLabels[addressField] ?? "Path"} ${path} is already used by another ${noun}.` };
}

/**
 * A translation's address must stay under its language's prefix: a German page that left /de
 * would become an English page that says it translates one. The refusal, beside the address field.
 */
export function translationAddressProblem(type: ContentTypeId, path: string, translationLocale: string | undefined): FieldErrors | undefined {
  if (!translationLocale || documentLocaleOf(path) === translationLocale) return undefined;
  const { addressField = "path", fieldLabels } = contentTypeOf(type);
  const prefix = localePrefix(translationLocale);
  return {
    [addressField]: `${fieldLabels[addressField] ?? "Path"} must begin with ${prefix}/: this is the ${languageName(translationLocale)} translation of an English ${contentTypeOf(type).noun}.`,
  };
}

/** A source with translations stays in its language: moved under another prefix, its translations would name a translation. */
async function sourceLeavesItsLanguage(trx: Db, type: ContentTypeId, id: string, locale: string): Promise<FieldErrors | undefined> {
  const translated = await trx.selectFrom("content_documents").select("id").where("translation_of", "=", id).executeTakeFirst();
  if (!translated) return undefined;
  const { addressField = "path", fieldLabels, noun } = contentTypeOf(type);
  const where = localePrefix(locale) ? `begin with ${localePrefix(locale)}/` : "stay outside the other languages' prefixes";
  return { [addressField]: `${fieldLabels[addressField] ?? "Path"} must ${where}: this ${noun} has translations.` };
}

/** What a save of a translation records besides its fields (./translations.server.ts makes and updates them). */
export type TranslationWrite =
  /** Made now from source `of`, in `locale`, up to date with the source's revision `sourceRevision`. */
  | { locale: string; of: string; sourceRevision: number }
  /** Brought up to date with the source's revision `sourceRevision` by this save. */
  | { sourceRevision: number };

/**
 * Saves `fields` as the draft of document `id` (a new one when undefined), revision
 * `baseRevision + 1`. What visitors see does not change: only publishing does. A save based on an
 * older revision is refused with what changed since and who changed it. The document's language
 * is its address's; a translation's address must stay in its language.
 */
export async function saveDocument(
  db: Db,
  editor: Editor,
  input: {
    type: ContentTypeId;
    id?: string;
    baseRevision: number;
    fields: unknown;
    summary?: string;
    verb?: "restored";
    translation?: TranslationWrite;
  },
): Promise<SaveOutcome> {
  const { type, translation } = input;
  const id = input.id ?? randomUUID();
  const made = translation && "of" in translation ? translation : undefined;
  const checked = validate(type, input.fields, id, await addressLocale(db, type, input.id, made));
  if (!checked.ok) return checked;
  const { snapshot, path } = checked;
  const locale = documentLocaleOf(path);
  try {
    return await db.transaction().execute(async (trx) => {
      await lockContentWrites(trx);
      const taken = await pathTaken(trx, type, path, id);
      if (taken) return { ok: false as const, errors: taken };
      const now = new Date().toISOString();
      await settleDueVersion(trx, id, now);
      const existing = input.id ? await findDocumentForUpdate(trx, id) : undefined;
      if (input.id && (!existing || existing.type !== type)) throw new Error(`${type} ${id} does not exist`);
      const leaves =
        translationAddressProblem(type, path, existing?.translationOf ? existing.locale : made?.locale) ??
        (existing && !existing.translationOf && existing.locale !== locale ? await sourceLeavesItsLanguage(trx, type, id, existing.locale) : undefined);
      if (leaves) return { ok: false as const, errors: leaves };
      if (translation && !made && !existing?.translationOf) throw new Error(`${type} ${id} is not a translation`);
      const number = await nextRevisionNumber(trx, type, id, input.baseRevision);
      const write = {
        draft: snapshot,
        path,
        locale,
        revision: number,
        byEmail: editor.actor.email,
        at: now,
        ...(translation ? { translation } : {}),
      };
      if (!existing) await insertDocument(trx, id, type, write);
      else if (!(await updateDraft(trx, id, input.baseRevision, write))) throw new StaleRevision();
      const summary = input.summary ?? (existing ? "Saved" : made ? `Translation into ${languageName(made.locale)} created` : "Created");
      await keepRevision(trx, { type, id, number, snapshot, summary, author: editor.actor });
      const target = { type: contentTypeOf(type).auditTarget, id };
      await recordAudit(trx, {
        actor: editor.actor,
        action: contentAuditAction(type, existing ? (input.verb ?? "saved") : made ? "translation-created" : "created"),
        target,
        details: {
          revision: number,
          path,
          ...(existing && existing.path !== path ? { previousPath: existing.path } : {}),
          ...(made ? { locale: made.locale, translationOf: made.of, sourceRevision: made.sourceRevision } : {}),
        },
        ip: editor.ip,
      });
      if (existing && translation && translation.sourceRevision !== existing.sourceRevision) {
        await recordAudit(trx, {
          actor: editor.actor,
          action: contentAuditAction(type, "translation-updated"),
          target,
          details: { revision: number, locale: existing.locale, translationOf: existing.translationOf, sourceRevision: translation.sourceRevision, previousSourceRevision: existing.sourceRevision },
          ip: editor.ip,
        });
      }
      return { ok: true as const, id, revision: number };
    });
  } catch (error) {
    if (!isConflict(error) || !input.id) throw error;
    return { ok: false, conflict: await conflictSince(db, type, id, input.baseRevision) };
  }
}

/**
 * Publishes the draft of document `id` exactly as saved at `baseRevision` (what its editor
 * reviewed): now, or from `at` on when that is later (scheduled: until then visitors keep seeing
 * the version they see now). Goes through the publish hook once committed.
 */
export async function publishDocument(
  db: Db,
  editor: Editor,
  input: { type: ContentTypeId; id: string; baseRevision: number; at?: string },
): Promise<PublishOutcome> {
  const { type, id } = input;
  const now = new Date();
  const at = input.at && Date.parse(input.at) > now.getTime() ? new Date(input.at).toISOString() : undefined;
  let change: ContentChange | undefined;
  try {
    const outcome = await db.transaction().execute(async (trx): Promise<PublishOutcome> => {
      await lockContentWrites(trx);
      await settleDueVersion(trx, id, now.toISOString());
      const doc = await findDocumentForUpdate(trx, id);
      if (!doc || doc.type !== type) return { ok: false, missing: true };
      if (doc.revision !== input.baseRevision) throw new StaleRevision();
      const checked = validate(type, doc.draft, id, doc.locale);
      if (!checked.ok) return checked;
      const leaves = translationAddressProblem(type, checked.path, doc.translationOf ? doc.locale : undefined);
      if (leaves) return { ok: false, errors: leaves };
      const taken = await pathTaken(trx, type, checked.path, id);
      if (taken) return { ok: false, errors: taken };
      const before = liveVersionOf(doc, now.getTime());
      if (at) await writeScheduled(trx, id, checked.snapshot, doc.path, at);
      else await writePublished(trx, id, checked.snapshot, doc.path, now.toISOString());
      await recordAudit(trx, {
        actor: editor.actor,
        action: contentAuditAction(type, at ? "scheduled" : "published"),
        target: { type: contentTypeOf(type).auditTarget, id },
        details: { revision: doc.revision, path: doc.path, ...(at ? { at } : {}), ...(before && before.path !== doc.path ? { previousPath: before.path } : {}) },
        ip: editor.ip,
      });
      change = { type, id, paths: changedPaths(type, before?.path, doc.path, doc.locale), ...(at ? { at } : {}) };
      await enqueueCdnPurge(trx, changedKeys(type, id, checked.snapshot, doc.translationOf), at ? { at } : {});
      return { ok: true, id, path: doc.path, at: at ?? now.toISOString(), scheduled: Boolean(at) };
    });
    if (change) announceContentChange(change);
    return outcome;
  } catch (error) {
    if (!isConflict(error)) throw error;
    return { ok: false, conflict: await conflictSince(db, type, id, input.baseRevision) };
  }
}

/** Takes document `id` off the site (a scheduled version too); its draft and history stay. */
export async function unpublishDocument(
  db: Db,
  editor: Editor,
  input: { type: ContentTypeId; id: string },
): Promise<{ ok: true } | { ok: false; missing: true }> {
  let change: ContentChange | undefined;
  const outcome = await db.transaction().execute(async (trx) => {
    await lockContentWrites(trx);
    const now = new Date().toISOString();
    await settleDueVersion(trx, input.id, now);
    const doc = await findDocumentForUpdate(trx, input.id);
    if (!doc || doc.type !== input.type) return { ok: false as const, missing: true as const };
    const paths = [doc.publishedPath, doc.scheduledPath].filter((path): path is string => Boolean(path));
    await writeUnpublished(trx, doc.id, now);
    await recordAudit(trx, {
      actor: editor.actor,
      action: contentAuditAction(input.type, "unpublished"),
      target: { type: contentTypeOf(input.type).auditTarget, id: doc.id },
      details: { revision: doc.revision, path: doc.publishedPath ?? doc.path },
      ip: editor.ip,
    });
    change = { type: input.type, id: doc.id, paths: paths.flatMap((path) => changedPaths(input.type, path, path, doc.locale)) };
    await enqueueCdnPurge(trx, changedKeys(input.type, doc.id, doc.draft, doc.translationOf));
    return { ok: true as const };
  });
  if (change) announceContentChange(change);
  return outcome;
}

/**
 * Brings revision `number` back as the draft, a new revision. What visitors see stays as it is:
 * restoring never publishes, unpublishes or reschedules.
 */
export async function restoreDocumentRevision(
  db: Db,
  editor: Editor,
  input: { type: ContentTypeId; id: string; number: number; baseRevision: number },
): Promise<SaveOutcome | undefined> {
  const revision = await findRevision(db, input.type, input.id, input.number);
  if (!revision) return undefined;
  return saveDocument(db, editor, {
    type: input.type,
    id: input.id,
    baseRevision: input.baseRevision,
    fields: revision.snapshot,
    summary: `Restored revision ${input.number}`,
    verb: "restored",
  });
}

/**
 * The public paths a live change of a document touches: its old and new address, and the lists
 * that name it (in its language too: a German position's careers page is /de/unternehmen/karriere).
 */
export function changedPaths(
  type: ContentTypeId,
  before: string | null | undefined,
  after: string | null | undefined,
  locale: string = SOURCE_LOCALE,
): string[] {
  const own = [...new Set([before, after].filter((path): path is string => Boolean(path)))];
  const listing = new Set([...listingPaths[type], ...listingPaths[type].map((path) => addressIn(type, path, locale))]);
  return [...own, ...listing];
}

/**
 * The surrogate keys a live change of a document purges from the CDN: its own and its lists'
 * (the registry's), and its source's when it is a translation (the source's page links to it).
 */
function changedKeys(type: ContentTypeId, id: string, snapshot: unknown, translationOf: string | null | undefined): string[] {
  const keys = changedSurrogateKeys(type, id, snapshot);
  return translationOf ? [...keys, contentTypeOf(type).surrogateKeys.document(translationOf, snapshot)] : keys;
}

/** Pages that list documents of a type, out of date whenever one of them changes. */
const listingPaths: Record<ContentTypeId, string[]> = {
  post: ["/", "/resources", "/resources/blog", "/resources/blog/*", "/rss.xml", "/atom.xml", "/feed.json", "/sitemap.xml"],
  legal: ["/terms/legal", "/terms/privacy-policy/*", "/terms/terms-of-use/*", "/sitemap.xml"],
  page: ["/sitemap.xml"],
  // The careers page (and each closed position's page) lists the open positions.
  position: ["/company/careers/*", "/sitemap.xml"],
};

export type { ContentDocument };
