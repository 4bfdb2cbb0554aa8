import type { Kysely, Transaction } from "kysely";
import { codePaths } from "~/config/site";
import type { Database } from "~/db/schema";
import { isUuid } from "~/db/normalize";
import { BLOG_PATH } from "~/features/blog/posts";
import { findPublishedPost } from "~/features/blog/db/posts.server";
import { findLiveDocument, findPathHolder } from "~/features/content/documents.server";
import { SOCIAL_CARDS_PATH } from "~/features/social-cards/social-card";
import { isOpenAt, type Position } from "~/features/careers/positions";
import { POSITION_FEED_PATHS } from "~/features/careers/position-feeds";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { localizedRouteEntries } from "~/features/i18n/route-paths";
import { localizedPath } from "~/features/i18n/route-paths.server";
import { blogPathOf } from "~/features/blog/blog-paths.server";

// Which paths belong to the site itself, and which of them are pages visitors can open. An old
// address of a redirect may never be one of them (a redirect is only consulted where the site
// would answer 404, so it would never be used, or would start to shadow the page the day it is
// taken away by mistake); a redirect's target and a menu's link on this site must be a live one.
// Each kind of page answers for its own addresses in PATH_OWNERS.

type Db = Kysely<Database> | Transaction<Database>;

/** What owns a path: why it cannot be an old address, and whether visitors find a page there. */
export type PathClaim = { reason: string; live: boolean };
export type PathOwner = (db: Db, path: string) => Promise<PathClaim | undefined> | PathClaim | undefined;

/** Pages written in code; the pages made of blocks are the content core's (contentPages). */
const CODE_PAGES = new Set<string>(codePaths);
const OWN_FILES = new Set(["/robots.txt", "/sitemap.xml", "/rss.xml", "/atom.xml", "/feed.json", "/healthz", "/favicon.svg"]);
// The open positions' feeds, under the careers page.
for (const path of Object.values(POSITION_FEED_PATHS)) OWN_FILES.add(path);
/** Prefixes the site answers itself: the back office, assets, uploaded images, routes under a page, social cards. */
const OWN_PREFIXES = [
  "/admin",
  "/assets",
  "/media",
  "/images",
  `${BLOG_PATH}/preview`,
  "/preview",
  "/terms/privacy-policy/versions",
  "/terms/terms-of-use/versions",
  SOCIAL_CARDS_PATH,
];

// The same routes in every other language with a catalog (route-paths.ts): a fixed address is a
// page or a file, one with a parameter claims what lies under its fixed part.
for (const entry of localizedRouteEntries(Object.fromEntries(CATALOGS))) {
  const path = `/${entry.path}`;
  const parameter = path.indexOf("/:");
  if (parameter !== -1) OWN_PREFIXES.push(path.slice(0, parameter));
  else if (/\.(xml|json)$/.test(path)) OWN_FILES.add(path);
  else CODE_PAGES.add(path);
}

/** The site's fixed routes: pages, feeds and files, the back office, assets and their sub-paths. */
export const fixedRoutes: PathOwner = (_db, path) => {
  if (CODE_PAGES.has(path)) return { reason: "This is a page of the site.", live: true };
  if (OWN_FILES.has(path)) return { reason: "The site answers this address itself.", live: false };
  for (const prefix of OWN_PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`))
      return { reason: `The site answers addresses under ${prefix} itself.`, live: false };
  }
  if (path.startsWith(`${BLOG_PATH}/`) && path.endsWith("/og.png"))
    return { reason: "This is a post's social card.", live: false };
  return undefined;
};

/** A post's address (by slug or id) in its language's blog, published or not, and a post's old slug. */
export const blogPosts: PathOwner = async (db, path) => {
  const found = blogPostOf(path);
  if (found === undefined) return undefined;
  const { slug, locale } = found;
  if (await findPublishedPost(db as Kysely<Database>, slug, locale))
    return { reason: "A post is published at this address.", live: true };
  const post = await db
    .selectFrom("blog_posts")
    .select("id")
    .where("locale", "=", locale)
    .where((eb) => (isUuid(slug) ? eb.or([eb("slug", "=", slug), eb("id", "=", slug)]) : eb("slug", "=", slug)))
    .executeTakeFirst();
  if (post) return { reason: "A post (not public yet, or taken off the site) has this address.", live: false };
  return undefined;
};

/** A page of the content core at this address: live once published (or its scheduled time came). */
export const contentPages: PathOwner = async (db, path) => {
  if (await findLiveDocument(db as Kysely<Database>, "page", path))
    return { reason: "A page of the site is at this address.", live: true };
  const position = await findLiveDocument<Pick<Position, "closesAt">>(db as Kysely<Database>, "position", path);
  // A closed position keeps its address, answering 410.
  if (position) return { reason: "A position is published at this address.", live: isOpenAt(position.data) };
  if (await findPathHolder(db as Kysely<Database>, path))
    return { reason: "A page (not public yet, or taken off the site) has this address.", live: false };
  return undefined;
};

/** The other languages' blogs and careers pages (English's are neither here nor claimed by fixedRoutes). */
const TRANSLATED = [...CATALOGS.keys()]
  .filter((tag) => tag !== SOURCE_LOCALE)
  .map((tag) => ({
    blog: blogPathOf(tag),
    careers: localizedPath("careers", { tag, prefix: `/${tag.toLowerCase()}` }),
  }));

/**
 * A post or position of another language, under its language's blog or careers page: fixedRoutes
 * claims what lies under those addresses (they are routes with a parameter), so the posts and
 * positions there are asked first, as English's are asked at theirs.
 */
export const translatedPostsAndPositions: PathOwner = (db, path) => {
  for (const { blog, careers } of TRANSLATED) {
    if (path.startsWith(`${blog}/`)) return blogPosts(db, path);
    if (path.startsWith(`${careers}/`)) return contentPages(db, path);
  }
  return undefined;
};

/** Every owner, asked in order. Add a feature's own here. */
export const PATH_OWNERS: PathOwner[] = [translatedPostsAndPositions, fixedRoutes, blogPosts, contentPages];

/** Who owns `path` (canonical), if anyone. */
export async function claimOf(db: Db, path: string): Promise<PathClaim | undefined> {
  for (const owner of PATH_OWNERS) {
    const claim = await owner(db, path);
    if (claim) return claim;
  }
  return undefined;
}

/** The slug (or id) in a post's address `/resources/blog/<slug>`, decoded; undefined for any other path. */
export function blogSlugOf(path: string, blog = BLOG_PATH): string | undefined {
  if (!path.startsWith(`${blog}/`)) return undefined;
  const rest = path.slice(blog.length + 1);
  if (rest === "" || rest.includes("/")) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** The slug and language of a post's address in any language's blog (/de/ressourcen/blog/<slug>). */
export function blogPostOf(path: string): { slug: string; locale: string } | undefined {
  for (const tag of CATALOGS.keys()) {
    const slug = blogSlugOf(path, blogPathOf(tag));
    if (slug !== undefined) return { slug, locale: tag };
  }
  return undefined;
}

/** Whether `path` (a site-relative address, perhaps with a query or fragment, as written) is a page visitors can open. */
export async function isLiveSitePath(db: Db, path: string): Promise<boolean> {
  const pathname = path.split(/[?#]/, 1)[0] ?? "";
  if (!pathname.startsWith("/")) return false;
  return (await claimOf(db, pathname))?.live === true;
}
