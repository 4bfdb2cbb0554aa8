// Blog shapes and limits shared by the server loaders and the components.

/** Home block: one featured post plus at most this many others. */
export const HOME_OTHER_POSTS = 4;
/** "View All Articles" appears on the home page only when more than this many posts are published. */
export const HOME_VIEW_ALL_THRESHOLD = 5;
/** The blog list shows this many non-featured posts per page. */
export const BLOG_PAGE_SIZE = 12;
/** Placeholders in the blog list's loading skeleton. */
export const BLOG_SKELETON_COUNT = 6;

export const BLOG_PATH = "/resources/blog";

/**
 * A post image's box, in cards, on the post page and in post bodies. Images come in any shape (a
 * wide diagram, say) and their size is unknown ahead of time: the 16:9 box keeps the layout still,
 * and the image is fitted whole inside it on a neutral ground, never cropped to fill it.
 */
export const POST_IMAGE_CLASSES = "aspect-video w-full bg-slate-100 object-contain";

/** What a card needs: never the post body, so lists stay small on the wire. */
export type PostSummary = {
  id: string;
  href: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  publishedDate: string;
  readTime: number;
  imageUrl: string | null;
};

/** A post's link carries its slug, or its id when it has none. */
export function postPath(post: { slug: string | null; id: string }): string {
  return `${BLOG_PATH}/${encodeURIComponent(post.slug || post.id)}`;
}

/** The blog list URL for a category and page; "All" and page 1 are the bare path. */
export function blogListPath({ category, page = 1 }: { category?: string; page?: number }): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${BLOG_PATH}?${query}` : BLOG_PATH;
}

export type LatestInsights = { featured: PostSummary | null; others: PostSummary[]; total: number };

export type BlogListQuery = { category?: string; page: number };

export type BlogList = {
  featured: PostSummary | null;
  categories: string[];
  posts: PostSummary[];
  /** Non-featured posts matching the category, across all pages. */
  total: number;
  pageCount: number;
};

/** A post as its page needs it: the body already rendered to safe HTML on the server. */
export type PostPage = PostSummary & { html: string; updatedAt: string };
