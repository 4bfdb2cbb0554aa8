// Blog shapes and limits shared by the server loaders and the components.
import type { ResponsiveImage } from "~/features/media/responsive-image";
import { CARD_SIZE } from "~/features/social-cards/social-card";

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

/**
 * How wide a post image is drawn, for a responsive image's `sizes` (the browser picks a variant
 * by it before layout). Pages are at most 1152 px wide with 1 rem padding (1.5 rem from 640 px).
 */
export const POST_IMAGE_SIZES = {
  /** The post page's image and images in the body: the 768 px article less its padding. */
  article: "(min-width: 768px) 720px, (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)",
  /** The featured card: half the page from 1024 px, else the whole width. */
  featured: "(min-width: 1200px) 552px, (min-width: 1024px) calc(50vw - 1.5rem), calc(100vw - 2rem)",
  /** Blog list cards: three columns from 1024 px, two from 640 px. */
  listCard:
    "(min-width: 1200px) 352px, (min-width: 1024px) calc(33vw - 2rem), (min-width: 640px) calc(50vw - 2.25rem), calc(100vw - 2rem)",
  /** Home cards: two columns from 768 px. */
  homeCard: "(min-width: 1200px) 540px, (min-width: 768px) calc(50vw - 2.25rem), calc(100vw - 2rem)",
} as const;

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
  /** Variants of imageUrl when the build made them (a raster file of this site), else null. */
  image: ResponsiveImage | null;
};

/**
 * A post's link carries its slug, or its id when it has none, under its language's blog: `blog`
 * is that blog's address (/resources/blog in English, /de/ressourcen/blog in German: blogPathOf
 * in blog-paths.server.ts, localizedPostPath there for a post with its locale).
 */
export function postPath(post: { slug: string | null; id: string }, blog: string = BLOG_PATH): string {
  return `${blog}/${encodeURIComponent(post.slug || post.id)}`;
}

/** A post's social card (og:image), beside its page: a 1200×630 PNG. */
export const POST_CARD = CARD_SIZE;

export function postCardPath(postHref: string): string {
  return `${postHref}/og.png`;
}

/** The blog list URL (of the blog at `blog`, the English one unless said) for a category and page; "All" and page 1 are the bare path. */
export function blogListPath({ category, page = 1 }: { category?: string; page?: number }, blog: string = BLOG_PATH): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${blog}?${query}` : blog;
}

export type LatestInsights = { featured: PostSummary | null; others: PostSummary[]; total: number };

/** The Latest Insights block's own words and its link to the blog, in the page's language. */
export type LatestInsightsTexts = {
  title: string;
  intro: string;
  loading: string;
  error: string;
  empty: string;
  viewAll: string;
  blogPath: string;
};

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
/** A post page. `html` is the rendered article; a document carries it only in its markup (see document-html). */
export type PostPage = PostSummary & {
  html?: string;
  updatedAt: string;
  /** The text alternative of its social card, in its language. */
  cardAlt: string;
};

/**
 * A private preview link's page, under a language's blog (`blogPath`): the token is one path
 * segment after "preview", so it never meets a post's slug route.
 */
export function previewPath(token: string, blogPath = BLOG_PATH): string {
  return `${blogPath}/preview/${token}`;
}

/** What a preview shows: the post as its page will, its state, and when the link stops working. */
export type PostPreview = {
  post: PostPage;
  /** The post's language, which its preview's banner speaks. */
  locale: string;
  state: "draft" | "scheduled" | "published";
  expiresAt: string;
};
