import path from "node:path";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { Kysely } from "kysely";
import { describeStoredImage } from "~/features/media/media.server";
import { formatProblem, loadContent, type ContentProblem, type ContentSet } from "~/features/content/content-files.server";
import { insertImportedMedia, updateMediaAlt } from "~/features/media/db/media.server";
import { logger } from "~/platform/logger.server";
import { parseLegalContent } from "~/features/legal/db/legal.server";
import { lockContentWrites } from "~/db/content-lock.server";
import { toBool, toCount, toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// Content files → content tables: `npm run content -- import` and the start-up seed.

export type ContentChange = {
  path: string;
  table: "blog_posts" | "legal_documents" | "media";
  key: string;
  action: "create" | "update" | "unchanged";
};
export type ImportReport = { problems: ContentProblem[]; changes: ContentChange[]; written: boolean };

/** Key order must not make identical JSON look different (jsonb reorders keys). */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

type Options = { dryRun?: boolean; onlyIntoEmptyTables?: boolean };

/**
 * Validates DIR and upserts it in one transaction: posts by slug (or id when slugless), legal
 * documents by (document_type, version). Nothing is written when any file is bad or on a dry run;
 * rows whose content is identical are left alone, updated_at included. A post's created_at and
 * updated_at from its file are used when it is created; changed, it gets the import's time.
 */
export async function importContent(db: Kysely<Database>, dir: string, options: Options = {}): Promise<ImportReport> {
  const set = loadContent(dir);
  const images = await checkImages(db, set.media);
  set.problems.push(...images.problems);
  if (set.problems.length) return { problems: set.problems, changes: [], written: false };
  const write = !options.dryRun;

  const run = async (trx: Kysely<Database>) => {
    // Two servers starting at once must not both seed, nor an import meet a legal editor's publish.
    await lockContentWrites(trx);
    const changes: ContentChange[] = [];
    const now = new Date().toISOString();

    const skipPosts = options.onlyIntoEmptyTables && (await rowCount(trx, "blog_posts")) > 0;
    const skipLegal = options.onlyIntoEmptyTables && (await rowCount(trx, "legal_documents")) > 0;

    for (const { path: file, value: post } of skipPosts ? [] : set.posts) {
      const { id, created_at: createdAt, updated_at: updatedAt, ...fields } = post;
      const key = post.slug ?? id!;
      let existing = post.slug
        ? await trx.selectFrom("blog_posts").selectAll().where("slug", "=", post.slug).executeTakeFirst()
        : undefined;
      if (!existing && id) existing = await trx.selectFrom("blog_posts").selectAll().where("id", "=", id).executeTakeFirst();

      if (!existing) {
        changes.push({ path: file, table: "blog_posts", key, action: "create" });
        if (write) {
          await trx
            .insertInto("blog_posts")
            .values({ id: id ?? randomUUID(), ...fields, created_at: createdAt ?? now, updated_at: updatedAt ?? now })
            .execute();
        }
        continue;
      }
      const same =
        existing.slug === fields.slug &&
        existing.title === fields.title &&
        existing.excerpt === fields.excerpt &&
        existing.content === fields.content &&
        existing.category === fields.category &&
        existing.author === fields.author &&
        toIso(existing.published_date) === fields.published_date &&
        Number(existing.read_time) === fields.read_time &&
        existing.image_url === fields.image_url &&
        toBool(existing.featured) === fields.featured &&
        toBool(existing.published) === fields.published;
      changes.push({ path: file, table: "blog_posts", key, action: same ? "unchanged" : "update" });
      if (!same && write) {
        await trx
          .updateTable("blog_posts")
          .set({ ...fields, updated_at: now })
          .where("id", "=", existing.id)
          .execute();
      }
    }

    for (const { path: file, value: doc } of skipLegal ? [] : set.legal) {
      const key = `${doc.document_type}@${doc.version}`;
      const existing = await trx
        .selectFrom("legal_documents")
        .selectAll()
        .where("document_type", "=", doc.document_type)
        .where("version", "=", doc.version)
        .orderBy("last_updated", "desc")
        .executeTakeFirst();
      const content = JSON.stringify(doc.content);
      // The back office's notes about a version, where the file gives them (a file without them
      // leaves a row's own alone).
      const notes = {
        ...(doc.change_summary === undefined ? {} : { change_summary: doc.change_summary }),
        ...(doc.author_email === undefined ? {} : { author_email: doc.author_email }),
        ...(doc.published_at === undefined ? {} : { published_at: doc.published_at }),
        ...(doc.published_by_email === undefined ? {} : { published_by_email: doc.published_by_email }),
      };
      if (!existing) {
        changes.push({ path: file, table: "legal_documents", key, action: "create" });
        if (write) {
          await trx
            .insertInto("legal_documents")
            .values({
              id: randomUUID(),
              document_type: doc.document_type,
              title: doc.title,
              content,
              last_updated: doc.last_updated,
              version: doc.version,
              published: doc.published,
              created_at: now,
              ...notes,
            })
            .execute();
        }
        continue;
      }
      const same =
        existing.title === doc.title &&
        stableJson(parseLegalContent(existing.content)) === stableJson(doc.content) &&
        toIso(existing.last_updated) === doc.last_updated &&
        toBool(existing.published) === doc.published &&
        (doc.change_summary === undefined || existing.change_summary === doc.change_summary) &&
        (doc.author_email === undefined || existing.author_email === doc.author_email) &&
        (doc.published_at === undefined ||
          (existing.published_at !== null && toIso(existing.published_at) === doc.published_at)) &&
        (doc.published_by_email === undefined || existing.published_by_email === doc.published_by_email);
      changes.push({ path: file, table: "legal_documents", key, action: same ? "unchanged" : "update" });
      if (!same && write) {
        await trx
          .updateTable("legal_documents")
          .set({ title: doc.title, content, last_updated: doc.last_updated, published: doc.published, ...notes })
          .where("id", "=", existing.id)
          .execute();
      }
    }
    const skipMedia = options.onlyIntoEmptyTables && (await rowCount(trx, "media")) > 0;
    for (const { path: file, value: image } of skipMedia ? [] : set.media) {
      const existing = await trx.selectFrom("media").select(["sha256", "alt"]).where("id", "=", image.id).executeTakeFirst();
      const action = !existing ? "create" : existing.alt === image.alt ? "unchanged" : "update";
      changes.push({ path: file, table: "media", key: image.id, action });
      if (!write) continue;
      if (action === "create") {
        const described = images.described.get(image.id)!;
        await insertImportedMedia(trx, image.id, {
          fileName: image.file_name,
          originalName: image.original_name,
          contentType: image.content_type,
          width: described.width,
          height: described.height,
          hasAlpha: described.hasAlpha,
          sha256: image.sha256,
          alt: image.alt,
          data: image.data,
          createdBy: null,
          createdAt: image.created_at ?? now,
        });
      } else if (action === "update") {
        await updateMediaAlt(trx, image.id, image.alt);
      }
    }

    return changes;
  };

  const changes = write ? await db.transaction().execute(run) : await run(db);
  return { problems: [], changes, written: write && changes.some((change) => change.action !== "unchanged") };
}

/**
 * The images of a content folder, looked at before anything is written: each must be one of the
 * accepted formats within the caps, decoded whole, and an id already stored must hold the same
 * bytes (an image's URL names its bytes for good: it is never replaced, only uploaded anew).
 */
async function checkImages(db: Kysely<Database>, media: ContentSet["media"]) {
  const problems: ContentProblem[] = [];
  const described = new Map<string, { width: number; height: number; hasAlpha: boolean }>();
  const stored = media.length
    ? await db
        .selectFrom("media")
        .select(["id", "sha256"])
        .where(
          "id",
          "in",
          media.map((entry) => entry.value.id),
        )
        .execute()
    : [];
  const storedSha = new Map(stored.map((row) => [row.id, row.sha256]));
  for (const { path: file, value: image } of media) {
    const sha = storedSha.get(image.id);
    if (sha !== undefined && sha !== image.sha256) {
      problems.push({
        path: file,
        field: "id",
        message: "names an image stored with other bytes (an image is never replaced: upload it anew)",
      });
      continue;
    }
    const result = await describeStoredImage(image.data);
    if (!result.ok) problems.push({ path: file, field: "image", message: result.error });
    else if (result.type !== image.content_type) {
      problems.push({ path: file, field: "content_type", message: `says ${image.content_type}, but the file is ${result.type}` });
    } else described.set(image.id, result);
  }
  return { problems, described };
}

async function rowCount(db: Kysely<Database>, table: "blog_posts" | "legal_documents" | "media"): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  return toCount(row?.count);
}

/** SEED=auto: load DIR into the content tables that are empty. A missing folder is not an error. */
export async function seedContent(db: Kysely<Database>, dir: string): Promise<void> {
  if (!existsSync(dir)) {
    logger.warn({ dir }, "SEED=auto but there is no content folder; nothing seeded");
    return;
  }
  const report = await importContent(db, dir, { onlyIntoEmptyTables: true });
  if (report.problems.length) {
    throw new Error(`the sample content is invalid: ${formatProblem(report.problems[0]!)}`);
  }
  const created = report.changes.filter((change) => change.action === "create").length;
  if (created) logger.info({ dir, rows: created }, "seeded empty content tables");
}

/** The sample content of ./content, for a fresh database (SEED=auto). */
export const seedSampleContent = (db: Kysely<Database>): Promise<void> => seedContent(db, path.resolve("content"));
