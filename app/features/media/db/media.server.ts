import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { MediaDimensions, MediaType } from "~/features/media/media";
import { isUuid, toBool, toIso } from "~/db/normalize";
import { parseSnapshot } from "~/features/blog/db/post-editing.server";
import type { Database } from "~/db/schema";

// Uploaded images: their rows (the bytes read only when a server makes a file from them), their
// alt text, and the texts of posts and their revisions in which the blog's media code looks for
// references to them.

type Db = Kysely<Database> | Transaction<Database>;

export type MediaRecord = MediaDimensions & {
  originalName: string;
  bytes: number;
  sha256: string;
  alt: string;
  createdAt: string;
  updatedAt: string;
};

export type NewMedia = Omit<MediaDimensions, "id"> & {
  originalName: string;
  sha256: string;
  alt: string;
  data: Buffer;
  createdBy: string | null;
};

const RECORD_COLUMNS = [
  "id",
  "file_name",
  "original_name",
  "content_type",
  "width",
  "height",
  "has_alpha",
  "bytes",
  "sha256",
  "alt",
  "created_at",
  "updated_at",
] as const;

type RecordRow = {
  id: string;
  file_name: string;
  original_name: string;
  content_type: MediaType;
  width: number;
  height: number;
  has_alpha: unknown;
  bytes: number;
  sha256: string;
  alt: string;
  created_at: unknown;
  updated_at: unknown;
};

function toRecord(row: RecordRow): MediaRecord {
  return {
    id: row.id,
    fileName: row.file_name,
    originalName: row.original_name,
    contentType: row.content_type,
    width: Number(row.width),
    height: Number(row.height),
    hasAlpha: toBool(row.has_alpha),
    bytes: Number(row.bytes),
    sha256: row.sha256,
    alt: row.alt,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The row of a new image, created (and last changed) at `createdAt`. */
function rowOf(id: string, media: NewMedia, createdAt: string) {
  return {
    id,
    file_name: media.fileName,
    original_name: media.originalName,
    content_type: media.contentType,
    width: media.width,
    height: media.height,
    has_alpha: media.hasAlpha,
    bytes: media.data.length,
    sha256: media.sha256,
    alt: media.alt,
    data: media.data,
    created_by: media.createdBy,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export async function insertMedia(db: Db, media: NewMedia): Promise<MediaRecord> {
  const row = await db
    .insertInto("media")
    .values(rowOf(randomUUID(), media, new Date().toISOString()))
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** An image with its bytes, for the content export. */
export type MediaExport = MediaRecord & { data: Buffer };

/** Every image with its bytes, oldest first: only the content export reads them all. */
export async function listMediaForExport(db: Db): Promise<MediaExport[]> {
  const rows = await db
    .selectFrom("media")
    .select([...RECORD_COLUMNS, "data"])
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...toRecord(row), data: Buffer.from(row.data) }));
}

/** An image from the content import, under its own id (the URLs that name it stay valid). */
export async function insertImportedMedia(db: Db, id: string, media: NewMedia & { createdAt: string }): Promise<void> {
  await db
    .insertInto("media")
    .values(rowOf(id, media, media.createdAt))
    .execute();
}

/** Every image, newest first, without its bytes. */
export async function listMediaRecords(db: Db): Promise<MediaRecord[]> {
  const rows = await db.selectFrom("media").select(RECORD_COLUMNS).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map(toRecord);
}

export async function findMediaRecord(db: Db, id: string): Promise<MediaRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("media").select(RECORD_COLUMNS).where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row && toRecord(row);
}

/** The records of these ids that exist (unknown and malformed ids are left out). */
export async function findMediaRecords(db: Db, ids: readonly string[]): Promise<MediaRecord[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom("media").select(RECORD_COLUMNS).where("id", "in", wanted).execute();
  return rows.map(toRecord);
}

/** The stored image's bytes. */
export async function readMediaData(db: Db, id: string): Promise<Buffer | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("media").select("data").where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

/** Sets an image's alt text; its previous text, or undefined when there is no such image. */
export async function updateMediaAlt(db: Db, id: string, alt: string): Promise<string | undefined> {
  const before = await findMediaRecord(db, id);
  if (!before) return undefined;
  await db.updateTable("media").set({ alt, updated_at: new Date().toISOString() }).where("id", "=", before.id).execute();
  return before.alt;
}

export async function deleteMediaRow(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db.deleteFrom("media").where("id", "=", id.toLowerCase()).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A post's texts that can name an image (its image_url and body), with what the library shows of the post. */
export type PostTexts = { postId: string; title: string; slug: string | null; published: boolean; texts: string[] };

/** Every post, drafts included, with its image_url and body. */
export async function listPostTexts(db: Db): Promise<PostTexts[]> {
  const rows = await db
    .selectFrom("blog_posts")
    .select(["id", "title", "slug", "published", "image_url", "content"])
    .orderBy("title")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    postId: row.id,
    title: row.title,
    slug: row.slug,
    published: toBool(row.published),
    texts: [row.image_url ?? "", row.content ?? ""],
  }));
}

const REVISION_PAGE = 500;

/**
 * The image_url and body of every revision of every post, a page of rows at a time: restoring a
 * revision brings its images back, so they count as used too.
 */
export async function* revisionTexts(db: Db): AsyncGenerator<{ postId: string; number: number; texts: string[] }> {
  let after: { postId: string; number: number } | undefined;
  for (;;) {
    let query = db
      .selectFrom("blog_post_revisions")
      .select(["post_id", "number", "snapshot"])
      .orderBy("post_id")
      .orderBy("number")
      .limit(REVISION_PAGE);
    if (after) {
      const { postId, number } = after;
      query = query.where((eb) =>
        eb.or([eb("post_id", ">", postId), eb.and([eb("post_id", "=", postId), eb("number", ">", number)])]),
      );
    }
    const rows = await query.execute();
    for (const row of rows) {
      const snapshot = parseSnapshot(row.snapshot);
      const text = (value: unknown) => (typeof value === "string" ? value : "");
      yield { postId: row.post_id, number: Number(row.number), texts: [text(snapshot.image_url), text(snapshot.content)] };
    }
    if (rows.length < REVISION_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { postId: last.post_id, number: Number(last.number) };
  }
}
