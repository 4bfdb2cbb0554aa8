import type { MetaDescriptor } from "react-router";

// The syndication feeds the site publishes (the blog's, the open positions'): their media types,
// the answer that carries one, the JSON Feed 1.1 document, and the <link rel="alternate"> tags that
// let readers and browsers find them. Each feature keeps its own feeds' addresses and contents.

export const FEED_TYPES = {
  rss: { type: "application/rss+xml", label: "RSS" },
  atom: { type: "application/atom+xml", label: "Atom" },
  json: { type: "application/feed+json", label: "JSON Feed" },
} as const;
export type FeedFormat = keyof typeof FEED_TYPES;

/** A feed a page advertises: its format, its title (without the format's name) and its site path, query included. */
export type FeedAlternate = { format: FeedFormat; title: string; path: string };

/** `<link rel="alternate">` tags for `feeds`, titled "Title (Format)", with absolute addresses. */
export function feedAlternateLinks(siteUrl: string, feeds: readonly FeedAlternate[]): MetaDescriptor[] {
  return feeds.map((feed) => ({
    tagName: "link",
    rel: "alternate",
    type: FEED_TYPES[feed.format].type,
    title: `${feed.title} (${FEED_TYPES[feed.format].label})`,
    href: `${siteUrl}${feed.path}`,
  }));
}

/** A feed document with its media type. Caching is the page cache's, which stores feeds like pages. */
export function feedResponse(body: string, format: FeedFormat): Response {
  return new Response(body, { headers: { "Content-Type": `${FEED_TYPES[format].type}; charset=utf-8` } });
}

export const JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1";

type JsonFeedAuthor = { name: string; url?: string };

/** An item of a JSON Feed 1.1 (https://jsonfeed.org/version/1.1): an id and some content are required. */
export type JsonFeedItem = {
  id: string;
  url?: string;
  title?: string;
  summary?: string;
  content_text?: string;
  content_html?: string;
  image?: string;
  date_published?: string;
  date_modified?: string;
  authors?: JsonFeedAuthor[];
  tags?: string[];
};

/** A JSON Feed 1.1 document (the `feed` library writes 1.0, hence this type). */
export type JsonFeed = {
  version: typeof JSON_FEED_VERSION;
  title: string;
  home_page_url?: string;
  feed_url?: string;
  description?: string;
  language?: string;
  favicon?: string;
  authors?: JsonFeedAuthor[];
  items: JsonFeedItem[];
};

export function jsonFeedResponse(feed: JsonFeed): Response {
  return feedResponse(`${JSON.stringify(feed, null, 2)}\n`, "json");
}
