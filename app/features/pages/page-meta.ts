import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";
import { missingPageMeta, pageMeta, shellTextOf, type PageImage } from "~/features/site/seo";
import type { FeedAlternate } from "~/platform/feeds";

/** What a page's meta tags are made of: small, it travels with the page's data. */
export type PageMetaData = {
  title: string;
  description: string;
  path: string;
  /** The page's social card, or the image elsewhere an editor picked instead. */
  image?: string | PageImage;
  noindex: boolean;
  /** A page showing the blog's posts advertises its feeds. */
  feeds: boolean;
  /** Feeds of what the page itself lists (the careers page's and a position's: the open positions). */
  alternateFeeds?: FeedAlternate[];
  jsonLd: Record<string, unknown>[];
};

type PageRouteData = { state: string; meta: PageMetaData | null } | undefined;

/** A page of blocks' title, description, canonical URL, social tags and structured data. */
export function pageRouteMeta(matches: Parameters<typeof pageMeta>[0], data: PageRouteData): MetaDescriptor[] {
  const meta = data?.meta;
  if (!meta) {
    if (data?.state === "failed")
      return [{ title: `${shellTextOf(matches).t("error.short")} | ${site.company}` }, { name: "robots", content: "noindex" }];
    return missingPageMeta(matches, data?.state === "gone" ? "gone" : "notFound");
  }
  const tags = pageMeta(matches, {
    title: meta.title,
    description: meta.description,
    path: meta.path,
    image: meta.image,
    feeds: meta.feeds ? {} : undefined,
    alternateFeeds: meta.alternateFeeds,
    jsonLd: meta.jsonLd,
  });
  if (meta.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** A page's data depends on its path only: a new query (the careers page's ?apply=1) or a form post reloads nothing. */
export function pageShouldRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: {
  currentUrl: URL;
  nextUrl: URL;
  defaultShouldRevalidate: boolean;
}) {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}
