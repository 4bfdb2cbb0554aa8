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
} from "~/features/blog/posts";
import { previewSecret } from "~/features/blog/preview-links.server";
import { blogPathOf, localizedPostPath } from "~/features/blog/blog-paths.server";
import { getDb } from "~/db/index.server";
import { findRedirectedPost } from "~/features/blog/db/post-editing.server";
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
} from "~/features/blog/db/posts.server";
import { imageLookupFor, type ImageLookup } from "~/features/media/media.server";
import { carriedByDocument } from "~/platform/document-html.server";
import { catalogMessage } from "~/features/i18n/messages.server";
import { site } from "~/config/site";
import { getEnv } from "~/env.server";
import { failed, loaded, notFound, type LoadResult } from "~/platform/load-result";
import { logger } from "~/platform/logger.server";
import { isAllowedImageUrl } from "~/features/blog/markup/urls.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { verifyPreviewToken, type PreviewGrant } from "~/features/blog/preview-token.server";

// The blog's reads, shaped for the pages. Failures are logged with the request id and surface as
// one generic error ("Failed to fetch blog posts"); visitors see the page's error text.

export const FETCH_FAILED = "Failed to fetch blog posts";

/** Draws the images of these posts (their image_url, and their bodies when given): built-in and uploaded. */
function imagesOf(posts: readonly (BlogPostSummary & { content?: string })[]): Promise<ImageLookup> {
  return imageLookupFor(
    getDb(),
    posts.flatMap((post) => [post.image_url, post.content]),
  );
}

export function toSummary(post: BlogPostSummary, pictures: ImageLookup): PostSummary {
  // Database content is untrusted: an image URL outside the allow-list is dropped.
  const imageUrl = post.image_url && isAllowedImageUrl(post.image_url) ? post.image_url : null;
  return {
    id: post.id,
    href: localizedPostPath(post),
    title: post.title,
    excerpt: post.excerpt,
    category: post.category,
    author: post.author,
    publishedDate: post.published_date,
    readTime: post.read_time,
    imageUrl,
    image: pictures(imageUrl),
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

/** Home block: the featured post, the next newest others and a count — never all posts; the page's language's. */
export function loadLatestInsights(requestId?: string, locale = "en"): Promise<LatestInsights> {
  return guarded(requestId, "latest insights", async () => {
    const db = getDb();
    const featured = await findFeaturedPost(db, locale);
    if (!featured) return { featured: null, others: [], total: 0 };
    const [others, total] = await Promise.all([
      listPublishedPosts(db, { limit: HOME_OTHER_POSTS, excludeId: featured.id, locale }),
      countPublishedPosts(db, { locale }),
    ]);
    const pictures = await imagesOf([featured, ...others]);
    return { featured: toSummary(featured, pictures), others: others.map((post) => toSummary(post, pictures)), total };
  });
}

const MAX_CATEGORY_LENGTH = 100;
const MAX_PAGE = 100_000;

/**
 * `?category=` and `?page=` (docs/content.md, Blog): a missing or empty value means All / page 1;
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

/**
 * `category` when a published post has it, else undefined; throws (logged) when the database
 * cannot say. Only existing categories are shown or named back: anything else a visitor types in
 * `?category=` would otherwise appear in headings and titles and make a page of its own.
 */
export async function publishedCategory(
  category: string | undefined,
  requestId?: string,
  locale = "en",
): Promise<string | undefined> {
  if (!category) return undefined;
  const categories = await guarded(requestId, "categories", () => listPublishedCategories(getDb(), locale));
  return categories.includes(category) ? category : undefined;
}

/** Blog list (of one language's posts): the featured post, the chips, and one bounded page of the other posts. */
export function loadBlogList(query: BlogListQuery, requestId?: string, locale = "en"): Promise<BlogList> {
  return guarded(requestId, "blog list", async () => {
    const db = getDb();
    const [featured, categories] = await Promise.all([findFeaturedPost(db, locale), listPublishedCategories(db, locale)]);
    const filter = { category: query.category, excludeId: featured?.id, locale };
    const [posts, total] = await Promise.all([
      listPublishedPosts(db, { ...filter, limit: BLOG_PAGE_SIZE, offset: (query.page - 1) * BLOG_PAGE_SIZE }),
      countPublishedPosts(db, filter),
    ]);
    const pictures = await imagesOf(featured ? [featured, ...posts] : posts);
    return {
      featured: featured ? toSummary(featured, pictures) : null,
      categories,
      posts: posts.map((post) => toSummary(post, pictures)),
      total,
      pageCount: Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE)),
    };
  });
}

/** One post (of the language `locale`) by slug, else id, with its content rendered to safe HTML here on the server. */
export async function loadPost(slugOrId: string, requestId?: string, locale = "en"): Promise<LoadResult<PostPage>> {
  let page: PostPage | undefined;
  try {
    const post = await guarded(requestId, "post", () => findPublishedPost(getDb(), slugOrId, locale));
    page = post && (await postPage(post, requestId));
  } catch {
    return failed(); // already logged
  }
  return page ? loaded(page) : notFound();
}

/**
 * Where an address a post had before its slug changed leads now (its current page), if anywhere.
 * A failed lookup counts as nowhere: the caller is answering "not found" already.
 */
export async function movedPostPath(slug: string, requestId?: string, locale = "en"): Promise<string | undefined> {
  try {
    const current = await guarded(requestId, "post redirect", () => findRedirectedPost(getDb(), slug, locale));
    return current === undefined ? undefined : postPath({ slug: current, id: current }, blogPathOf(locale));
  } catch {
    return undefined;
  }
}

/**
 * The post a preview link names, whatever its state, while the link is valid. A token that is
 * malformed, altered, signed with another secret or expired, and one for a deleted post are all
 * simply not found: nothing tells them apart, and nothing about the token is logged.
 */
export async function loadPreview(token: string, requestId?: string): Promise<LoadResult<PostPreview>> {
  let found: { post: BlogPost | undefined; grant: PreviewGrant } | undefined;
  try {
    found = await guarded(requestId, "post preview", async () => {
      const grant = verifyPreviewToken(await previewSecret(getDb(), getEnv()), token);
      return grant ? { grant, post: await findPostById(getDb(), grant.postId) } : undefined;
    });
  } catch {
    return failed(); // already logged
  }
  if (!found) return notFound();
  const { post, grant } = found;
  if (!post) return notFound();
  const state = !post.published ? "draft" : isPublic(post) ? "published" : "scheduled";
  let page: PostPage;
  try {
    page = await postPage(post, requestId);
  } catch {
    return failed(); // already logged
  }
  return loaded({
    post: page,
    locale: post.locale,
    state,
    expiresAt: grant.expiresAt.toISOString(),
  });
}

/**
 * On a whole-document request the article travels in the document's markup only (read back at
 * hydration), not a second time in the router's hydration data. Client navigations get it as data.
 */
export function withArticleInDocument<T extends { id: string; html?: string }>(post: T, context: AppLoadContext): T {
  return { ...post, html: carriedByDocument(context, post.id, post.html ?? "") };
}

/** Rendered articles by post version (id and updated_at): a post is rendered once until it changes. */
const renderedPosts = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (html) => html.length * 2 + 64,
});

function renderedPost(post: BlogPost, pictures: ImageLookup): string {
  const version = `${post.id}@${post.updated_at}`;
  let html = renderedPosts.get(version);
  if (html === undefined) {
    html = renderMarkup(post.content, { responsiveImage: pictures });
    renderedPosts.set(version, html);
  }
  return html;
}

/** A post's page: its summary and its rendered body, images drawn as pictures where they can be. */
async function postPage(post: BlogPost, requestId?: string): Promise<PostPage> {
  const pictures = await guarded(requestId, "post images", () => imagesOf([post]));
  return {
    ...toSummary(post, pictures),
    html: renderedPost(post, pictures),
    updatedAt: post.updated_at,
    cardAlt: catalogMessage(post.locale, "seo.postCardAlt", {
      title: post.title,
      category: post.category,
      author: post.author,
      company: site.company,
    }),
  };
}
