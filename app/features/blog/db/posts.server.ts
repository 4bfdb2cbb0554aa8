import type { Kysely, Selectable } from "kysely";
import { isUuid, toBool, toCount, toIso } from "~/db/normalize";
import type { BlogPostsTable, Database } from "~/db/schema";

// Blog reads for the pages, the feed and the sitemap. Every read filters on published and on
// published_date: drafts and scheduled posts never leave here, except to the editors' commands
// and to a signed preview link (findPostById, read only after the link's signature checked out).
// Each language's pages read its own posts (`locale`, English unless said): a German post is
// never on an English list or at an English address.

/** A post as lists show it (home block, blog list, feed, sitemap): every column but the content. */
export type BlogPostSummary = {
  id: string;
  slug: string | null;
  /** The post's language (a BCP 47 tag): its address is under that language's blog. */
  locale: string;
  title: string;
  excerpt: string;
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

/** A whole post, content included: only the post page reads one. */
export type BlogPost = BlogPostSummary & { content: string };

type Db = Kysely<Database>;

/** The columns a summary reads: all but the content, which no list shows and which can be a megabyte a post. */
const SUMMARY_COLUMNS = [
  "id",
  "slug",
  "locale",
  "title",
  "excerpt",
  "category",
  "author",
  "published_date",
  "read_time",
  "image_url",
  "featured",
  "published",
  "created_at",
  "updated_at",
] as const satisfies readonly Exclude<keyof BlogPostsTable, "content">[];

type SummaryRow = Pick<Selectable<BlogPostsTable>, (typeof SUMMARY_COLUMNS)[number]>;

export function toBlogPostSummary(row: SummaryRow): BlogPostSummary {
  return {
    id: row.id,
    slug: row.slug,
    locale: row.locale,
    title: row.title,
    excerpt: row.excerpt,
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

export function toBlogPost(row: Selectable<BlogPostsTable>): BlogPost {
  return { ...toBlogPostSummary(row), content: row.content };
}

/**
 * A post is public from the millisecond of its published_date on: compared with the start of the
 * next millisecond, so that a date kept with finer precision (PostgreSQL keeps microseconds, as a
 * column default of now() writes them) is reached within its own millisecond, as the pages,
 * which see milliseconds, say it is.
 */
function publishingCutoff(): string {
  return new Date(Date.now() + 1).toISOString();
}

/**
 * Posts visitors may see: published, and published_date reached. A post scheduled for later
 * appears by itself at that moment (no job, no restart): every read compares with the clock.
 */
function published(db: Db, opts: { category?: string; excludeId?: string; locale?: string | null } = {}) {
  let query = db.selectFrom("blog_posts").where("published", "=", true).where("published_date", "<", publishingCutoff());
  // English unless said; null: every language (the sitemap).
  if (opts.locale !== null) query = query.where("locale", "=", opts.locale ?? "en");
  if (opts.category !== undefined) query = query.where("category", "=", opts.category);
  // A non-UUID can match no row, and PostgreSQL would reject comparing it with a uuid column.
  if (opts.excludeId !== undefined && isUuid(opts.excludeId)) query = query.where("id", "!=", opts.excludeId);
  return query;
}

/** Newest published_date first; id breaks ties so pages never overlap or skip. */
export async function listPublishedPosts(
  db: Db,
  opts: { limit: number; offset?: number; category?: string; excludeId?: string; locale?: string },
): Promise<BlogPostSummary[]> {
  const rows = await published(db, opts)
    .select(SUMMARY_COLUMNS)
    .orderBy("published_date", "desc")
    .orderBy("id", "desc")
    .limit(opts.limit)
    .offset(opts.offset ?? 0)
    .execute();
  return rows.map(toBlogPostSummary);
}

export async function countPublishedPosts(
  db: Db,
  opts: { category?: string; excludeId?: string; locale?: string } = {},
): Promise<number> {
  const row = await published(db, opts)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  return toCount(row?.count);
}

export async function listPublishedCategories(db: Db, locale = "en"): Promise<string[]> {
  const rows = await published(db, { locale }).select("category").distinct().orderBy("category").execute();
  return rows.map((row) => row.category);
}

/** The featured post: the newest published post flagged featured, else the newest published post. */
export async function findFeaturedPost(db: Db, locale = "en"): Promise<BlogPostSummary | undefined> {
  const row = await published(db, { locale })
    .select(SUMMARY_COLUMNS)
    .orderBy("featured", "desc")
    .orderBy("published_date", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && toBlogPostSummary(row);
}

/**
 * A post's URL carries its slug, or its id when it has none; the slug wins. `find` reads one row
 * by the given column (a non-UUID is never looked up as an id: PostgreSQL would reject comparing it).
 */
async function bySlugThenId<T>(slugOrId: string, find: (column: "slug" | "id", value: string) => Promise<T | undefined>) {
  return (await find("slug", slugOrId)) ?? (isUuid(slugOrId) ? await find("id", slugOrId.toLowerCase()) : undefined);
}

export async function findPublishedPost(db: Db, slugOrId: string, locale = "en"): Promise<BlogPost | undefined> {
  const row = await bySlugThenId(slugOrId, (column, value) =>
    published(db, { locale }).selectAll().where(column, "=", value).executeTakeFirst(),
  );
  return row && toBlogPost(row);
}

export async function latestPostUpdate(db: Db, opts: { locale?: string } = {}): Promise<string | undefined> {
  const row = await published(db, opts)
    .select((eb) => eb.fn.max("updated_at").as("latest"))
    .executeTakeFirst();
  return row?.latest == null ? undefined : toIso(row.latest);
}

/** Published posts whose published_date is still ahead, soonest first: what `content status` lists. */
export async function listScheduledPosts(db: Db): Promise<BlogPostSummary[]> {
  const rows = await db
    .selectFrom("blog_posts")
    .select(SUMMARY_COLUMNS)
    .where("published", "=", true)
    .where("published_date", ">=", publishingCutoff())
    .orderBy("published_date")
    .orderBy("id")
    .execute();
  return rows.map(toBlogPostSummary);
}

/** What a post's social card shows, and its version: a few short columns, never the content. */
export type BlogPostCard = Pick<
  BlogPostSummary,
  "id" | "title" | "category" | "author" | "published_date" | "image_url" | "updated_at"
>;

const CARD_COLUMNS = ["id", "title", "category", "author", "published_date", "image_url", "updated_at"] as const;

type CardRow = Pick<Selectable<BlogPostsTable>, (typeof CARD_COLUMNS)[number]>;

function toCard(row: CardRow): BlogPostCard {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    author: row.author,
    published_date: toIso(row.published_date),
    image_url: row.image_url,
    updated_at: toIso(row.updated_at),
  };
}

/** A published post's card fields, found like its page: by slug, else by id. */
export async function findPublishedPostCard(db: Db, slugOrId: string, locale = "en"): Promise<BlogPostCard | undefined> {
  const row = await bySlugThenId(slugOrId, (column, value) =>
    published(db, { locale }).select(CARD_COLUMNS).where(column, "=", value).executeTakeFirst(),
  );
  return row && toCard(row);
}

/**
 * Any post, whatever its state, by slug, else id: for the editors' commands, which name drafts and
 * scheduled posts too. Never for a public page.
 */
export async function findAnyPostSummary(db: Db, slugOrId: string): Promise<BlogPostSummary | undefined> {
  const row = await bySlugThenId(slugOrId, (column, value) =>
    db.selectFrom("blog_posts").select(SUMMARY_COLUMNS).where(column, "=", value).executeTakeFirst(),
  );
  return row && toBlogPostSummary(row);
}

/**
 * One post by id whatever its state (draft, scheduled or published), content included: only a
 * preview link whose signature was verified reads it.
 */
export async function findPostById(db: Db, id: string): Promise<BlogPost | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("blog_posts").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row && toBlogPost(row);
}

/** Visitors see a post once it is published and its published_date has come. */
export function isPublic(post: Pick<BlogPostSummary, "published" | "published_date">, now: number = Date.now()): boolean {
  return post.published && Date.parse(post.published_date) <= now;
}

/** A published post's address, language and the source it translates: what names a post's translations. */
export type PostLink = { id: string; slug: string | null; locale: string; translationOf: string | null; updatedAt: string };

const LINK_COLUMNS = ["id", "slug", "locale", "translation_of", "updated_at"] as const;

const toLink = (row: Pick<Selectable<BlogPostsTable>, (typeof LINK_COLUMNS)[number]>): PostLink => ({
  id: row.id,
  slug: row.slug,
  locale: row.locale,
  translationOf: row.translation_of,
  updatedAt: toIso(row.updated_at),
});

/** The published post of `locale` at its address (slug, else id), as a link. */
export async function findPublishedPostLink(db: Db, slugOrId: string, locale: string): Promise<PostLink | undefined> {
  const row = await bySlugThenId(slugOrId, (column, value) =>
    published(db, { locale }).select(LINK_COLUMNS).where(column, "=", value).executeTakeFirst(),
  );
  return row && toLink(row);
}

/** The published posts of a translation group: the source `sourceId` and its translations. */
export async function listPublishedPostGroup(db: Db, sourceId: string): Promise<PostLink[]> {
  if (!isUuid(sourceId)) return [];
  const rows = await published(db, { locale: null })
    .select(LINK_COLUMNS)
    .where((eb) => eb.or([eb("id", "=", sourceId), eb("translation_of", "=", sourceId)]))
    .orderBy("id")
    .execute();
  return rows.map(toLink);
}

/** Published posts of `locales` as links, in the lists' order (the sitemap reads them in batches). */
export async function listPublishedPostLinks(
  db: Db,
  opts: { locales: readonly string[]; limit: number; offset?: number },
): Promise<PostLink[]> {
  if (!opts.locales.length) return [];
  const rows = await published(db, { locale: null })
    .select(LINK_COLUMNS)
    .where("locale", "in", opts.locales)
    .orderBy("published_date", "desc")
    .orderBy("id", "desc")
    .limit(opts.limit)
    .offset(opts.offset ?? 0)
    .execute();
  return rows.map(toLink);
}
