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
import { checkPageFiles, readPageFiles, writePages } from "~/features/pages/page-documents.server";
import { checkPositionFiles, readPositionFiles, writePositions } from "~/features/careers/position-documents.server";
import { retireSampleRolesGrid } from "~/features/careers/sample-roles-grid.server";
import { CAREERS_PATH } from "~/features/careers/careers-path";
import { toBool, toCount, toIso } from "~/db/normalize";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
import type { Database } from "~/db/schema";
import { announceContentChange } from "~/features/content/publish-hook.server";
import { checkMenuLinks, readMenuFiles, writeMenus } from "~/features/navigation/menu-files.server";
import { forgetNavigation } from "~/features/navigation/navigation.server";
import { checkRedirectRules, readRedirectFiles, writeRedirects } from "~/features/redirects/redirect-files.server";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { SITE_KEY } from "~/features/cdn/surrogate-keys";

// Content files → content tables: `npm run content -- import` and the start-up seed.

export type ContentChange = {
  path: string;
  table: "blog_posts" | "legal_documents" | "media" | "content_documents" | "navigation_menus" | "redirects";
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

/** `siteUrl`: the site's own address, which a redirect names by its path (as the back office requires). */
type Options = { dryRun?: boolean; onlyIntoEmptyTables?: boolean; siteUrl?: string };

/** Ends the import's transaction without keeping anything: a refused import, or a dry run. */
class RolledBack extends Error {
  constructor(readonly report: ImportReport) {
    super("content import rolled back");
  }
}

/**
 * Validates DIR and upserts it in one transaction: posts by slug (or id when slugless), legal
 * documents by (document_type, version), menus by name, redirects by old address. Nothing is
 * written when any file is bad or on a dry run; rows whose content is identical are left alone,
 * updated_at included. A post's created_at and updated_at from its file are used when it is
 * created; changed, it gets the import's time. A dry run makes its writes in a transaction it
 * rolls back, so what menus and redirects are checked against is what the import would leave.
 */
export async function importContent(db: Kysely<Database>, dir: string, options: Options = {}): Promise<ImportReport> {
  const set = loadContent(dir);
  const images = await checkImages(db, set.media);
  set.problems.push(...images.problems);
  // Pages (DIR/pages/<name>.yaml, translations in DIR/pages/<language>/) through the page type's
  // schema, published as their files say.
  const pageFiles = readPageFiles(path.join(dir, "pages"), dir, { translations: true });
  const pages = checkPageFiles(pageFiles.files);
  set.problems.push(...pageFiles.problems, ...pages.problems);
  // Open positions (DIR/positions/<slug>.yaml, translations in DIR/positions/<language>/) through
  // the position type's schema, published likewise.
  const positionFiles = readPositionFiles(path.join(dir, "positions"), dir);
  const positions = checkPositionFiles(positionFiles.files);
  set.problems.push(...positionFiles.problems, ...positions.problems);
  // Menus (DIR/navigation) and redirects (DIR/redirects) through the back office's checks; what
  // needs the pages and posts this import brings is checked once they are written, below.
  const menus = await readMenuFiles(db, dir);
  const redirects = readRedirectFiles(dir, options.siteUrl);
  set.problems.push(...menus.problems, ...redirects.problems);
  if (set.problems.length) return { problems: set.problems, changes: [], written: false };

  const run = async (trx: Kysely<Database>) => {
    // Two servers starting at once must not both seed, nor an import meet a legal editor's publish.
    await lockContentWrites(trx);
    const changes: ContentChange[] = [];
    const now = new Date().toISOString();

    const skipPosts = options.onlyIntoEmptyTables && (await rowCount(trx, "blog_posts")) > 0;
    const skipLegal = options.onlyIntoEmptyTables && (await rowCount(trx, "legal_documents")) > 0;

    // The source language's posts first: a translation names its source, which may be new here.
    const posts = skipPosts ? [] : [...set.posts].sort((a, b) => Number(a.value.translation_of !== undefined) - Number(b.value.translation_of !== undefined));
    const translationProblems: ContentProblem[] = [];
    for (const { path: file, value: post } of posts) {
      const { id, created_at: createdAt, updated_at: updatedAt, locale = SOURCE_LOCALE, translation_of: sourceSlug, ...fields } = post;
      const key = post.slug ?? id!;
      let source: { id: string; revision: number } | null = null;
      if (sourceSlug !== undefined) {
        source = await postTranslationSource(trx, sourceSlug);
        if (!source) {
          translationProblems.push({ path: file, field: "translation_of", message: `names "${sourceSlug}", which is the slug of no ${SOURCE_LOCALE} post` });
          continue;
        }
      }
      let existing = post.slug
        ? await trx.selectFrom("blog_posts").selectAll().where("slug", "=", post.slug).executeTakeFirst()
        : undefined;
      if (!existing && id) existing = await trx.selectFrom("blog_posts").selectAll().where("id", "=", id).executeTakeFirst();
      // A translation written now is made from its source as it is now.
      const language = { locale, translation_of: source?.id ?? null, source_revision: source?.revision ?? null };

      if (!existing) {
        changes.push({ path: file, table: "blog_posts", key, action: "create" });
        await trx
          .insertInto("blog_posts")
          .values({ id: id ?? randomUUID(), ...fields, ...language, created_at: createdAt ?? now, updated_at: updatedAt ?? now })
          .execute();
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
        toBool(existing.published) === fields.published &&
        existing.locale === locale &&
        existing.translation_of === language.translation_of;
      changes.push({ path: file, table: "blog_posts", key, action: same ? "unchanged" : "update" });
      if (!same) {
        await trx
          .updateTable("blog_posts")
          .set({ ...fields, ...language, updated_at: now })
          .where("id", "=", existing.id)
          .execute();
      }
    }

    // English versions first: a translation links to the English row of its type and version.
    const legalFiles = [...set.legal].sort((a, b) => Number(a.value.locale !== "en") - Number(b.value.locale !== "en"));
    const legalProblems: ContentProblem[] = [];
    for (const { path: file, value: doc } of skipLegal ? [] : legalFiles) {
      const english = doc.locale === "en";
      const key = `${doc.document_type}@${doc.version}${english ? "" : `@${doc.locale}`}`;
      const existing = await trx
        .selectFrom("legal_documents")
        .selectAll()
        .where("document_type", "=", doc.document_type)
        .where("version", "=", doc.version)
        .where("locale", "=", doc.locale)
        .orderBy("last_updated", "desc")
        .executeTakeFirst();
      // A translation belongs to one English version: the one with its type and version, which must exist.
      const source = english
        ? undefined
        : await trx
            .selectFrom("legal_documents")
            .select(["id", "revision"])
            .where("document_type", "=", doc.document_type)
            .where("version", "=", doc.version)
            .where("locale", "=", "en")
            .orderBy("last_updated", "desc")
            .executeTakeFirst();
      if (!english && !source) {
        legalProblems.push({
          path: file,
          field: "version",
          message: `translates version "${doc.version}" of ${doc.document_type}, which has no English version (a legal/*.md file with the same document_type and version)`,
        });
        continue;
      }
      const link = source
        ? { locale: doc.locale, translation_of: source.id, source_revision: Number(source.revision) }
        : {};
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
            ...link,
          })
          .execute();
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
        (doc.published_by_email === undefined || existing.published_by_email === doc.published_by_email) &&
        (!source ||
          (existing.translation_of === source.id && Number(existing.source_revision) === Number(source.revision)));
      changes.push({ path: file, table: "legal_documents", key, action: same ? "unchanged" : "update" });
      if (!same) {
        await trx
          .updateTable("legal_documents")
          .set({ title: doc.title, content, last_updated: doc.last_updated, published: doc.published, ...notes, ...link })
          .where("id", "=", existing.id)
          .execute();
      }
    }
    const skipMedia = options.onlyIntoEmptyTables && (await rowCount(trx, "media")) > 0;
    for (const { path: file, value: image } of skipMedia ? [] : set.media) {
      const existing = await trx.selectFrom("media").select(["sha256", "alt"]).where("id", "=", image.id).executeTakeFirst();
      const action = !existing ? "create" : existing.alt === image.alt ? "unchanged" : "update";
      changes.push({ path: file, table: "media", key: image.id, action });
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

    const writtenPages = await writePages(trx, pages.pages, { onlyIntoEmpty: options.onlyIntoEmptyTables });
    for (const change of writtenPages.changes) {
      changes.push({ path: change.file, table: "content_documents", key: change.path, action: change.action });
    }
    translationProblems.push(...writtenPages.problems);
    const writtenPositions = await writePositions(trx, positions.positions, { onlyIntoEmpty: options.onlyIntoEmptyTables });
    translationProblems.push(...writtenPositions.problems);
    const positionChanges = writtenPositions.changes;
    for (const change of positionChanges) {
      changes.push({ path: change.file, table: "content_documents", key: change.path, action: change.action });
    }
    // A database seeded before positions were content: its careers page listed the sample's roles itself.
    if (options.onlyIntoEmptyTables && positionChanges.some((change) => change.action === "create")) {
      if (await retireSampleRolesGrid(trx))
        changes.push({ path: "pages/careers.yaml", table: "content_documents", key: CAREERS_PATH, action: "update" });
    }

    const skipMenus = options.onlyIntoEmptyTables && (await rowCount(trx, "navigation_menus")) > 0;
    for (const change of await writeMenus(trx, skipMenus ? [] : menus.menus)) {
      changes.push({ path: change.file, table: "navigation_menus", key: change.menu, action: change.action });
    }
    const skipRedirects = options.onlyIntoEmptyTables && (await rowCount(trx, "redirects")) > 0;
    const redirectEntries = skipRedirects ? [] : redirects.entries;
    const redirectChanges = await writeRedirects(trx, redirectEntries);
    for (const change of redirectChanges) {
      changes.push({ path: change.file, table: "redirects", key: change.fromPath, action: change.action });
    }
    const problems = [
      ...translationProblems,
      ...legalProblems,
      ...(await checkMenuLinks(trx, skipMenus ? [] : menus.menus)),
      ...(await checkRedirectRules(
        trx,
        redirectEntries,
        redirectChanges.map((change) => change.id),
      )),
    ];
    if (problems.length) throw new RolledBack({ problems, changes: [], written: false });
    if (options.dryRun) throw new RolledBack({ problems: [], changes, written: false });
    // An import may change anything: the CDN drops every page it kept.
    if (changes.some((change) => change.action !== "unchanged")) await enqueueCdnPurge(trx, [SITE_KEY]);
    return changes;
  };

  let changes: ContentChange[];
  try {
    changes = await db.transaction().execute(run);
  } catch (error) {
    if (error instanceof RolledBack) return error.report;
    throw error;
  }
  // Every page draws the menus: this server's copy and the pages it cached with them are out of
  // date, as after a save in the back office. Redirects need no telling: the page cache keeps no
  // redirect or 410 answer, and a redirect is only asked where no page is.
  for (const change of changes) {
    if (change.table !== "navigation_menus" || change.action === "unchanged") continue;
    forgetNavigation();
    announceContentChange({ type: "navigation", id: change.key, paths: ["/*"] });
  }
  return { problems: [], changes, written: changes.some((change) => change.action !== "unchanged") };
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

/** The source-language post a translation names by slug, with its current revision (0 before its first edit). */
async function postTranslationSource(trx: Kysely<Database>, slug: string): Promise<{ id: string; revision: number } | null> {
  const source = await trx
    .selectFrom("blog_posts")
    .select("id")
    .where("slug", "=", slug)
    .where("locale", "=", SOURCE_LOCALE)
    .executeTakeFirst();
  if (!source) return null;
  const latest = await trx
    .selectFrom("content_revisions")
    .select((eb) => eb.fn.max("number").as("number"))
    .where("type", "=", "post")
    .where("document_id", "=", source.id)
    .executeTakeFirst();
  return { id: source.id, revision: Number(latest?.number ?? 0) };
}

async function rowCount(
  db: Kysely<Database>,
  table: "blog_posts" | "legal_documents" | "media" | "navigation_menus" | "redirects",
): Promise<number> {
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
