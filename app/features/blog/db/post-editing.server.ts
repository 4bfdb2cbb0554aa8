import { sql, type Kysely, type Transaction } from "kysely";
import type { PostState } from "~/features/blog/post-state";
import { isUuid, toIso } from "~/db/normalize";
import { toBlogPost, toBlogPostSummary, type BlogPost, type BlogPostSummary } from "~/features/blog/db/posts.server";
import type { Database } from "~/db/schema";
import {
  findRevision as findContentRevision,
  insertRevision as insertContentRevision,
  isUniqueViolation,
  latestRevisionNumber as latestContentRevisionNumber,
  listRevisions as listContentRevisions,
  parseSnapshot as parseStoredSnapshot,
  type Revision as ContentRevision,
  type RevisionAuthor,
  type RevisionInfo,
} from "~/features/content/revisions.server";

// The back office's reads and writes of posts, whatever their state: lists with filters, the
// revisions every save keeps, and the old addresses of renamed posts. Public reads stay in
// posts.server.ts, which never returns a draft.

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/** Everything an editor sets on a post: a revision keeps exactly this. */
export type PostFields = {
  title: string;
  slug: string | null;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  published_date: string;
  read_time: number;
  /** Whether the editor set read_time; otherwise it follows the body. */
  read_time_manual: boolean;
  image_url: string | null;
  featured: boolean;
  published: boolean;
};

export type EditorPostSummary = BlogPostSummary & {
  unpublished_at: string | null;
  locale: string;
  translation_of: string | null;
};
export type EditorPost = BlogPost & {
  unpublished_at: string | null;
  locale: string;
  /** A translation's source post; null for a source. */
  translation_of: string | null;
  /** The source's revision the translation was last brought up to date with. */
  source_revision: number | null;
};

export type { RevisionInfo };
export type Revision = ContentRevision<PostFields>;

export type PostListFilter = { search?: string; state?: PostState; category?: string };

const cutoff = () => new Date(Date.now() + 1).toISOString();

/** Every post, newest change first, narrowed by title words, state and category. */
export async function listPostsForEditors(db: Db, filter: PostListFilter = {}): Promise<EditorPostSummary[]> {
  let query = db.selectFrom("blog_posts").selectAll();
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
  }
  if (filter.category) query = query.where("category", "=", filter.category);
  switch (filter.state) {
    case "draft":
      query = query.where("published", "=", false).where("unpublished_at", "is", null);
      break;
    case "unpublished":
      query = query.where("published", "=", false).where("unpublished_at", "is not", null);
      break;
    case "scheduled":
      query = query.where("published", "=", true).where("published_date", ">=", cutoff());
      break;
    case "published":
      query = query.where("published", "=", true).where("published_date", "<", cutoff());
      break;
  }
  const rows = await query.orderBy("updated_at", "desc").orderBy("id").execute();
  return rows.map((row) => ({
    ...toBlogPostSummary(row),
    unpublished_at: row.unpublished_at == null ? null : toIso(row.unpublished_at),
    locale: row.locale,
    translation_of: row.translation_of,
  }));
}

export async function listAllCategories(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("blog_posts")
    .select("category")
    .distinct()
    .where("category", "!=", "")
    .orderBy("category")
    .execute();
  return rows.map((row) => row.category);
}

export async function findPostForEditor(db: Db | Trx, id: string): Promise<EditorPost | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("blog_posts").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  return (
    row && {
      ...toBlogPost(row),
      unpublished_at: row.unpublished_at == null ? null : toIso(row.unpublished_at),
      locale: row.locale,
      translation_of: row.translation_of,
      source_revision: row.source_revision == null ? null : Number(row.source_revision),
    }
  );
}

/** The post using `slug`, if any: a slug names one post. */
export async function findPostIdBySlug(db: Db | Trx, slug: string): Promise<{ id: string; title: string } | undefined> {
  return db.selectFrom("blog_posts").select(["id", "title"]).where("slug", "=", slug).executeTakeFirst();
}

/** A revision's stored snapshot, as either engine gives it back. */
export function parseSnapshot(value: unknown): PostFields {
  return parseStoredSnapshot<PostFields>(value);
}

// A post's revisions are the content core's, of type "post".

export function listRevisions(db: Db, postId: string): Promise<RevisionInfo[]> {
  return listContentRevisions(db, "post", postId);
}

export function findRevision(db: Db | Trx, postId: string, number: number): Promise<Revision | undefined> {
  return findContentRevision<PostFields>(db, "post", postId, number);
}

/** The newest revision's number, 0 for a post no one has saved in the back office yet. */
export function latestRevisionNumber(db: Db | Trx, postId: string): Promise<number> {
  return latestContentRevisionNumber(db, "post", postId);
}

export type { RevisionAuthor };

export function insertRevision(
  trx: Trx,
  postId: string,
  number: number,
  snapshot: PostFields,
  summary: string,
  author: RevisionAuthor | null,
): Promise<void> {
  return insertContentRevision(trx, { type: "post", documentId: postId, number, snapshot, summary, author });
}

/** The post's row as its fields stand, for a first revision of a post that predates the back office. */
export function fieldsOfPost(post: BlogPost, readTimeManual: boolean): PostFields {
  return {
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    content: post.content,
    category: post.category,
    author: post.author,
    published_date: post.published_date,
    read_time: post.read_time,
    read_time_manual: readTimeManual,
    image_url: post.image_url,
    featured: post.featured,
    published: post.published,
  };
}

/** Writes a post's fields: a new row when `create`, else the post's row. */
export async function writePost(
  trx: Trx,
  id: string,
  fields: PostFields,
  change: {
    create: boolean;
    unpublishedAt: string | null;
    /** A translation made now (its language and source), or brought up to date: the source's revision. */
    translation?: { locale?: string; of?: string; sourceRevision: number };
  },
): Promise<void> {
  const now = new Date().toISOString();
  const { read_time_manual: _manual, ...columns } = fields;
  const { translation } = change;
  if (change.create) {
    // A post's language is set when it is made (English unless it is a translation), never by an edit.
    const language = translation?.locale
      ? { locale: translation.locale, translation_of: translation.of ?? null, source_revision: translation.sourceRevision }
      : {};
    await trx
      .insertInto("blog_posts")
      .values({ id, ...columns, ...language, created_at: now, updated_at: now, unpublished_at: change.unpublishedAt })
      .execute();
  } else {
    await trx
      .updateTable("blog_posts")
      .set({
        ...columns,
        ...(translation ? { source_revision: translation.sourceRevision } : {}),
        updated_at: now,
        unpublished_at: change.unpublishedAt,
      })
      .where("id", "=", id)
      .execute();
  }
}

/** Takes the featured flag off every other post; returns their titles for the editor's note. */
export async function unfeatureOthers(trx: Trx, id: string): Promise<string[]> {
  const others = await trx.selectFrom("blog_posts").select("title").where("featured", "=", true).where("id", "!=", id).execute();
  if (others.length)
    await trx.updateTable("blog_posts").set({ featured: false }).where("featured", "=", true).where("id", "!=", id).execute();
  return others.map((row) => row.title);
}

/**
 * The old address `slug` now leads to post `postId`, and the new one `current` is the post's own
 * again. Redirects name the post, not the next slug, so renames never chain.
 */
export async function keepOldSlug(trx: Trx, postId: string, slug: string, current: string | null): Promise<void> {
  await trx
    .insertInto("blog_slug_redirects")
    .values({ slug, post_id: postId, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("slug").doUpdateSet({ post_id: postId }))
    .execute();
  if (current) await trx.deleteFrom("blog_slug_redirects").where("slug", "=", current).execute();
}

/** A slug in use by a post frees any redirect that had it. */
export async function releaseSlug(trx: Trx, slug: string): Promise<void> {
  await trx.deleteFrom("blog_slug_redirects").where("slug", "=", slug).execute();
}

/** The addresses post `postId` had before, which now lead to it. */
export async function listOldSlugs(db: Db, postId: string): Promise<string[]> {
  const rows = await db.selectFrom("blog_slug_redirects").select("slug").where("post_id", "=", postId).orderBy("slug").execute();
  return rows.map((row) => row.slug);
}

/** Where an old address of a post leads now: the slug (or id) of the post, if it is public. */
export async function findRedirectedPost(db: Db, slug: string, locale = "en"): Promise<string | undefined> {
  const row = await db
    .selectFrom("blog_slug_redirects")
    .innerJoin("blog_posts", "blog_posts.id", "blog_slug_redirects.post_id")
    .select(["blog_posts.slug", "blog_posts.id"])
    .where("blog_slug_redirects.slug", "=", slug)
    // An old address leads to a post of its own language's blog only.
    .where("blog_posts.locale", "=", locale)
    .where("blog_posts.published", "=", true)
    .where("blog_posts.published_date", "<", cutoff())
    .executeTakeFirst();
  return row ? (row.slug ?? row.id) : undefined;
}

export { isUniqueViolation };
