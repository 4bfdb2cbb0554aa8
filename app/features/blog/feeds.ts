import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";

// The blog's feeds, for the whole blog or one category (`?category=NAME`), and the
// <link rel="alternate"> tags that let readers and browsers find them.

export const FEED_FORMATS = {
  rss: { path: "/rss.xml", type: "application/rss+xml", label: "RSS" },
  atom: { path: "/atom.xml", type: "application/atom+xml", label: "Atom" },
  json: { path: "/feed.json", type: "application/feed+json", label: "JSON Feed" },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

/** A feed's own path, for the whole blog or one category. */
export function feedPath(format: FeedFormat, category?: string): string {
  const { path } = FEED_FORMATS[format];
  return category ? `${path}?${new URLSearchParams({ category })}` : path;
}

/** Alternate links to the blog's feeds in every format, then to `category`'s when given. */
export function feedLinks(siteUrl: string, category?: string): MetaDescriptor[] {
  const formats = Object.keys(FEED_FORMATS) as FeedFormat[];
  const scopes = category ? [undefined, category] : [undefined];
  return scopes.flatMap((scope) =>
    formats.map((format) => ({
      tagName: "link",
      rel: "alternate",
      type: FEED_FORMATS[format].type,
      title: `${site.company} Blog${scope ? `: ${scope}` : ""} (${FEED_FORMATS[format].label})`,
      href: `${siteUrl}${feedPath(format, scope)}`,
    })),
  );
}
