import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { logger } from "../logger.server";
import { isValidLegalContent, legalDocumentTypes, parseLegalContent, type LegalContent } from "./legal.server";
import { dialectOf, toBool, toCount, toIso } from "./normalize";
import type { Database } from "./schema";
import type { BlogPost } from "./posts.server";

// Content files → content tables: validation, the start-up seed and `npm run content -- import`.
// Layout: DIR/posts/*.md (one post each) and DIR/legal/*.md (one legal document each).

export type ContentProblem = { path: string; field: string; message: string };
export type ContentChange = {
  path: string;
  table: "blog_posts" | "legal_documents";
  key: string;
  action: "create" | "update" | "unchanged";
};
export type ImportReport = { problems: ContentProblem[]; changes: ContentChange[]; written: boolean };

export function formatProblem(problem: ContentProblem): string {
  return `${problem.path}: ${problem.field}: ${problem.message}`;
}

// ——— validation ———

const required = (what: string) => (issue: { input: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);
const text = () => z.string({ error: required("text") }).trim().min(1, "must not be empty");
const flag = () => z.boolean({ error: required("true or false") });
const timestamp = () =>
  z.union([z.date(), z.string()], { error: required("a date such as 2025-03-14") }).transform((value, ctx) => {
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "must be a date such as 2025-03-14 or 2025-03-14T09:30:00Z" });
      return z.NEVER;
    }
    return date.toISOString();
  });
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const urlPattern = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

const PostFrontMatter = z.strictObject({
  id: z.uuid({ error: "must be a UUID such as 3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a15" }).transform((id) => id.toLowerCase()).optional(),
  title: text().max(200, "must be at most 200 characters"),
  slug: z
    .string({ error: "must be text (lowercase words joined by hyphens)" })
    .regex(slugPattern, "must be lowercase letters, digits and single hyphens, e.g. ai-governance-basics")
    .nullable()
    .optional(),
  excerpt: text().max(500, "must be at most 500 characters"),
  category: text().max(60, "must be at most 60 characters"),
  author: text().max(100, "must be at most 100 characters"),
  published_date: timestamp(),
  read_time: z.int({ error: required("a whole number of minutes") }).min(1, "must be at least 1").max(600, "must be at most 600"),
  image_url: z.string({ error: "must be text" }).regex(urlPattern, "must be an http(s) URL or a site path starting with /").nullable().optional(),
  featured: flag().default(false),
  published: flag(),
});

const LegalFrontMatter = z.strictObject({
  document_type: z.enum(legalDocumentTypes as [string, ...string[]], { error: `must be one of ${legalDocumentTypes.join(", ")}` }),
  title: text().max(200, "must be at most 200 characters"),
  version: z
    .string({ error: (issue) => (typeof issue.input === "number" ? 'must be quoted text, e.g. version: "1.0" (YAML reads 1.0 as the number 1)' : "must be text") })
    .trim()
    .min(1, "must not be empty")
    .default("1.0"),
  last_updated: timestamp(),
  published: flag(),
});

/** A post as written in a content file: the row without its timestamps, the id optional. */
export type ContentPost = Omit<BlogPost, "id" | "created_at" | "updated_at"> & { id?: string };
export type ContentLegal = {
  document_type: string;
  title: string;
  version: string;
  last_updated: string;
  published: boolean;
  content: LegalContent;
};
type Parsed<T> = { path: string; value: T };
export type ContentSet = { posts: Parsed<ContentPost>[]; legal: Parsed<ContentLegal>[]; problems: ContentProblem[] };

function zodProblems(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { path: file, field: issue.keys.join(", "), message: "is not a known field (check the spelling)" };
    }
    return { path: file, field: issue.path.join(".") || "front matter", message: issue.message };
  });
}

function readMarkdown(file: string, shown: string, problems: ContentProblem[]) {
  try {
    // A fresh object each time: gray-matter caches by content, and its YAML errors carry the line.
    const parsed = matter(readFileSync(file, "utf8"), {});
    return { data: parsed.data as Record<string, unknown>, body: parsed.content };
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "unreadable";
    problems.push({ path: shown, field: "front matter", message: `is not valid YAML (${message})` });
    return undefined;
  }
}

/** `## ` headings split a legal document's body into its sections (SPEC.md §5 structure). */
export function splitLegalSections(body: string): { content?: LegalContent; error?: string } {
  const sections: { title: string; lines: string[] }[] = [];
  const preamble: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const heading = /^## +(.+?)\s*$/.exec(line);
    if (heading) sections.push({ title: heading[1]!, lines: [] });
    else (sections.at(-1)?.lines ?? preamble).push(line);
  }
  if (preamble.join("").trim()) return { error: "has text before the first '## ' section heading" };
  if (sections.length === 0) return { error: "needs at least one section starting with a '## ' heading" };
  const empty = sections.find((section) => !section.lines.join("").trim());
  if (empty) return { error: `section "${empty.title}" has no text` };
  const content = { sections: sections.map((section) => ({ title: section.title, content: section.lines.join("\n").trim() })) };
  return isValidLegalContent(content) ? { content } : { error: "Invalid document content structure" };
}

function markdownFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => path.join(folder, name));
}

/** Reads and validates every file under DIR; problems list every bad field of every bad file. */
export function loadContent(dir: string): ContentSet {
  const set: ContentSet = { posts: [], legal: [], problems: [] };
  const shownDir = path.relative(process.cwd(), dir) || ".";
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    set.problems.push({ path: shownDir, field: "folder", message: "does not exist" });
    return set;
  }
  const postFiles = markdownFiles(path.join(dir, "posts"));
  const legalFiles = markdownFiles(path.join(dir, "legal"));
  if (postFiles.length + legalFiles.length === 0) {
    set.problems.push({ path: shownDir, field: "folder", message: "has no posts/*.md or legal/*.md files" });
  }

  const slugs = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const file of postFiles) {
    const shown = path.relative(process.cwd(), file);
    const markdown = readMarkdown(file, shown, set.problems);
    if (!markdown) continue;
    const result = PostFrontMatter.safeParse(markdown.data);
    const content = markdown.body.trim();
    if (!content) set.problems.push({ path: shown, field: "body", message: "is empty (the post text goes below the front matter)" });
    // Checked on the raw data so it is reported alongside every other bad field, not after them.
    if (!markdown.data.slug && !markdown.data.id) {
      set.problems.push({ path: shown, field: "id", message: "is required when there is no slug (a post without a slug is keyed and linked by its id)" });
    }
    if (!result.success) {
      set.problems.push(...zodProblems(shown, result.error));
      continue;
    }
    const post = result.data;
    for (const [key, value, seen] of [["slug", post.slug, slugs], ["id", post.id, ids]] as const) {
      if (!value) continue;
      const other = seen.get(value);
      if (other) set.problems.push({ path: shown, field: key, message: `"${value}" is also used by ${other}` });
      else seen.set(value, shown);
    }
    if (content && (post.slug || post.id)) set.posts.push({ path: shown, value: { ...post, slug: post.slug ?? null, image_url: post.image_url ?? null, content } });
  }

  const legalKeys = new Map<string, string>();
  for (const file of legalFiles) {
    const shown = path.relative(process.cwd(), file);
    const markdown = readMarkdown(file, shown, set.problems);
    if (!markdown) continue;
    const result = LegalFrontMatter.safeParse(markdown.data);
    const sections = splitLegalSections(markdown.body);
    if (sections.error) set.problems.push({ path: shown, field: "body", message: sections.error });
    if (!result.success) {
      set.problems.push(...zodProblems(shown, result.error));
      continue;
    }
    const key = `${result.data.document_type} ${result.data.version}`;
    const other = legalKeys.get(key);
    if (other) set.problems.push({ path: shown, field: "version", message: `${key} is also defined by ${other}` });
    legalKeys.set(key, shown);
    if (sections.content) set.legal.push({ path: shown, value: { ...result.data, content: sections.content } });
  }
  return set;
}

// ——— writing ———

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
        await trx.updateTable("blog_posts").set({ ...fields, updated_at: now }).where("id", "=", existing.id).execute();
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
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as("count")).executeTakeFirst();
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
