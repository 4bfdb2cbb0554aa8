import type { Kysely, Selectable } from "kysely";
import { isUuid, toBool, toCount, toIso } from "~/lib/db/normalize";
import type { BlogPostsTable, Database } from "~/lib/db/schema";

// Blog reads for the pages, the feed and the sitemap. Every read filters on published: drafts never leave here.

export type BlogPost = {
  id: string;
  slug: string | null;
  title: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  published_date: string;
  read_time: number;
  image_url: string | null;
  featured: boolean;
  published: boolean;
  created_at: string;
  updated_at: string;
};

type Db = Kysely<Database>;

export function toBlogPost(row: Selectable<BlogPostsTable>): BlogPost {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    category: row.category,
    author: row.author,
    published_date: toIso(row.published_date),
    read_time: Number(row.read_time),
    image_url: row.image_url,
    featured: toBool(row.featured),
    published: toBool(row.published),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

function published(db: Db, opts: { category?: string; excludeId?: string } = {}) {
  let query = db.selectFrom("blog_posts").where("published", "=", true);
  if (opts.category !== undefined) query = query.where("category", "=", opts.category);
  // A non-UUID can match no row, and PostgreSQL would reject comparing it with a uuid column.
  if (opts.excludeId !== undefined && isUuid(opts.excludeId)) query = query.where("id", "!=", opts.excludeId);
  return query;
}

/** Newest published_date first; id breaks ties so pages never overlap or skip. */
export async function listPublishedPosts(
  db: Db,
  opts: { limit: number; offset?: number; category?: string; excludeId?: string },
): Promise<BlogPost[]> {
  const rows = await published(db, opts)
    .selectAll()
    .orderBy("published_date", "desc")
    .orderBy("id", "desc")
    .limit(opts.limit)
    .offset(opts.offset ?? 0)
    .execute();
  return rows.map(toBlogPost);
}

export async function countPublishedPosts(db: Db, opts: { category?: string; excludeId?: string } = {}): Promise<number> {
  const row = await published(db, opts)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  return toCount(row?.count);
}

export async function listPublishedCategories(db: Db): Promise<string[]> {
  const rows = await published(db).select("category").distinct().orderBy("category").execute();
  return rows.map((row) => row.category);
}

/** The featured post: the newest published post flagged featured, else the newest published post. */
export async function findFeaturedPost(db: Db): Promise<BlogPost | undefined> {
  const row = await published(db)
    .selectAll()
    .orderBy("featured", "desc")
    .orderBy("published_date", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && toBlogPost(row);
}

/** A post's URL carries its slug, or its id when it has none; the slug wins. */
export async function findPublishedPost(db: Db, slugOrId: string): Promise<BlogPost | undefined> {
  const bySlug = await published(db).selectAll().where("slug", "=", slugOrId).executeTakeFirst();
  if (bySlug) return toBlogPost(bySlug);
  if (!isUuid(slugOrId)) return undefined;
  const byId = await published(db).selectAll().where("id", "=", slugOrId.toLowerCase()).executeTakeFirst();
  return byId && toBlogPost(byId);
}

export async function latestPostUpdate(db: Db): Promise<string | undefined> {
  const row = await published(db)
    .select((eb) => eb.fn.max("updated_at").as("latest"))
    .executeTakeFirst();
  return row?.latest == null ? undefined : toIso(row.latest);
}
