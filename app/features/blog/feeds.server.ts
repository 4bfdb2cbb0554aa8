import { Feed } from "feed";
import { data } from "react-router";
import { site } from "~/config/site";
import { getDb } from "~/db/index.server";
import {
  latestPostUpdate,
  listPublishedCategories,
  listPublishedPosts,
  type BlogPostSummary,
} from "~/features/blog/db/posts.server";
import { getEnv } from "~/env.server";
import { isAllowedImageUrl } from "~/features/blog/markup/urls.server";
import { feedPath } from "~/features/blog/feeds";
import { absoluteUrl } from "~/features/site/seo";
import { JSON_FEED_VERSION, feedResponse, jsonFeedResponse, type FeedFormat, type JsonFeed } from "~/platform/feeds";
import { escapeXml, withoutXmlForbidden } from "~/platform/xml";
import { catalogMessage } from "~/features/i18n/messages.server";
import { localizedPath } from "~/features/i18n/route-paths.server";
import { localizedPostPath } from "~/features/i18n/alternates.server";
import type { SiteLocale } from "~/features/i18n/site-locales";

// The blog's feeds: RSS 2.0, Atom 1.0 and JSON Feed 1.1 of the same 50 newest published posts,
// for the whole blog or one category (`?category=NAME`, as on the blog list). All three read
// the same query as the blog pages, so drafts and scheduled posts are filtered in one place.
// Each language has its own, of its own posts, under its prefix (/de/rss.xml); the default
// language's are at the root.

/** Each feed carries the 50 newest published posts, newest first. */
export const FEED_SIZE = 50;
const MAX_CATEGORY_LENGTH = 100;

type FeedData = {
  siteUrl: string;
  locale: SiteLocale;
  category?: string;
  title: string;
  description: string;
  /** The page the feed follows: the blog, or its list filtered to the category. */
  homeUrl: string;
  posts: BlogPostSummary[];
  /** When anything in the feed last changed (for an empty category feed: the blog's latest change). */
  updated: Date;
};

/**
 * `?category=`: missing or empty means the whole blog; over 100 characters is a 400, as on the
 * blog list; a category no published post has is a 404 (a feed's title names its category, and
 * every other value would be a feed of its own).
 */
async function categoryOf(request: Request, db: ReturnType<typeof getDb>, locale: string): Promise<string | undefined> {
  const category = new URL(request.url).searchParams.get("category")?.trim() || undefined;
  if (!category) return undefined;
  if (category.length > MAX_CATEGORY_LENGTH) {
    throw data("Bad request: category must be at most 100 characters.", { status: 400, statusText: "Bad Request" });
  }
  if (!(await listPublishedCategories(db, locale)).includes(category)) {
    throw data("Not found: the blog has no such category.", { status: 404, statusText: "Not Found" });
  }
  return category;
}

/** The language of a feed's address (/rss.xml the default's, /de/rss.xml German's); 404 for one the site is not in. */
function feedLocaleOf(request: Request, locales: readonly SiteLocale[]): SiteLocale {
  const { pathname } = new URL(request.url);
  const prefix = pathname.slice(0, pathname.lastIndexOf("/")).toLowerCase();
  const locale = locales.find((candidate) => candidate.prefix === prefix);
  if (!locale) throw data("Not found: the site is not published in this language.", { status: 404, statusText: "Not Found" });
  return locale;
}

/** Where a feed is read from: the site's database and configuration (a test's own). */
export type FeedSource = { db: ReturnType<typeof getDb>; siteUrl: string; locales: readonly SiteLocale[] };

const siteSource = (): FeedSource => {
  const { SITE_URL: siteUrl, SITE_LOCALES: locales } = getEnv();
  return { db: getDb(), siteUrl, locales };
};

async function loadFeed(request: Request, { db, siteUrl, locales }: FeedSource): Promise<FeedData> {
  const locale = feedLocaleOf(request, locales);
  const category = await categoryOf(request, db, locale.tag);
  const posts = await listPublishedPosts(db, { limit: FEED_SIZE, category, locale: locale.tag });
  const newest = posts.reduce((latest, post) => (post.updated_at > latest ? post.updated_at : latest), "");
  const text = (key: string) =>
    catalogMessage(locale.tag, `seo.feed.${key}`, { company: site.company, category: category ?? "" });
  return {
    updated: new Date(newest || (await latestPostUpdate(db, { locale: locale.tag })) || 0),
    siteUrl,
    locale,
    category,
    title: text(category ? "categoryTitle" : "title"),
    description: text("description"),
    homeUrl: `${siteUrl}${localizedPath("blog", locale)}${category ? `?${new URLSearchParams({ category })}` : ""}`,
    posts,
  };
}

const postUrl = (feed: FeedData, post: BlogPostSummary) => `${feed.siteUrl}${localizedPostPath(post, feed.locale)}`;
const selfUrl = (feed: FeedData, format: FeedFormat) => `${feed.siteUrl}${feed.locale.prefix}${feedPath(format, feed.category)}`;
/** The feed's language as RSS writes it (the English feed's stays en-us), and as Atom and JSON Feed do. */
const rssLanguage = (feed: FeedData) => (feed.locale.tag === "en" ? "en-us" : feed.locale.tag.toLowerCase());
/** A post's image as an absolute URL, when it has one the site allows. */
const imageUrl = (feed: FeedData, post: BlogPostSummary) =>
  post.image_url && isAllowedImageUrl(post.image_url) ? absoluteUrl(feed.siteUrl, post.image_url) : undefined;

/** RSS 2.0 with the author as dc:creator (RSS's own author element must be an email address). */
export async function rssFeed(request: Request, source: FeedSource = siteSource()): Promise<Response> {
  const feed = await loadFeed(request, source);
  const items = feed.posts.map((post) => {
    const link = postUrl(feed, post);
    return [
      "    <item>",
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${new Date(post.published_date).toUTCString()}</pubDate>`,
      `      <dc:creator>${escapeXml(post.author)}</dc:creator>`,
      `      <category>${escapeXml(post.category)}</category>`,
      `      <description>${escapeXml(post.excerpt)}</description>`,
      "    </item>",
    ].join("\n");
  });
  const newest = feed.posts[0] ? new Date(feed.posts[0].published_date).toUTCString() : undefined;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${escapeXml(feed.title)}</title>`,
    `    <link>${escapeXml(feed.homeUrl)}</link>`,
    `    <description>${escapeXml(feed.description)}</description>`,
    `    <language>${escapeXml(rssLanguage(feed))}</language>`,
    `    <atom:link href="${escapeXml(selfUrl(feed, "rss"))}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${newest}</lastBuildDate>`] : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
  return feedResponse(body, "rss");
}

/**
 * Atom 1.0 through the `feed` library. It marks titles and summaries `type="html"`, so the plain
 * text of the database is HTML-escaped first (a title "A <b> tag" must read as written), and the
 * characters XML forbids are dropped from everything.
 */
export async function atomFeed(request: Request, source: FeedSource = siteSource()): Promise<Response> {
  const feed = await loadFeed(request, source);
  const text = withoutXmlForbidden;
  const atom = new Feed({
    id: feed.homeUrl,
    title: text(feed.title),
    description: text(feed.description),
    link: feed.homeUrl,
    language: feed.locale.tag,
    updated: feed.updated,
    copyright: `© ${site.company}`,
    author: { name: site.company, link: feed.siteUrl },
    feedLinks: { atom: selfUrl(feed, "atom") },
  });
  for (const post of feed.posts) {
    const url = postUrl(feed, post);
    atom.addItem({
      id: url,
      link: url,
      title: escapeXml(post.title),
      description: escapeXml(post.excerpt),
      date: new Date(post.updated_at),
      published: new Date(post.published_date),
      author: [{ name: text(post.author) }],
      category: [{ name: text(post.category) }],
    });
  }
  return feedResponse(atom.atom1(), "atom");
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1): the excerpt is each item's text. */
export async function jsonFeed(request: Request, source: FeedSource = siteSource()): Promise<Response> {
  const feed = await loadFeed(request, source);
  const document: JsonFeed = {
    version: JSON_FEED_VERSION,
    title: feed.title,
    home_page_url: feed.homeUrl,
    feed_url: selfUrl(feed, "json"),
    description: feed.description,
    language: feed.locale.tag,
    favicon: `${feed.siteUrl}/favicon.svg`,
    authors: [{ name: site.company, url: feed.siteUrl }],
    items: feed.posts.map((post) => ({
      id: postUrl(feed, post),
      url: postUrl(feed, post),
      title: post.title,
      summary: post.excerpt,
      content_text: post.excerpt,
      image: imageUrl(feed, post),
      date_published: new Date(post.published_date).toISOString(),
      date_modified: new Date(post.updated_at).toISOString(),
      authors: [{ name: post.author }],
      tags: [post.category],
    })),
  };
  return jsonFeedResponse(document);
}
