import { sql, type Kysely, type Selectable } from "kysely";
import type { ContentTypeId } from "~/features/content/content-types";
import { parseSnapshot } from "~/features/content/revisions.server";
import { dialectOf, isUuid, toIso } from "~/db/normalize";
import type { ContentDocumentsTable, Database } from "~/db/schema";

// Documents of the types that have no table of their own (pages; open positions next), in
// content_documents. A row holds the draft editors change and, apart from it, what visitors see:
// the published version, and a scheduled one that replaces it from its time on. Public reads
// compare that time with the clock, as the blog does with a scheduled post's date, so a scheduled
// change shows by itself. Writes are the core's (app/features/content/core.server.ts), inside its
// transaction; here is only SQL.

type Db = Kysely<Database>;

export type DocumentState = "draft" | "scheduled" | "published" | "unpublished";

export type ContentDocument<Data = unknown> = {
  id: string;
  type: ContentTypeId;
  path: string;
  /** Its language, which its address says (./document-locale.ts). */
  locale: string;
  /** A translation's source document (in English); null for a source. */
  translationOf: string | null;
  /** The source's revision this translation was last brought up to date with. */
  sourceRevision: number | null;
  draft: Data;
  published: Data | null;
  publishedPath: string | null;
  publishedAt: string | null;
  /** When visitors first saw it since it was last taken off the site (null before its first publication). */
  firstPublishedAt: string | null;
  scheduled: Data | null;
  scheduledPath: string | null;
  publishAt: string | null;
  unpublishedAt: string | null;
  /** As stored: draft, published or unpublished (scheduled is told by the clock: `documentStateOf`). */
  storedState: "draft" | "published" | "unpublished";
  revision: number;
  createdAt: string;
  createdByEmail: string;
  updatedAt: string;
  updatedByEmail: string;
};

const iso = (value: unknown) => (value == null ? null : toIso(value));
/** A stored time as comparable text without parsing it: PostgreSQL's Date as its milliseconds, SQLite's text as it is. */
const rawTime = (value: unknown) => (value instanceof Date ? String(value.getTime()) : String(value ?? ""));
const json = <Data>(value: unknown) => (value == null ? null : parseSnapshot<Data>(value));

function toDocument<Data>(row: Selectable<ContentDocumentsTable>): ContentDocument<Data> {
  return {
    id: row.id,
    type: row.type as ContentTypeId,
    path: row.path,
    locale: row.locale,
    translationOf: row.translation_of,
    sourceRevision: row.source_revision == null ? null : Number(row.source_revision),
    draft: parseSnapshot<Data>(row.draft),
    published: json<Data>(row.published),
    publishedPath: row.published_path,
    publishedAt: iso(row.published_at),
    firstPublishedAt: iso(row.first_published_at),
    scheduled: json<Data>(row.scheduled),
    scheduledPath: row.scheduled_path,
    publishAt: iso(row.publish_at),
    unpublishedAt: iso(row.unpublished_at),
    storedState: row.state as ContentDocument["storedState"],
    revision: Number(row.revision),
    createdAt: toIso(row.created_at),
    createdByEmail: row.created_by_email,
    updatedAt: toIso(row.updated_at),
    updatedByEmail: row.updated_by_email,
  };
}

/** Where a document stands for the back office at `now`. */
export function documentStateOf(doc: ContentDocument, now = Date.now()): DocumentState {
  if (doc.storedState !== "published") return doc.storedState;
  if (doc.published !== null) return "published";
  return doc.publishAt !== null && Date.parse(doc.publishAt) > now ? "scheduled" : "published";
}

/** A published document's versions visitors see, now or from the scheduled one's `since` on. */
export type PublishedVersions<Data> = {
  id: string;
  /** The source document a translation translates (null for a source): its translation group. */
  translationOf?: string | null;
  published: { data: Data; path: string; since: string; firstSince?: string } | null;
  scheduled: { data: Data; path: string; since: string; firstSince?: string } | null;
};

/** The version visitors see at `now`: the scheduled one once its time has come, else the published one. */
export function liveVersion<Data>(versions: Omit<PublishedVersions<Data>, "id">, now = Date.now()) {
  if (versions.scheduled && Date.parse(versions.scheduled.since) <= now) return versions.scheduled;
  return versions.published;
}

/** A live version, and since when visitors have seen the document at all (a job posting's date). */
export type LiveVersion<Data> = { data: Data; path: string; since: string; firstSince: string };

/**
 * What visitors see of a document at `now` (a scheduled version once its time has come), with its
 * path, since when this version, and since when the document.
 */
export function liveVersionOf<Data>(doc: ContentDocument<Data>, now = Date.now()): LiveVersion<Data> | null {
  const live = liveVersion(
    {
      published: doc.published === null ? null : { data: doc.published, path: doc.publishedPath!, since: doc.publishedAt! },
      scheduled:
        doc.scheduled === null || doc.publishAt === null ? null : { data: doc.scheduled, path: doc.scheduledPath!, since: doc.publishAt },
    },
    now,
  );
  // A first version scheduled and now due, not yet settled by a write, has no first publication stored.
  return live && { ...live, firstSince: doc.firstPublishedAt ?? live.since };
}

export async function findDocument<Data = unknown>(db: Db, id: string): Promise<ContentDocument<Data> | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("content_documents").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row && toDocument<Data>(row);
}

/** The same, inside a transaction: on PostgreSQL the row stays locked until it ends. */
export async function findDocumentForUpdate<Data = unknown>(trx: Db, id: string): Promise<ContentDocument<Data> | undefined> {
  if (!isUuid(id)) return undefined;
  let query = trx.selectFrom("content_documents").selectAll().where("id", "=", id.toLowerCase());
  if (dialectOf(trx) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toDocument<Data>(row);
}

/** Every document of a type, the latest change first. */
export async function listDocuments<Data = unknown>(db: Db, type: ContentTypeId): Promise<ContentDocument<Data>[]> {
  const rows = await db
    .selectFrom("content_documents")
    .selectAll()
    .where("type", "=", type)
    .orderBy("updated_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => toDocument<Data>(row));
}

/** The document, other than `exceptId`, that holds `path` as its draft's, published or scheduled address. */
export async function findPathHolder(db: Db, path: string, exceptId?: string): Promise<{ id: string; type: ContentTypeId } | undefined> {
  let query = db
    .selectFrom("content_documents")
    .select(["id", "type"])
    .where((eb) => eb.or([eb("path", "=", path), eb("published_path", "=", path), eb("scheduled_path", "=", path)]));
  if (exceptId) query = query.where("id", "<>", exceptId.toLowerCase());
  const row = await query.executeTakeFirst();
  return row && { id: row.id, type: row.type as ContentTypeId };
}

/**
 * The version visitors see at `path` at `now`: the scheduled one once its time has come, else the
 * published one. One query, so a scheduled change needs nothing to run at its time.
 */
export async function findLiveDocument<Data = unknown>(
  db: Db,
  type: ContentTypeId,
  path: string,
  now: Date = new Date(),
): Promise<({ id: string } & LiveVersion<Data>) | undefined> {
  const at = now.toISOString();
  const row = await db
    .selectFrom("content_documents")
    .selectAll()
    .where("type", "=", type)
    .where("state", "=", "published")
    .where((eb) =>
      eb.or([
        eb.and([eb("publish_at", "<=", at), eb("scheduled_path", "=", path)]),
        eb.and([eb.or([eb("publish_at", "is", null), eb("publish_at", ">", at)]), eb("published_path", "=", path)]),
      ]),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  const doc = toDocument<Data>(row);
  const live = liveVersionOf(doc, now.getTime());
  return live ? { id: doc.id, ...live } : undefined;
}

/** The version visitors see at `now` of the document `id` of this type (its social card names it by id), if any. */
export async function findLiveDocumentById<Data = unknown>(
  db: Db,
  type: ContentTypeId,
  id: string,
  now: Date = new Date(),
): Promise<{ id: string; data: Data; path: string; since: string } | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db
    .selectFrom("content_documents")
    .select(["id", "published", "published_path", "published_at", "scheduled", "scheduled_path", "publish_at"])
    .where("id", "=", id.toLowerCase())
    .where("type", "=", type)
    .where("state", "=", "published")
    .executeTakeFirst();
  if (!row) return undefined;
  const live = liveVersion<Data>(
    {
      published:
        row.published == null
          ? null
          : { data: parseSnapshot<Data>(row.published), path: row.published_path!, since: toIso(row.published_at) },
      scheduled:
        row.scheduled == null || row.publish_at == null
          ? null
          : { data: parseSnapshot<Data>(row.scheduled), path: row.scheduled_path!, since: toIso(row.publish_at) },
    },
    now.getTime(),
  );
  return live ? { id: row.id, ...live } : undefined;
}

/** Every document of a type visitors see at `now`, with its live version (the sitemap, the export). */
export async function listLiveDocuments<Data = unknown>(
  db: Db,
  type: ContentTypeId,
  now: Date = new Date(),
): Promise<({ id: string; updatedAt: string } & LiveVersion<Data>)[]> {
  // Only the live version's columns, and only its JSON parsed: the careers page reads every open
  // position on each render.
  const rows = await db
    .selectFrom("content_documents")
    .select([
      "id",
      "published",
      "published_path",
      "published_at",
      "first_published_at",
      "scheduled",
      "scheduled_path",
      "publish_at",
      "updated_at",
    ])
    .where("type", "=", type)
    .where("state", "=", "published")
    .orderBy("path")
    .execute();
  return rows.flatMap((row) => {
    const publishAt = iso(row.publish_at);
    const due = row.scheduled != null && publishAt !== null && Date.parse(publishAt) <= now.getTime();
    const snapshot = due ? row.scheduled : row.published;
    if (snapshot == null) return [];
    const since = due ? publishAt! : toIso(row.published_at);
    return [
      {
        id: row.id,
        data: parseSnapshot<Data>(snapshot),
        path: (due ? row.scheduled_path : row.published_path)!,
        since,
        firstSince: iso(row.first_published_at) ?? since,
        updatedAt: toIso(row.updated_at),
      },
    ];
  });
}

/** What says a published document changed, without its versions' data: its fingerprint. */
export type PublishedFingerprint = { id: string; fingerprint: string };

/** The fingerprint of every published document of a type (the watch of pages held in memory). */
export async function listPublishedFingerprints(db: Db, type: ContentTypeId): Promise<PublishedFingerprint[]> {
  const rows = await db
    .selectFrom("content_documents")
    .select([
      "id",
      "revision",
      "published_at",
      "first_published_at",
      "published_path",
      "publish_at",
      "scheduled_path",
      "updated_at",
      "translation_of",
    ])
    .where("type", "=", type)
    .where("state", "=", "published")
    .execute();
  // The values as the driver gives them, not as ISO strings: the fingerprint is only compared with
  // the next read's, and normalising every time of every document on each watch tick was most of its cost.
  return rows.map((row) => ({
    id: row.id,
    fingerprint: [
      row.revision,
      rawTime(row.published_at),
      rawTime(row.first_published_at),
      row.published_path,
      rawTime(row.publish_at),
      row.scheduled_path,
      rawTime(row.updated_at),
      row.translation_of ?? "",
    ].join("|"),
  }));
}

/** The published and scheduled versions of the documents `ids` (published ones only), without their drafts. */
export async function findPublishedVersions<Data>(db: Db, ids: readonly string[]): Promise<PublishedVersions<Data>[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom("content_documents")
    .select([
      "id",
      "published",
      "published_path",
      "published_at",
      "first_published_at",
      "scheduled",
      "scheduled_path",
      "publish_at",
      "translation_of",
    ])
    .where("id", "in", ids)
    .where("state", "=", "published")
    .execute();
  return rows.map((row) => {
    const first = iso(row.first_published_at);
    return {
      id: row.id,
      translationOf: row.translation_of,
      published:
        row.published == null
          ? null
          : {
              data: parseSnapshot<Data>(row.published),
              path: row.published_path!,
              since: toIso(row.published_at),
              firstSince: first ?? toIso(row.published_at),
            },
      scheduled:
        row.scheduled == null
          ? null
          : {
              data: parseSnapshot<Data>(row.scheduled),
              path: row.scheduled_path!,
              since: toIso(row.publish_at),
              firstSince: first ?? toIso(row.publish_at),
            },
    };
  });
}

export type DocumentWrite<Data> = {
  draft: Data;
  path: string;
  locale: string;
  revision: number;
  byEmail: string;
  at: string;
  /** A translation's source and the source's revision it is up to date with (set when made, and when brought up to date). */
  translation?: { of?: string; sourceRevision: number };
};

export async function insertDocument<Data>(trx: Db, id: string, type: ContentTypeId, write: DocumentWrite<Data>): Promise<void> {
  await trx
    .insertInto("content_documents")
    .values({
      id,
      type,
      path: write.path,
      locale: write.locale,
      ...(write.translation ? { translation_of: write.translation.of ?? null, source_revision: write.translation.sourceRevision } : {}),
      draft: JSON.stringify(write.draft),
      state: "draft",
      revision: write.revision,
      created_at: write.at,
      created_by_email: write.byEmail,
      updated_at: write.at,
      updated_by_email: write.byEmail,
    })
    .execute();
}

/** Writes the draft of a document still at `baseRevision`; false when it is not (someone saved since). */
export async function updateDraft<Data>(trx: Db, id: string, baseRevision: number, write: DocumentWrite<Data>): Promise<boolean> {
  const result = await trx
    .updateTable("content_documents")
    .set({
      path: write.path,
      locale: write.locale,
      ...(write.translation ? { source_revision: write.translation.sourceRevision } : {}),
      draft: JSON.stringify(write.draft),
      revision: write.revision,
      updated_at: write.at,
      updated_by_email: write.byEmail,
    })
    .where("id", "=", id)
    .where("revision", "=", baseRevision)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * A scheduled version whose time has come becomes the published one, so the next change starts
 * from what visitors see. Reads never need this; writes call it first.
 */
export async function settleDueVersion(trx: Db, id: string, now: string): Promise<void> {
  await trx
    .updateTable("content_documents")
    .set({
      published: sql`scheduled`,
      published_path: sql`scheduled_path`,
      published_at: sql`publish_at`,
      first_published_at: sql`coalesce(first_published_at, publish_at)`,
      scheduled: null,
      scheduled_path: null,
      publish_at: null,
    })
    .where("id", "=", id)
    .where("publish_at", "<=", now)
    .execute();
}

/** `data` is what visitors see at `path` from now on; any scheduled version is dropped. */
export async function writePublished<Data>(trx: Db, id: string, data: Data, path: string, at: string): Promise<void> {
  await trx
    .updateTable("content_documents")
    .set({
      published: JSON.stringify(data),
      published_path: path,
      published_at: at,
      first_published_at: sql`coalesce(first_published_at, ${at})`,
      scheduled: null,
      scheduled_path: null,
      publish_at: null,
      unpublished_at: null,
      state: "published",
    })
    .where("id", "=", id)
    .execute();
}

/** `data` replaces what visitors see at `publishAt`; until then the published version (if any) stays. */
export async function writeScheduled<Data>(trx: Db, id: string, data: Data, path: string, publishAt: string): Promise<void> {
  await trx
    .updateTable("content_documents")
    .set({ scheduled: JSON.stringify(data), scheduled_path: path, publish_at: publishAt, unpublished_at: null, state: "published" })
    .where("id", "=", id)
    .execute();
}

/** Visitors see nothing of the document any more; its draft stays. */
export async function writeUnpublished(trx: Db, id: string, at: string): Promise<void> {
  await trx
    .updateTable("content_documents")
    .set({
      published: null,
      published_path: null,
      published_at: null,
      first_published_at: null,
      scheduled: null,
      scheduled_path: null,
      publish_at: null,
      unpublished_at: at,
      state: "unpublished",
    })
    .where("id", "=", id)
    .execute();
}
