import { randomBytes } from "node:crypto";
import { access, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import { encodeVariant, variantJobs, type VariantJob } from "~/features/media/image-encoding.server";
import { MAX_UPLOAD_PIXELS, MEDIA_TYPES, parseMediaPath } from "~/features/media/media";
import { findMediaRecord, readMediaData, type MediaRecord } from "~/features/media/db/media.server";
import type { Database } from "~/db/schema";
import { getEnv } from "~/env.server";
import { logger } from "~/platform/logger.server";

// The files behind /media URLs on this server. The stored image and each responsive variant are
// made from the database row on their first request (a variant encoded with the build's own
// settings), written to this server's cache folder (MEDIA_CACHE_DIR) and served from there ever
// after, like any static file. Concurrent first requests for one file share one encode; at most
// two encodes run at once, so a page of new images cannot take every core.

/** How long this server trusts that an image still exists before asking the database again. */
const RECHECK_MS = 60_000;
const MAX_CONCURRENT_ENCODES = 2;

export type MediaFile = { contentType: string } & ({ path: string } | { data: Buffer });

/** Rows by id as last read (null: no such image), each trusted for RECHECK_MS. */
const rows = new LRUCache<string, { record: MediaRecord | null }>({ max: 20_000, ttl: RECHECK_MS });
/** Files being made, by their path: a second request waits for the first one's. */
const making = new Map<string, Promise<MediaFile>>();
/** Files known to be on disk: a hit needs no file-system look-up before it is sent. */
const onDisk = new Set<string>();

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when one of the encode slots is free (a finished encode hands its slot to the next in line). */
async function inEncodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_ENCODES) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

async function currentRecord(db: Kysely<Database>, id: string, cacheDir: string): Promise<MediaRecord | undefined> {
  const cached = rows.get(id);
  if (cached) return cached.record ?? undefined;
  const record = (await findMediaRecord(db, id)) ?? null;
  rows.set(id, { record });
  // Deleted (perhaps on another server): its files go too.
  if (!record) await forgetMediaFiles(id, cacheDir);
  return record ?? undefined;
}

/** Drops an image's files from this server's cache and its row from memory. */
export async function forgetMediaFiles(id: string, cacheDir: string): Promise<void> {
  rows.delete(id);
  const dir = path.join(cacheDir, id);
  for (const file of onDisk) if (file.startsWith(`${dir}${path.sep}`)) onDisk.delete(file);
  await rm(dir, { recursive: true, force: true });
}

let unwritableLogged = false;

async function make(
  db: Kysely<Database>,
  record: MediaRecord,
  job: VariantJob | undefined,
  file: string,
  contentType: string,
): Promise<MediaFile> {
  // Made before this server started: kept from then.
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  ) {
    onDisk.add(file);
    return { contentType, path: file };
  }
  const data = await readMediaData(db, record.id);
  if (!data) throw new Error(`media ${record.id} vanished while its file was made`);
  const bytes = job ? (await inEncodeSlot(() => encodeVariant(data, job, MAX_UPLOAD_PIXELS))).data : data;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    // Written whole under another name, then renamed: a reader never sees half a file.
    const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, file);
    onDisk.add(file);
    return { contentType, path: file };
  } catch (error) {
    if (!unwritableLogged) {
      unwritableLogged = true;
      logger.warn(
        { err: error, cacheDir: path.dirname(path.dirname(file)) },
        "media cache folder not writable: images are encoded on every request",
      );
    }
    return { contentType, data: bytes };
  }
}

/**
 * The file a /media path names, made when this server has not made it yet; undefined when there
 * is no such image or variant (another name, width or format than the image's own).
 */
export async function mediaFile(db: Kysely<Database>, pathname: string, cacheDir: string): Promise<MediaFile | undefined> {
  const wanted = parseMediaPath(pathname);
  if (!wanted) return undefined;
  const record = await currentRecord(db, wanted.id, cacheDir);
  if (!record || record.fileName !== wanted.fileName) return undefined;
  let job: VariantJob | undefined;
  let contentType: string;
  if (wanted.kind === "original") {
    if (wanted.extension !== MEDIA_TYPES[record.contentType].extension) return undefined;
    contentType = record.contentType;
  } else {
    job = variantJobs(record.width, record.hasAlpha).find((each) => each.type === wanted.type && each.width === wanted.width);
    if (!job) return undefined;
    contentType = wanted.type;
  }
  const file = path.join(cacheDir, record.id, path.posix.basename(pathname));
  if (onDisk.has(file)) return { contentType, path: file };
  let pending = making.get(file);
  if (!pending) {
    pending = make(db, record, job, file, contentType).finally(() => making.delete(file));
    making.set(file, pending);
  }
  return pending;
}

/** This server's cache folder (MEDIA_CACHE_DIR, relative to the working directory). */
export function mediaCacheDir(): string {
  return path.resolve(getEnv().MEDIA_CACHE_DIR);
}

/** A file that was on disk is gone (removed by hand, or by another process): it is made again next time. */
export function mediaFileMissing(file: string): void {
  onDisk.delete(file);
}
