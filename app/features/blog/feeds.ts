import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";
import { FEED_TYPES, feedAlternateLinks, type FeedFormat } from "~/platform/feeds";

// The blog's feeds, for the whole blog or one category (`?category=NAME`), and the
// <link rel="alternate"> tags that let readers and browsers find them.

export const FEED_FORMATS = {
  rss: { path: "/rss.xml", ...FEED_TYPES.rss },
  atom: { path: "/atom.xml", ...FEED_TYPES.atom },
  json: { path: "/feed.json", ...FEED_TYPES.json },
} as const;

/** A feed's own path, for the whole blog or one category. */
export function feedPath(format: FeedFormat, category?: string): string {
  const { path } = FEED_FORMATS[format];
  return category ? `${path}?${new URLSearchParams({ category })}` : path;
}

/**
 * Alternate links to the blog's feeds in every format, then to `category`'s when given: the feeds
 * of the page's language, under its `prefix` ("" for the default language's).
 */
export function feedLinks(siteUrl: string, category?: string, prefix = ""): MetaDescriptor[] {
  const formats = Object.keys(FEED_FORMATS) as FeedFormat[];
  const scopes = category ? [undefined, category] : [undefined];
  return feedAlternateLinks(
    siteUrl,
    scopes.flatMap((scope) =>
      formats.map((format) => ({
        format,
        title: `${site.company} Blog${scope ? `: ${scope}` : ""}`,
        path: `${prefix}${feedPath(format, scope)}`,
      })),
    ),
  );
}
