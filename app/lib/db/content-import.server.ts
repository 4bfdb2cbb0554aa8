import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { sql, type Kysely } from "kysely";
import { formatProblem, loadContent, type ContentProblem } from "~/lib/content-files.server";
import { logger } from "~/lib/logger.server";
import { parseLegalContent } from "~/lib/db/legal.server";
import { dialectOf, toBool, toCount, toIso } from "~/lib/db/normalize";
import type { Database } from "~/lib/db/schema";

// Content files → content tables: `npm run content -- import` and the start-up seed.

export type ContentChange = {
  path: string;
  table: "blog_posts" | "legal_documents";
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
 * rows whose content is identical are left alone, updated_at included.
 */
export async function importContent(db: Kysely<Database>, dir: string, options: Options = {}): Promise<ImportReport> {
  const set = loadContent(dir);
  if (set.problems.length) return { problems: set.problems, changes: [], written: false };
  const write = !options.dryRun;

  const run = async (trx: Kysely<Database>) => {
    await lockForImport(trx);
    const changes: ContentChange[] = [];
    const now = new Date().toISOString();

    const skipPosts = options.onlyIntoEmptyTables && (await rowCount(trx, "blog_posts")) > 0;
    const skipLegal = options.onlyIntoEmptyTables && (await rowCount(trx, "legal_documents")) > 0;

    for (const { path: file, value: post } of skipPosts ? [] : set.posts) {
      const { id, ...fields } = post;
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
            .values({ id: id ?? randomUUID(), ...fields, created_at: now, updated_at: now })
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
            })
            .execute();
        }
        continue;
      }
      const same =
        existing.title === doc.title &&
        stableJson(parseLegalContent(existing.content)) === stableJson(doc.content) &&
        toIso(existing.last_updated) === doc.last_updated &&
        toBool(existing.published) === doc.published;
      changes.push({ path: file, table: "legal_documents", key, action: same ? "unchanged" : "update" });
      if (!same && write) {
        await trx
          .updateTable("legal_documents")
          .set({ title: doc.title, content, last_updated: doc.last_updated, published: doc.published })
          .where("id", "=", existing.id)
          .execute();
      }
    }
    return changes;
  };

  const changes = write ? await db.transaction().execute(run) : await run(db);
  return { problems: [], changes, written: write && changes.some((change) => change.action !== "unchanged") };
}

/**
 * Two servers starting at once must not both seed: PostgreSQL takes a transaction-scoped advisory
 * lock; SQLite takes its write lock up front with a write that touches no row.
 */
async function lockForImport(trx: Kysely<Database>) {
  if (!trx.isTransaction) return;
  if (dialectOf(trx) === "postgres") await sql`select pg_advisory_xact_lock(${sql.lit(0x51c0ae7)})`.execute(trx);
  else await sql`update blog_posts set id = id where 1 = 0`.execute(trx);
}

async function rowCount(db: Kysely<Database>, table: "blog_posts" | "legal_documents"): Promise<number> {
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
