import { LRUCache } from "lru-cache";
import { data, type AppLoadContext } from "react-router";
import {
  BLOG_PAGE_SIZE,
  HOME_OTHER_POSTS,
  postPath,
  type BlogList,
  type BlogListQuery,
  type LatestInsights,
  type PostPage,
  type PostPreview,
  type PostSummary,
} from "~/lib/blog";
import { getDb } from "~/lib/db/index.server";
import {
  countPublishedPosts,
  findFeaturedPost,
  findPostById,
  findPublishedPost,
  isPublic,
  listPublishedCategories,
  listPublishedPosts,
  type BlogPost,
  type BlogPostSummary,
} from "~/lib/db/posts.server";
import { responsiveImage } from "~/lib/image-manifest.server";
import { getEnv } from "~/lib/env.server";
import { failed, loaded, notFound, type LoadResult } from "~/lib/load-result";
import { logger } from "~/lib/logger.server";
import { isAllowedImageUrl } from "~/lib/markup/urls.server";
import { renderMarkup } from "~/lib/markup.server";
import { verifyPreviewToken } from "~/lib/preview-token.server";

// The blog's reads, shaped for the pages. Failures are logged with the request id and surface as
// one generic error ("Failed to fetch blog posts"); visitors see the page's error text.

export const FETCH_FAILED = "Failed to fetch blog posts";

export function toSummary(post: BlogPostSummary): PostSummary {
  // Database content is untrusted: an image URL outside the allow-list is dropped.
  const imageUrl = post.image_url && isAllowedImageUrl(post.image_url) ? post.image_url : null;
  return {
    id: post.id,
    href: postPath(post),
    title: post.title,
    excerpt: post.excerpt,
    category: post.category,
    author: post.author,
    publishedDate: post.published_date,
    readTime: post.read_time,
    imageUrl,
    image: responsiveImage(imageUrl),
  };
}

async function guarded<T>(requestId: string | undefined, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    logger.error({ requestId, err: error, what }, FETCH_FAILED);
    throw new Error(FETCH_FAILED);
  }
}

/** Home block: the featured post, the next newest others and a count — never all posts. */
export function loadLatestInsights(requestId?: string): Promise<LatestInsights> {
  return guarded(requestId, "latest insights", async () => {
    const db = getDb();
    const featured = await findFeaturedPost(db);
    if (!featured) return { featured: null, others: [], total: 0 };
    const [others, total] = await Promise.all([
      listPublishedPosts(db, { limit: HOME_OTHER_POSTS, excludeId: featured.id }),
      countPublishedPosts(db),
    ]);
    return { featured: toSummary(featured), others: others.map(toSummary), total };
  });
}

const MAX_CATEGORY_LENGTH = 100;
const MAX_PAGE = 100_000;

/**
 * `?category=` and `?page=` (README "Blog URLs"): a missing or empty value means All / page 1;
 * a page that is not a whole number from 1 up, or an over-long category, is a 400.
 */
export function parseBlogListQuery(url: URL): BlogListQuery {
  const category = url.searchParams.get("category")?.trim() || undefined;
  const rawPage = url.searchParams.get("page")?.trim() || "1";
  const page = /^\d{1,6}$/.test(rawPage) ? Number(rawPage) : NaN;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE || (category && category.length > MAX_CATEGORY_LENGTH)) {
    throw data("Bad request: page must be a whole number from 1 and category at most 100 characters.", {
      status: 400,
      statusText: "Bad Request",
    });
  }
  return { category, page };
}

/** Blog list: the featured post, the chips, and one bounded page of the other posts. */
export function loadBlogList(query: BlogListQuery, requestId?: string): Promise<BlogList> {
  return guarded(requestId, "blog list", async () => {
    const db = getDb();
    const [featured, categories] = await Promise.all([findFeaturedPost(db), listPublishedCategories(db)]);
    const filter = { category: query.category, excludeId: featured?.id };
    const [posts, total] = await Promise.all([
      listPublishedPosts(db, { ...filter, limit: BLOG_PAGE_SIZE, offset: (query.page - 1) * BLOG_PAGE_SIZE }),
      countPublishedPosts(db, filter),
    ]);
    return {
      featured: featured ? toSummary(featured) : null,
      categories,
      posts: posts.map(toSummary),
      total,
      pageCount: Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE)),
    };
  });
}

/** One post by slug, else id, with its content rendered to safe HTML here on the server. */
export async function loadPost(slugOrId: string, requestId?: string): Promise<LoadResult<PostPage>> {
  let post: BlogPost | undefined;
  try {
    post = await guarded(requestId, "post", () => findPublishedPost(getDb(), slugOrId));
  } catch {
    return failed(); // already logged
  }
  if (!post) return notFound();
  return loaded({ ...toSummary(post), html: renderedPost(post), updatedAt: post.updated_at });
}

/**
 * The post a preview link names, whatever its state, while the link is valid. A token that is
 * malformed, altered, signed with another secret or expired, one for a deleted post, and any token
 * on a server without PREVIEW_SECRET are all simply not found: nothing tells them apart, and
 * nothing about the token is logged.
 */
export async function loadPreview(token: string, requestId?: string): Promise<LoadResult<PostPreview>> {
  const secret = getEnv().PREVIEW_SECRET;
  const grant = secret ? verifyPreviewToken(secret, token) : null;
  if (!grant) return notFound();
  let post: BlogPost | undefined;
  try {
    post = await guarded(requestId, "post preview", () => findPostById(getDb(), grant.postId));
  } catch {
    return failed(); // already logged
  }
  if (!post) return notFound();
  const state = !post.published ? "draft" : isPublic(post) ? "published" : "scheduled";
  return loaded({
    post: { ...toSummary(post), html: renderedPost(post), updatedAt: post.updated_at },
    state,
    expiresAt: grant.expiresAt.toISOString(),
  });
}

/**
 * On a whole-document request the article travels in the document's markup only (read back at
 * hydration), not a second time in the router's hydration data. Client navigations get it as data.
 */
export function withArticleInDocument<T extends { id: string; html?: string }>(post: T, context: AppLoadContext): T {
  if (!context.documentRequest) return post;
  context.documentHtml.set(post.id, post.html ?? "");
  return { ...post, html: undefined };
}

/** Rendered articles by post version (id and updated_at): a post is rendered once until it changes. */
const renderedPosts = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (html) => html.length * 2 + 64,
});

function renderedPost(post: BlogPost): string {
  const version = `${post.id}@${post.updated_at}`;
  let html = renderedPosts.get(version);
  if (html === undefined) {
    html = renderMarkup(post.content, { responsiveImage });
    renderedPosts.set(version, html);
  }
  return html;
}
