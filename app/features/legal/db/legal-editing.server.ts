import type { Kysely, Selectable } from "kysely";
import {
  DEFAULT_LEGAL_VERSION,
  LEGAL_SOURCE_LOCALE,
  parseLegalContent,
  type LegalDocumentType,
} from "~/features/legal/db/legal.server";
import { dialectOf, isUuid, toBool, toIso } from "~/db/normalize";
import type { Database, LegalDocumentsTable } from "~/db/schema";

// The back office's reads and writes of legal document versions: every row of a type (drafts
// included), one by id, and the draft writes. A draft is an unpublished row; every write here is
// conditional on the row still being a draft at the revision the caller read, so a published
// version is never changed and a stale form changes nothing. Transactions, locks and the audit
// entry are the caller's (app/features/legal/editing.server.ts).

type Db = Kysely<Database>;

export type LegalVersionRecord = {
  id: string;
  /** "en" for the governing text; another language's row translates one English version. */
  locale: string;
  /** A translation's English version (its id); null for an English row. */
  translationOf: string | null;
  /** The English version's revision the translation was made from. */
  sourceRevision: number | null;
  documentType: LegalDocumentType;
  title: string;
  /** Parsed JSON when it parses, else the raw text (as the public page receives it). */
  content: unknown;
  /** As shown: a row without a version is 1.0. */
  version: string;
  /** The effective date (the last_updated column): the date the public page shows. */
  effectiveDate: string;
  published: boolean;
  createdAt: string;
  changeSummary: string;
  authorEmail: string;
  editedAt: string | null;
  publishedAt: string | null;
  publishedByEmail: string;
  revision: number;
};

export type LegalVersionListItem = Omit<LegalVersionRecord, "content">;

const listColumns = [
  "id",
  "locale",
  "translation_of",
  "source_revision",
  "document_type",
  "title",
  "last_updated",
  "version",
  "published",
  "created_at",
  "change_summary",
  "author_email",
  "edited_at",
  "published_at",
  "published_by_email",
  "revision",
] as const;

/** Every version of a type in a language, drafts included, in the public pages' order: newest effective date first. */
export async function listLegalVersionRecords(
  db: Db,
  type: LegalDocumentType,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LegalVersionListItem[]> {
  const rows = await db
    .selectFrom("legal_documents")
    .select(listColumns)
    .where("document_type", "=", type)
    .where("locale", "=", locale)
    .orderBy("last_updated", "desc")
    .orderBy("version", "desc")
    .orderBy("created_at", "desc")
    .execute();
  return rows.map(toListItem);
}

/** The translations of some English versions, every language, drafts included. */
export async function listLegalTranslationRecords(db: Db, sourceIds: readonly string[]): Promise<LegalVersionListItem[]> {
  if (!sourceIds.length) return [];
  const rows = await db
    .selectFrom("legal_documents")
    .select(listColumns)
    .where("translation_of", "in", [...sourceIds])
    .orderBy("locale")
    .orderBy("created_at")
    .execute();
  return rows.map(toListItem);
}

/** Every version of every type and language, content included (the content export), in a fixed order. */
export async function listAllLegalVersionRecords(db: Db): Promise<LegalVersionRecord[]> {
  const rows = await db
    .selectFrom("legal_documents")
    .selectAll()
    .orderBy("document_type")
    .orderBy("version")
    .orderBy("locale")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toRecord);
}

/** One version by id (anything that is not a UUID finds nothing). */
export async function findLegalVersionRecord(db: Db, id: string): Promise<LegalVersionRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("legal_documents").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/**
 * The same, read for a change inside a transaction: on PostgreSQL the row stays locked until the
 * transaction ends (SQLite's transaction already holds the database's write lock).
 */
export async function findLegalVersionRecordForUpdate(trx: Db, id: string): Promise<LegalVersionRecord | undefined> {
  if (!isUuid(id)) return undefined;
  let query = trx.selectFrom("legal_documents").selectAll().where("id", "=", id.toLowerCase());
  if (dialectOf(trx) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** The other rows of a type in a language that carry `version` (a row without one counts as 1.0). */
export async function findVersionHolders(
  db: Db,
  type: LegalDocumentType,
  version: string,
  exceptId?: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<{ id: string; published: boolean; effectiveDate: string }[]> {
  const stored = version === DEFAULT_LEGAL_VERSION ? [version, ""] : [version];
  let query = db
    .selectFrom("legal_documents")
    .select(["id", "published", "last_updated"])
    .where("document_type", "=", type)
    .where("locale", "=", locale)
    .where("version", "in", stored);
  if (exceptId) query = query.where("id", "<>", exceptId);
  const rows = await query.orderBy("published", "desc").execute();
  return rows.map((row) => ({ id: row.id, published: toBool(row.published), effectiveDate: toIso(row.last_updated) }));
}

export type DraftValues = {
  title: string;
  content: { sections: { title: string; content: string }[] };
  version: string;
  effectiveDate: string;
  changeSummary: string;
};

export async function insertLegalDraft(
  db: Db,
  draft: DraftValues & {
    id: string;
    documentType: LegalDocumentType;
    authorEmail: string;
    now: string;
    /** A translation: its language and the English version (id, revision) it translates. */
    translation?: { locale: string; of: string; sourceRevision: number };
  },
): Promise<void> {
  await db
    .insertInto("legal_documents")
    .values({
      id: draft.id,
      ...(draft.translation
        ? {
            locale: draft.translation.locale,
            translation_of: draft.translation.of,
            source_revision: draft.translation.sourceRevision,
          }
        : {}),
      document_type: draft.documentType,
      title: draft.title,
      content: JSON.stringify(draft.content),
      last_updated: draft.effectiveDate,
      version: draft.version,
      published: false,
      created_at: draft.now,
      change_summary: draft.changeSummary,
      author_email: draft.authorEmail,
      edited_at: draft.now,
      revision: 0,
    })
    .execute();
}

/** Saves a draft still at `revision`; false when it is not (published, discarded or saved by someone else). */
export async function updateLegalDraft(db: Db, id: string, revision: number, draft: DraftValues, now: string): Promise<boolean> {
  const result = await db
    .updateTable("legal_documents")
    .set((eb) => ({
      title: draft.title,
      content: JSON.stringify(draft.content),
      version: draft.version,
      last_updated: draft.effectiveDate,
      change_summary: draft.changeSummary,
      edited_at: now,
      revision: eb("revision", "+", 1),
    }))
    .where("id", "=", id)
    .where("published", "=", false)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Publishes a draft still at `revision`; false when it is not. Its text is never written again. */
export async function markLegalVersionPublished(
  db: Db,
  id: string,
  revision: number,
  published: { at: string; byEmail: string },
): Promise<boolean> {
  const result = await db
    .updateTable("legal_documents")
    .set({ published: true, published_at: published.at, published_by_email: published.byEmail })
    .where("id", "=", id)
    .where("published", "=", false)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Deletes a draft still at `revision`; false when it is not. Published versions are never deleted here. */
export async function deleteLegalDraft(db: Db, id: string, revision: number): Promise<boolean> {
  const result = await db
    .deleteFrom("legal_documents")
    .where("id", "=", id)
    .where("published", "=", false)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

function toListItem(row: Pick<Selectable<LegalDocumentsTable>, (typeof listColumns)[number]>): LegalVersionListItem {
  return {
    id: row.id,
    locale: row.locale,
    translationOf: row.translation_of,
    sourceRevision: row.source_revision === null ? null : Number(row.source_revision),
    documentType: row.document_type as LegalDocumentType,
    title: row.title,
    version: row.version || DEFAULT_LEGAL_VERSION,
    effectiveDate: toIso(row.last_updated),
    published: toBool(row.published),
    createdAt: toIso(row.created_at),
    changeSummary: row.change_summary,
    authorEmail: row.author_email,
    editedAt: row.edited_at === null ? null : toIso(row.edited_at),
    publishedAt: row.published_at === null ? null : toIso(row.published_at),
    publishedByEmail: row.published_by_email,
    revision: Number(row.revision),
  };
}

function toRecord(row: Selectable<LegalDocumentsTable>): LegalVersionRecord {
  return { ...toListItem(row), content: parseLegalContent(row.content) };
}
