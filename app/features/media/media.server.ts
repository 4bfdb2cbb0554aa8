import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import sharp, { type Metadata, type Sharp } from "sharp";
import { recordAudit } from "~/features/audit/audit.server";
import { responsiveImage } from "~/features/media/image-manifest.server";
import { forgetMediaFiles, mediaCacheDir } from "~/features/media/media-files.server";
import { mediaIdsReferencedBy } from "~/features/media/media-references";
import {
  ALT_MESSAGES,
  MAX_ALT_LENGTH,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PIXELS,
  MAX_UPLOAD_SIDE,
  MEDIA_TYPES,
  UPLOAD_MESSAGES,
  formatBytes,
  mediaFileName,
  mediaIdsIn,
  mediaPicture,
  mediaUrl,
  parseMediaPath,
  type MediaItem,
  type MediaType,
  type StoredImage,
} from "~/features/media/media";
import { postPath } from "~/features/blog/posts";
import type { ResponsiveImage } from "~/features/media/responsive-image";
import {
  deleteMediaRow,
  findMediaRecord,
  findMediaRecords,
  insertMedia,
  listMediaRecords,
  listPostTexts,
  revisionTexts,
  updateMediaAlt,
  type MediaRecord,
} from "~/features/media/db/media.server";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { POST_LIST_KEY, mediaKey, postKey } from "~/features/cdn/surrogate-keys";

// The back office's images: taking an upload (what it is is decided by its content, its size and
// pixel count are capped, its metadata is stripped), listing the library with where each image is
// used, changing alt text, deleting what no post uses; and telling the pages which URLs are
// uploaded images, so they are drawn as the same <picture> as the build's images.
// The post editor stores images through storeUpload and offers them through listMedia.

type Db = Kysely<Database>;

/** Who makes a change, and from where (for the audit log). */
export type MediaActor = { id: string; email: string; ip: string };

export type MediaFieldErrors = { file?: string; alt?: string };

export type UploadResult = { ok: true; image: StoredImage } | { ok: false; fieldErrors: MediaFieldErrors };

/** Trimmed alt text with line breaks and other control characters as spaces; or the problem with it. */
export function checkAlt(value: unknown): { ok: true; alt: string } | { ok: false; error: string } {
  const alt = (typeof value === "string" ? value : "")
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!alt) return { ok: false, error: ALT_MESSAGES.missing };
  if (alt.length > MAX_ALT_LENGTH) return { ok: false, error: ALT_MESSAGES.tooLong };
  return { ok: true, alt };
}

/** The accepted type of a file sharp has identified by its content, or why it is refused. */
function acceptedType(metadata: Metadata): { ok: true; type: MediaType } | { ok: false; error: string } {
  switch (metadata.format) {
    case "jpeg":
      return { ok: true, type: "image/jpeg" };
    case "png":
      return { ok: true, type: "image/png" };
    case "webp":
      return { ok: true, type: "image/webp" };
    case "heif":
      // HEIF holds AVIF (AV1) and Apple's HEIC (HEVC); only AVIF is one of ours.
      return metadata.compression === "av1"
        ? { ok: true, type: "image/avif" }
        : { ok: false, error: UPLOAD_MESSAGES.otherFormat("HEIC") };
    case "svg":
      return { ok: false, error: UPLOAD_MESSAGES.svg };
    default:
      return { ok: false, error: UPLOAD_MESSAGES.otherFormat(String(metadata.format)) };
  }
}

/** Re-encoding settings for the stored image: close to the upload, with nothing but pixels left. */
const STORE_ENCODERS: Record<MediaType, (image: Sharp) => Sharp> = {
  "image/jpeg": (image) => image.jpeg({ quality: 90, mozjpeg: true }),
  "image/png": (image) => image.png({ compressionLevel: 9 }),
  "image/webp": (image) => image.webp({ quality: 90 }),
  "image/avif": (image) => image.avif({ quality: 70, effort: 2 }),
};

export type CleanImage = { type: MediaType; width: number; height: number; hasAlpha: boolean; data: Buffer };

/**
 * What an uploaded file is, decided by its content: one of the accepted formats within the caps,
 * decoded whole (a truncated or damaged file is refused) and re-encoded in its own format after
 * its EXIF rotation is applied, so no metadata (EXIF, GPS position, comments) is kept.
 */
export async function cleanImage(bytes: Buffer): Promise<{ ok: true; image: CleanImage } | { ok: false; error: string }> {
  if (bytes.length === 0) return { ok: false, error: UPLOAD_MESSAGES.empty };
  if (bytes.length > MAX_UPLOAD_BYTES) return { ok: false, error: UPLOAD_MESSAGES.tooLarge };
  let metadata: Metadata;
  try {
    // Reads the header only: a decompression bomb's size is known before any pixel is decoded.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, error: UPLOAD_MESSAGES.notImage };
  }
  const type = acceptedType(metadata);
  if (!type.ok) return type;
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) return { ok: false, error: UPLOAD_MESSAGES.damaged };
  if (width * height > MAX_UPLOAD_PIXELS) return { ok: false, error: UPLOAD_MESSAGES.tooManyPixels(width, height) };
  if (Math.max(width, height) > MAX_UPLOAD_SIDE) return { ok: false, error: UPLOAD_MESSAGES.tooLong };
  try {
    const image = sharp(bytes, { autoOrient: true, failOn: "truncated", limitInputPixels: MAX_UPLOAD_PIXELS });
    const { data, info } = await STORE_ENCODERS[type.type](image).toBuffer({ resolveWithObject: true });
    return { ok: true, image: { type: type.type, width: info.width, height: info.height, hasAlpha: info.channels === 4, data } };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) return { ok: false, error: UPLOAD_MESSAGES.tooManyPixels(width, height) };
    return { ok: false, error: UPLOAD_MESSAGES.damaged };
  }
}

/**
 * What an image file from a content folder is: the type its content says, its size, decoded whole.
 * Unlike an upload it is kept byte for byte (the export wrote it as stored), so it must already be
 * one of ours and within the caps.
 */
export async function describeStoredImage(
  bytes: Buffer,
): Promise<{ ok: true; type: MediaType; width: number; height: number; hasAlpha: boolean } | { ok: false; error: string }> {
  if (bytes.length === 0) return { ok: false, error: UPLOAD_MESSAGES.empty };
  if (bytes.length > MAX_UPLOAD_BYTES) return { ok: false, error: UPLOAD_MESSAGES.tooLarge };
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    const type = acceptedType(metadata);
    if (!type.ok) return type;
    if (!metadata.width || !metadata.height) return { ok: false, error: UPLOAD_MESSAGES.damaged };
    if (metadata.width * metadata.height > MAX_UPLOAD_PIXELS)
      return { ok: false, error: UPLOAD_MESSAGES.tooManyPixels(metadata.width, metadata.height) };
    await sharp(bytes, { failOn: "truncated", limitInputPixels: MAX_UPLOAD_PIXELS }).stats();
    return { ok: true, type: type.type, width: metadata.width, height: metadata.height, hasAlpha: Boolean(metadata.hasAlpha) };
  } catch {
    return { ok: false, error: UPLOAD_MESSAGES.damaged };
  }
}

function storedImage(record: MediaRecord): StoredImage {
  return { id: record.id, url: mediaUrl(record), width: record.width, height: record.height, alt: record.alt };
}

/**
 * Stores an uploaded image with its alt text, and audits it. `file` is what the form's file field
 * held (a File, or nothing). Bad input changes nothing and says what is wrong, per field.
 */
export async function storeUpload(db: Db, file: unknown, altText: unknown, actor: MediaActor): Promise<UploadResult> {
  const fieldErrors: MediaFieldErrors = {};
  const alt = checkAlt(altText);
  if (!alt.ok) fieldErrors.alt = alt.error;
  let cleaned: CleanImage | undefined;
  if (!(file instanceof Blob) || (file instanceof File && !file.name && file.size === 0)) {
    fieldErrors.file = UPLOAD_MESSAGES.missing;
  } else if (file.size > MAX_UPLOAD_BYTES) {
    fieldErrors.file = UPLOAD_MESSAGES.tooLarge;
  } else {
    const result = await cleanImage(Buffer.from(await file.arrayBuffer()));
    if (result.ok) cleaned = result.image;
    else fieldErrors.file = result.error;
  }
  if (!alt.ok || !cleaned) return { ok: false, fieldErrors };

  const originalName = file instanceof File ? file.name.slice(0, 200) : "";
  const image = cleaned;
  const record = await db.transaction().execute(async (trx) => {
    const stored = await insertMedia(trx, {
      fileName: mediaFileName(originalName),
      originalName,
      contentType: image.type,
      width: image.width,
      height: image.height,
      hasAlpha: image.hasAlpha,
      sha256: createHash("sha256").update(image.data).digest("hex"),
      alt: alt.alt,
      data: image.data,
      createdBy: actor.id,
    });
    await recordAudit(trx, {
      actor,
      action: "media.uploaded",
      target: { type: "media", id: stored.id },
      details: { name: originalName, type: image.type, width: image.width, height: image.height, bytes: stored.bytes },
      ip: actor.ip,
    });
    return stored;
  });
  remember(record);
  return { ok: true, image: storedImage(record) };
}

/** A post that uses an image: in its image_url or body now, or only in earlier revisions. */
type MediaUse = { postId: string; title: string; slug: string | null; published: boolean; onlyInRevisions: boolean };

/**
 * The posts using each image (by id), titles in order: those whose image_url, body or any revision
 * refers to it, in any spelling the server resolves to the image (./media-references). Legal
 * documents are plain text, never drawn as links or images, so they use none.
 */
async function mediaUses(db: Db): Promise<Map<string, MediaUse[]>> {
  const posts = await listPostTexts(db);
  const current = new Map(posts.map((post) => [post.postId, mediaIdsReferencedBy(post.texts)]));
  const inRevisions = new Map<string, Set<string>>();
  for await (const revision of revisionTexts(db)) {
    const ids = inRevisions.get(revision.postId) ?? new Set<string>();
    for (const id of mediaIdsReferencedBy(revision.texts)) ids.add(id);
    inRevisions.set(revision.postId, ids);
  }
  const uses = new Map<string, MediaUse[]>();
  for (const { postId, title, slug, published } of posts) {
    const addUse = (id: string, onlyInRevisions: boolean) =>
      uses.set(id, [...(uses.get(id) ?? []), { postId, title, slug, published, onlyInRevisions }]);
    const now = current.get(postId)!;
    for (const id of now) addUse(id, false);
    for (const id of inRevisions.get(postId) ?? []) if (!now.has(id)) addUse(id, true);
  }
  return uses;
}

/** Every image in the library, newest first, with the posts using it. */
export async function listMedia(db: Db): Promise<MediaItem[]> {
  const [records, uses] = await Promise.all([listMediaRecords(db), mediaUses(db)]);
  return records.map((record) => ({
    ...storedImage(record),
    fileName: record.fileName,
    originalName: record.originalName,
    type: MEDIA_TYPES[record.contentType].label,
    size: formatBytes(record.bytes),
    picture: mediaPicture(record),
    uploadedAt: record.createdAt,
    usedBy: (uses.get(record.id) ?? []).map((use) => ({
      id: use.postId,
      title: use.title,
      href: postPath({ slug: use.slug, id: use.postId }),
      published: use.published,
      onlyInRevisions: use.onlyInRevisions,
    })),
  }));
}

export type AltChangeResult = { ok: true } | { ok: false; notFound: true } | { ok: false; fieldErrors: MediaFieldErrors };

export async function changeAlt(db: Db, id: string, altText: unknown, actor: MediaActor): Promise<AltChangeResult> {
  const alt = checkAlt(altText);
  if (!alt.ok) return { ok: false, fieldErrors: { alt: alt.error } };
  return db.transaction().execute(async (trx) => {
    const before = await updateMediaAlt(trx, id, alt.alt);
    if (before === undefined) return { ok: false, notFound: true } as const;
    await recordAudit(trx, {
      actor,
      action: "media.alt-changed",
      target: { type: "media", id: id.toLowerCase() },
      details: { from: before, to: alt.alt },
      ip: actor.ip,
    });
    // The posts drawing it (and the lists showing their cards) carry the text in their markup.
    const shownBy = ((await mediaUses(trx)).get(id.toLowerCase()) ?? []).filter((use) => !use.onlyInRevisions);
    await enqueueCdnPurge(trx, [
      mediaKey(id),
      ...shownBy.map((use) => postKey(use.postId)),
      ...(shownBy.length ? [POST_LIST_KEY] : []),
    ]);
    return { ok: true } as const;
  });
}

export type DeleteResult = { ok: true } | { ok: false; notFound: true } | { ok: false; usedBy: string[] };

/**
 * Deletes an image no post uses (by image_url, in its body, or in a revision, in any spelling);
 * one in use stays, and the titles say where.
 */
export async function deleteMedia(db: Db, id: string, actor: MediaActor): Promise<DeleteResult> {
  const result = await db.transaction().execute(async (trx): Promise<DeleteResult> => {
    const record = await findMediaRecord(trx, id);
    if (!record) return { ok: false, notFound: true };
    const uses = (await mediaUses(trx)).get(record.id) ?? [];
    if (uses.length > 0) {
      return { ok: false, usedBy: uses.map((use) => (use.onlyInRevisions ? `${use.title} (an earlier revision)` : use.title)) };
    }
    await deleteMediaRow(trx, record.id);
    await recordAudit(trx, {
      actor,
      action: "media.deleted",
      target: { type: "media", id: record.id },
      details: { name: record.originalName, alt: record.alt },
      ip: actor.ip,
    });
    await enqueueCdnPurge(trx, [mediaKey(record.id)]);
    return { ok: true };
  });
  if (result.ok) {
    known.delete(id.toLowerCase());
    // This server's files go now; other servers drop theirs when they next check (within a minute).
    await forgetMediaFiles(id.toLowerCase(), mediaCacheDir()).catch((error: unknown) =>
      logger.warn({ err: error, mediaId: id }, "the deleted image's cached files could not be removed"),
    );
  }
  return result;
}

/**
 * Uploaded images this server has seen, by id. A row's size and name never change, so an entry is
 * never stale; a deleted image is one no post uses, so no page asks for it.
 */
const known = new LRUCache<string, MediaRecord>({ max: 20_000 });

function remember(record: MediaRecord) {
  known.set(record.id, record);
}

/** Draws an image URL: a `<picture>` for built-in and uploaded images, null for a plain `<img>`. */
export type ImageLookup = (url: string | null | undefined) => ResponsiveImage | null;

/**
 * The lookup for a page showing these image URLs and post bodies: the build's manifest for
 * built-in images, the media table for uploaded ones (read once per server for each image, then
 * kept). Unknown uploads, like remote URLs, are drawn as a plain <img>.
 */
export async function imageLookupFor(db: Db, texts: readonly (string | null | undefined)[]): Promise<ImageLookup> {
  const missing = mediaIdsIn(texts).filter((id) => !known.has(id));
  if (missing.length > 0) for (const record of await findMediaRecords(db, missing)) remember(record);
  return (url) => {
    if (!url) return null;
    const built = responsiveImage(url);
    if (built) return built;
    const path = url.startsWith("/") ? parseMediaPath(url) : undefined;
    if (path?.kind !== "original") return null;
    const record = known.get(path.id);
    if (!record || record.fileName !== path.fileName || MEDIA_TYPES[record.contentType].extension !== path.extension) return null;
    return mediaPicture(record);
  };
}
