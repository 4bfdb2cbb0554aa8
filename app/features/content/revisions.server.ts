import type { Kysely } from "kysely";
import type { ContentTypeId } from "~/features/content/content-types";
import { isUuid, toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// The revisions every save keeps, for every content type: one table, numbered 1, 2, 3... per
// document. The primary key (type, document, number) is the conflict rule: two saves based on the
// same revision both try to write the next number, and the second one fails.

type Db = Kysely<Database>;

export type RevisionInfo = { number: number; summary: string; authorEmail: string; createdAt: string };
export type Revision<Snapshot = unknown> = RevisionInfo & { snapshot: Snapshot };
export type RevisionAuthor = { id: string; email: string };

/** A revision's stored snapshot, as either engine gives it back. */
export function parseSnapshot<Snapshot = unknown>(value: unknown): Snapshot {
  return (typeof value === "string" ? JSON.parse(value) : value) as Snapshot;
}

/** A document's revisions, newest first. */
export async function listRevisions(db: Db, type: ContentTypeId, documentId: string): Promise<RevisionInfo[]> {
  if (!isUuid(documentId)) return [];
  const rows = await db
    .selectFrom("content_revisions")
    .select(["number", "summary", "author_email", "created_at"])
    .where("type", "=", type)
    .where("document_id", "=", documentId.toLowerCase())
    .orderBy("number", "desc")
    .execute();
  return rows.map((row) => ({
    number: Number(row.number),
    summary: row.summary,
    authorEmail: row.author_email,
    createdAt: toIso(row.created_at),
  }));
}

export async function findRevision<Snapshot = unknown>(
  db: Db,
  type: ContentTypeId,
  documentId: string,
  number: number,
): Promise<Revision<Snapshot> | undefined> {
  if (!isUuid(documentId) || !Number.isSafeInteger(number)) return undefined;
  const row = await db
    .selectFrom("content_revisions")
    .selectAll()
    .where("type", "=", type)
    .where("document_id", "=", documentId.toLowerCase())
    .where("number", "=", number)
    .executeTakeFirst();
  return (
    row && {
      number: Number(row.number),
      summary: row.summary,
      authorEmail: row.author_email,
      createdAt: toIso(row.created_at),
      snapshot: parseSnapshot<Snapshot>(row.snapshot),
    }
  );
}

/** The newest revision's number, 0 for a document no one has saved in the back office yet. */
export async function latestRevisionNumber(db: Db, type: ContentTypeId, documentId: string): Promise<number> {
  const row = await db
    .selectFrom("content_revisions")
    .select((eb) => eb.fn.max("number").as("latest"))
    .where("type", "=", type)
    .where("document_id", "=", documentId.toLowerCase())
    .executeTakeFirst();
  return Number(row?.latest ?? 0);
}

/** Keeps revision `number` of a document; fails (unique key) when another save took that number. */
export async function insertRevision(
  trx: Db,
  revision: {
    type: ContentTypeId;
    documentId: string;
    number: number;
    snapshot: unknown;
    summary: string;
    author: RevisionAuthor | null;
    at?: string;
  },
): Promise<void> {
  const authorId = revision.author?.id && isUuid(revision.author.id) ? revision.author.id.toLowerCase() : null;
  const db = trx;
  await db
    .insertInto("content_revisions")
    .values({
      type: revision.type,
      document_id: revision.documentId.toLowerCase(),
      number: revision.number,
      snapshot: JSON.stringify(revision.snapshot),
      summary: revision.summary,
      // Only a person the back office knows: the command line and a person removed since are named by email alone.
      author_id: authorId ? db.selectFrom("admin_users").select("id").where("id", "=", authorId) : null,
      author_email: revision.author?.email ?? "",
      created_at: revision.at ?? new Date().toISOString(),
    })
    .execute();
}

/** Every revision of a type, a page at a time in (document, number) order: for scans such as media use. */
export async function* allRevisions(
  db: Db,
  type: ContentTypeId,
  pageSize = 500,
): AsyncGenerator<{ documentId: string; number: number; snapshot: unknown }> {
  let after: { documentId: string; number: number } | undefined;
  for (;;) {
    let query = db
      .selectFrom("content_revisions")
      .select(["document_id", "number", "snapshot"])
      .where("type", "=", type)
      .orderBy("document_id")
      .orderBy("number")
      .limit(pageSize);
    if (after) {
      const { documentId, number } = after;
      query = query.where((eb) =>
        eb.or([eb("document_id", ">", documentId), eb.and([eb("document_id", "=", documentId), eb("number", ">", number)])]),
      );
    }
    const rows = await query.execute();
    for (const row of rows) yield { documentId: row.document_id, number: Number(row.number), snapshot: parseSnapshot(row.snapshot) };
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { documentId: last.document_id, number: Number(last.number) };
  }
}

/** Whether `error` is a unique-key violation: on revisions, another save got there first. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
