import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { changedPaths, keepRevision } from "~/features/content/core.server";
import { announceContentChange } from "~/features/content/publish-hook.server";
import type { Actor } from "~/features/audit/audit.server";
import { recordAudit } from "~/features/audit/audit.server";
import { lockContentWrites } from "~/db/content-lock.server";
import {
  deleteLegalDraft,
  findLegalVersionRecord,
  findLegalVersionRecordForUpdate,
  findVersionHolders,
  insertLegalDraft,
  listLegalTranslationRecords,
  listLegalVersionRecords,
  markLegalVersionPublished,
  updateLegalDraft,
  type LegalVersionRecord,
} from "~/features/legal/db/legal-editing.server";
import {
  findLegalDocument,
  isValidLegalContent,
  LEGAL_SOURCE_LOCALE,
  type LegalDocumentType,
} from "~/features/legal/db/legal.server";
import { legalPagesOfEveryLanguage, legalPathIn, localeName, translationLocales } from "~/features/legal/paths.server";
import type { Database } from "~/db/schema";
import { formatLongDate } from "~/platform/dates";
import { checkDraft, type CheckedDraft } from "~/features/legal/draft-check.server";
import {
  effectiveDay,
  effectiveTimestamp,
  suggestVersion,
  type DraftErrors,
  type DraftFields,
  salvageSections,
} from "~/features/legal/drafts";
import { INVALID_CONTENT_REASON, legalDocuments } from "~/features/legal/documents";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { changedSurrogateKeys } from "~/features/content/content-types";

// Writing legal documents from the back office: a draft is created, saved, published or discarded.
// Each write runs in one transaction that first takes the content lock (so two servers sharing
// PostgreSQL, or the import command, never interleave with it), re-reads the row it changes, checks
// everything again, writes, and adds its audit entry: the change and its entry are stored together
// or not at all.

type Db = Kysely<Database>;

/** Who acts, and from where (the audit entry's actor and address). */
export type Editor = { actor: NonNullable<Actor>; ip: string };

export type EditRefusal = { ok: false; status: 400 | 404 | 409; problem: string; errors?: DraftErrors };
export type EditOutcome<T> = { ok: true; value: T } | EditRefusal;

/** Thrown inside a transaction to roll it back and answer with the refusal. */
class Refused extends Error {
  constructor(readonly refusal: EditRefusal) {
    super(refusal.problem);
  }
}

function refuse(status: EditRefusal["status"], problem: string, errors?: DraftErrors): never {
  throw new Refused({ ok: false, status, problem, errors });
}

async function inLockedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<EditOutcome<T>> {
  try {
    const value = await db.transaction().execute(async (trx) => {
      await lockContentWrites(trx);
      return work(trx);
    });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

const target = (id: string) => ({ type: "legal_document", id });
const documentName = (type: LegalDocumentType) => legalDocuments[type].name;

/** A stored version as the editor's fields. */
export function draftFieldsOf(record: LegalVersionRecord): DraftFields {
  return {
    title: record.title,
    version: record.version,
    effectiveDate: effectiveDay(record.effectiveDate),
    changeSummary: record.changeSummary,
    sections: salvageSections(record.content),
  };
}

/** Refuses a write on a row that is gone, published or saved by someone else since the form was made. */
function requireOpenDraft(record: LegalVersionRecord | undefined, revision: number): LegalVersionRecord {
  if (!record) return refuse(404, "This draft no longer exists: it was discarded.");
  if (record.published) {
    return refuse(
      409,
      `Version ${record.version} has been published since this page was opened; a published version is never changed. Start a new draft from it instead.`,
    );
  }
  if (record.revision !== revision) {
    return refuse(
      409,
      "Someone saved this draft since this page was opened. Nothing was changed: reload the page to see their version.",
    );
  }
  return record;
}

/** The version number is free when no other row of the type in the language carries it, published or not. */
async function checkVersionFree(
  trx: Db,
  type: LegalDocumentType,
  version: string,
  id: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<string | undefined> {
  const holders = await findVersionHolders(trx, type, version, id, locale);
  const holder = holders[0];
  if (!holder) return undefined;
  if (locale !== LEGAL_SOURCE_LOCALE) {
    return holder.published
      ? `The ${localeName(locale)} translation of version ${version} of the ${documentName(type)} is already published.`
      : `Another ${localeName(locale)} draft of version ${version} of the ${documentName(type)} exists.`;
  }
  return holder.published
    ? `Version ${version} of the ${documentName(type)} is already published (effective ${formatLongDate(holder.effectiveDate)}); a draft needs a number of its own.`
    : `Another draft of the ${documentName(type)} already has version ${version}.`;
}

const storedValues = (draft: CheckedDraft) => ({
  title: draft.title,
  content: { sections: draft.sections },
  version: draft.version,
  effectiveDate: effectiveTimestamp(draft.effectiveDate),
  changeSummary: draft.changeSummary,
});

type StoredValues = ReturnType<typeof storedValues>;

/**
 * A draft's revision in the content core, numbered after its save counter (the form's revision):
 * counter 0 is revision 1, each save adds one.
 */
function keepLegalRevision(
  trx: Db,
  editor: Editor,
  draft: { id: string; type: LegalDocumentType; counter: number; values: StoredValues; summary: string },
) {
  return keepRevision(trx, {
    type: "legal",
    id: draft.id,
    number: draft.counter + 1,
    snapshot: {
      document_type: draft.type,
      title: draft.values.title,
      version: draft.values.version,
      effective_date: draft.values.effectiveDate,
      change_summary: draft.values.changeSummary,
      sections: draft.values.content.sections,
    },
    summary: draft.summary,
    author: editor.actor,
  });
}

/**
 * A new draft of a type, starting from `fromId` (any version of that type) or else from the version
 * in force: its title and sections, the next free version number, today as the effective date.
 */
export async function createLegalDraft(
  db: Db,
  editor: Editor,
  request: { type: LegalDocumentType; fromId?: string },
  now = new Date(),
): Promise<EditOutcome<{ id: string; version: string }>> {
  return inLockedTransaction(db, async (trx) => {
    const versions = await listLegalVersionRecords(trx, request.type);
    const current = versions.find((version) => version.published);
    const sourceId = request.fromId ?? current?.id;
    const source = sourceId ? await findLegalVersionRecord(trx, sourceId) : undefined;
    if (request.fromId && (!source || source.documentType !== request.type || source.locale !== LEGAL_SOURCE_LOCALE)) {
      return refuse(404, "That version does not exist (any more).");
    }
    const version = suggestVersion(current?.version ?? versions[0]?.version, new Set(versions.map((entry) => entry.version)));
    const sections = source ? salvageSections(source.content) : [];
    const id = randomUUID();
    const stamp = now.toISOString();
    const values: StoredValues = {
      title: source?.title ?? documentName(request.type),
      content: { sections: sections.length ? sections : [{ title: "", content: "" }] },
      version,
      effectiveDate: effectiveTimestamp(stamp.slice(0, 10)),
      changeSummary: "",
    };
    await insertLegalDraft(trx, { ...values, id, documentType: request.type, authorEmail: editor.actor.email, now: stamp });
    const summary = source ? `Created from version ${source.version}` : "Created";
    await keepLegalRevision(trx, editor, { id, type: request.type, counter: 0, values, summary });
    await recordAudit(trx, {
      actor: editor.actor,
      action: "legal.draft-created",
      target: target(id),
      details: { documentType: request.type, version, from: source?.version ?? null },
      ip: editor.ip,
    });
    return { id, version };
  });
}

/**
 * A translation of one English version into `locale`, as a draft: the English version's title,
 * sections and change summary to translate, its version number and effective date (a translation
 * belongs to that version and keeps both). One translation per version and language.
 */
export async function createLegalTranslation(
  db: Db,
  editor: Editor,
  request: { sourceId: string; locale: string },
  now = new Date(),
): Promise<EditOutcome<{ id: string; version: string }>> {
  if (!translationLocales().includes(request.locale)) {
    return { ok: false, status: 400, problem: `There is no language "${request.locale}" to translate into.` };
  }
  return inLockedTransaction(db, async (trx) => {
    const source = await findLegalVersionRecordForUpdate(trx, request.sourceId);
    if (!source || source.locale !== LEGAL_SOURCE_LOCALE) return refuse(404, "That version does not exist (any more).");
    if (!source.published) {
      return refuse(400, `Version ${source.version} is a draft: translate it once it is published, when its text is final.`);
    }
    const [existing] = (await listLegalTranslationRecords(trx, [source.id])).filter((row) => row.locale === request.locale);
    if (existing) {
      return refuse(409, `Version ${source.version} already has a ${localeName(request.locale)} translation: open it instead.`);
    }
    const taken = await checkVersionFree(trx, source.documentType, source.version, "", request.locale);
    if (taken) return refuse(409, taken);
    const sections = salvageSections(source.content);
    const id = randomUUID();
    const values: StoredValues = {
      title: source.title,
      content: { sections: sections.length ? sections : [{ title: "", content: "" }] },
      version: source.version,
      effectiveDate: source.effectiveDate,
      changeSummary: source.changeSummary,
    };
    await insertLegalDraft(trx, {
      ...values,
      id,
      documentType: source.documentType,
      authorEmail: editor.actor.email,
      now: now.toISOString(),
      translation: { locale: request.locale, of: source.id, sourceRevision: source.revision },
    });
    await keepLegalRevision(trx, editor, {
      id,
      type: source.documentType,
      counter: 0,
      values,
      summary: `Translation of version ${source.version} into ${localeName(request.locale)} started`,
    });
    await recordAudit(trx, {
      actor: editor.actor,
      action: "legal.translation-created",
      target: target(id),
      details: { documentType: source.documentType, version: source.version, locale: request.locale, translationOf: source.id },
      ip: editor.ip,
    });
    return { id, version: source.version };
  });
}

/** Saves the editor's fields into a draft still at `revision`. Bad fields: a message per field, nothing written. */
export async function saveLegalDraft(
  db: Db,
  editor: Editor,
  draft: { id: string; revision: number; fields: DraftFields },
  now = new Date(),
): Promise<EditOutcome<{ changed: boolean; revision: number }>> {
  const checked = checkDraft(draft.fields);
  if (!checked.ok)
    return { ok: false, status: 400, problem: "The draft was not saved: fix the fields marked below.", errors: checked.errors };
  return inLockedTransaction(db, async (trx) => {
    const record = requireOpenDraft(await findLegalVersionRecordForUpdate(trx, draft.id), draft.revision);
    // A translation belongs to its English version: it keeps that version's number and date, whatever the form says.
    const fixed = record.translationOf
      ? { ...checked.draft, version: record.version, effectiveDate: effectiveDay(record.effectiveDate) }
      : checked.draft;
    const taken = await checkVersionFree(trx, record.documentType, fixed.version, record.id, record.locale);
    if (taken) refuse(400, "The draft was not saved: fix the fields marked below.", { version: taken });
    const values = storedValues(fixed);
    const unchanged =
      record.title === values.title &&
      record.version === values.version &&
      record.effectiveDate === values.effectiveDate &&
      record.changeSummary === values.changeSummary &&
      JSON.stringify(record.content) === JSON.stringify(values.content);
    if (unchanged) return { changed: false, revision: record.revision };
    if (!(await updateLegalDraft(trx, record.id, record.revision, values, now.toISOString()))) {
      refuse(409, "Someone saved this draft at the same moment. Nothing was changed: reload the page to see their version.");
    }
    await keepLegalRevision(trx, editor, {
      id: record.id,
      type: record.documentType,
      counter: record.revision + 1,
      values,
      summary: "Saved",
    });
    await recordAudit(trx, {
      actor: editor.actor,
      action: "legal.draft-saved",
      target: target(record.id),
      details: {
        documentType: record.documentType,
        version: values.version,
        revision: record.revision + 1,
        ...(record.translationOf ? { locale: record.locale } : {}),
      },
      ip: editor.ip,
    });
    return { changed: true, revision: record.revision + 1 };
  });
}

/**
 * Publishes a draft exactly as saved at `revision` (what its editor reviewed). Refused, with nothing
 * changed, unless: its content passes the public page's own check, every field passes the editor's
 * checks, its number is its own, its effective date has come and is not before the version in
 * force, and, once published, the public page would show it. One transaction: it goes live
 * together with its audit entry, or not at all.
 */
export async function publishLegalDraft(
  db: Db,
  editor: Editor,
  draft: { id: string; revision: number },
  now = new Date(),
): Promise<EditOutcome<{ version: string; type: LegalDocumentType; replaced: string | null; locale?: string }>> {
  const outcome = await inLockedTransaction(db, async (trx) => {
    const record = requireOpenDraft(await findLegalVersionRecordForUpdate(trx, draft.id), draft.revision);
    const type = record.documentType;
    if (!isValidLegalContent(record.content)) {
      refuse(400, `${INVALID_CONTENT_REASON}: this draft cannot be published. Fix its sections and save it first.`);
    }
    const checked = checkDraft(draftFieldsOf(record));
    if (!checked.ok) {
      refuse(400, "This draft cannot be published yet: fix the fields marked below and save it first.", checked.errors);
    }
    if (record.translationOf) return publishTranslation(trx, editor, record, now);
    const taken = await checkVersionFree(trx, type, record.version, record.id);
    if (taken) refuse(400, "This draft cannot be published: its version number is taken.", { version: taken });

    const day = effectiveDay(record.effectiveDate);
    const today = now.toISOString().slice(0, 10);
    if (day > today) {
      refuse(400, "This draft cannot be published yet.", {
        effectiveDate: `It takes effect on ${formatLongDate(record.effectiveDate)}: publish it on or after that day, or change the date.`,
      });
    }
    const current = (await listLegalVersionRecords(trx, type)).find((entry) => entry.published);
    if (current && record.effectiveDate < current.effectiveDate) {
      refuse(400, "This draft cannot be published: it would not replace the version in force.", {
        effectiveDate: `Must be on or after ${formatLongDate(current.effectiveDate)}, the effective date of version ${current.version} (in force now).`,
      });
    }

    if (
      !(await markLegalVersionPublished(trx, record.id, record.revision, { at: now.toISOString(), byEmail: editor.actor.email }))
    ) {
      refuse(409, "Someone changed this draft at the same moment. Nothing was published: reload the page.");
    }
    // The public page's own query decides what is in force: make sure it is this version.
    const shown = await findLegalDocument(trx, type);
    if (shown?.id !== record.id) {
      refuse(400, "This draft cannot be published: it would not replace the version in force.", {
        effectiveDate: `Version ${shown?.version ?? "?"} has the same effective date and a higher number: give this version a later date.`,
      });
    }
    await recordAudit(trx, {
      actor: editor.actor,
      action: "legal.published",
      target: target(record.id),
      details: {
        documentType: type,
        version: record.version,
        effectiveDate: day,
        changeSummary: record.changeSummary,
        replaced: current?.version ?? null,
      },
      ip: editor.ip,
    });
    // Every language's page of the type (and its versions' pages) shows it or its notice of it.
    await enqueueCdnPurge(trx, changedSurrogateKeys("legal", record.id, { document_type: type }));
    return { version: record.version, type, replaced: current?.version ?? null };
  });
  if (outcome.ok) {
    const { type, locale = LEGAL_SOURCE_LOCALE } = outcome.value;
    const path = legalPathIn(type, locale);
    // A new English version changes every translation's page too (their notice of a newer version).
    const paths =
      locale === LEGAL_SOURCE_LOCALE
        ? [...changedPaths("legal", path, path), ...legalPagesOfEveryLanguage(type)]
        : [path, `${path}/*`, "/sitemap.xml"];
    announceContentChange({ type: "legal", id: draft.id, paths: [...new Set(paths)] });
  }
  return outcome;
}

/**
 * A translation goes live only as the translation of the English version in force: a translation
 * of an older version (or of one not yet published) is refused, so a language never shows a text
 * that is not, in substance, the one that governs.
 */
async function publishTranslation(
  trx: Db,
  editor: Editor,
  record: LegalVersionRecord,
  now: Date,
): Promise<{ version: string; type: LegalDocumentType; replaced: string | null; locale?: string }> {
  const type = record.documentType;
  const language = localeName(record.locale);
  const source = record.translationOf ? await findLegalVersionRecord(trx, record.translationOf) : undefined;
  const inForce = await findLegalDocument(trx, type, LEGAL_SOURCE_LOCALE);
  if (!source || !source.published || !inForce || inForce.id !== source.id) {
    const translated = source ? `version ${source.version}` : "an English version that no longer exists";
    const current = inForce ? `version ${inForce.version || "1.0"} is` : "no version is";
    refuse(
      409,
      `This ${language} translation cannot be published: it translates ${translated}, and ${current} in force in English. Nothing was changed. Translate the version in force instead.`,
    );
  }
  const taken = await checkVersionFree(trx, type, record.version, record.id, record.locale);
  if (taken) refuse(409, `This translation cannot be published: ${taken}`);
  const before = await findLegalDocument(trx, type, record.locale);
  if (
    !(await markLegalVersionPublished(trx, record.id, record.revision, { at: now.toISOString(), byEmail: editor.actor.email }))
  ) {
    refuse(409, "Someone changed this draft at the same moment. Nothing was published: reload the page.");
  }
  const shown = await findLegalDocument(trx, type, record.locale);
  if (shown?.id !== record.id) {
    refuse(409, `This translation cannot be published: the ${language} page would still show version ${shown?.version ?? "?"}.`);
  }
  await recordAudit(trx, {
    actor: editor.actor,
    action: "legal.translation-published",
    target: target(record.id),
    details: {
      documentType: type,
      version: record.version,
      locale: record.locale,
      translationOf: source.id,
      sourceRevision: record.sourceRevision,
      replaced: before?.version ?? null,
    },
    ip: editor.ip,
  });
  return { version: record.version, type, replaced: before?.version ?? null, locale: record.locale };
}

/** Deletes a draft still at `revision`. Published versions cannot be discarded. */
export async function discardLegalDraft(
  db: Db,
  editor: Editor,
  draft: { id: string; revision: number },
): Promise<EditOutcome<{ version: string; type: LegalDocumentType }>> {
  return inLockedTransaction(db, async (trx) => {
    const record = requireOpenDraft(await findLegalVersionRecordForUpdate(trx, draft.id), draft.revision);
    if (!(await deleteLegalDraft(trx, record.id, record.revision))) {
      refuse(409, "Someone changed this draft at the same moment. Nothing was discarded: reload the page.");
    }
    await recordAudit(trx, {
      actor: editor.actor,
      action: "legal.draft-discarded",
      target: target(record.id),
      details: {
        documentType: record.documentType,
        version: record.version,
        title: record.title,
        changeSummary: record.changeSummary,
        ...(record.translationOf ? { locale: record.locale } : {}),
      },
      ip: editor.ip,
    });
    return { version: record.version, type: record.documentType };
  });
}
