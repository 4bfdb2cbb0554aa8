import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";
import { feedLinks } from "~/features/blog/feeds";
import { feedAlternateLinks, type FeedAlternate } from "~/platform/feeds";
import { localeOfPath, type SiteLocale } from "~/features/i18n/site-locales";
import { shellText, type ShellData, type ShellText } from "~/ui/shell-text";

type RootMatch = { id: string; data?: unknown } | undefined;

/** SITE_URL as handed to the browser by the root loader (the only env value that reaches it). */
export function siteUrlFrom(matches: readonly RootMatch[]): string {
  const root = matches.find((match) => match?.id === "root")?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}

/** The prefix of the language `path` is in ("" for the default's, and on a site in one language). */
function localePrefixFrom(matches: readonly RootMatch[], path: string): string {
  const root = matches.find((match) => match?.id === "root")?.data as { locales?: SiteLocale[] } | undefined;
  return root?.locales ? localeOfPath(path, root.locales).prefix : "";
}

/** The frame's texts for a meta function, from the root's match: the page's language. */
export function shellTextOf(matches: readonly RootMatch[]): ShellText {
  const root = matches.find((match) => match?.id === "root")?.data as { shell?: ShellData } | undefined;
  return shellText(root?.shell);
}

/** The head of a page that is not there (404) or removed (410), in the page's language. */
export function missingPageMeta(matches: readonly RootMatch[], why: "notFound" | "gone" = "notFound"): MetaDescriptor[] {
  const { t } = shellTextOf(matches);
  return [
    { title: `${t(`${why}.title`)} | ${site.company}` },
    { name: "description", content: t(`${why}.description`) },
    { name: "robots", content: "noindex" },
  ];
}

export type PageImage = { url: string; width: number; height: number; alt: string };

export type PageMetaInput = {
  title: string;
  description: string;
  path: string;
  /** A URL (absolute, or a site path), or an image whose size and text alternative are known. */
  image?: string | null | PageImage;
  type?: "website" | "article";
  /** Extra JSON-LD objects (the Organization one is on every page already). */
  jsonLd?: Record<string, unknown>[];
  /** Pages about the blog advertise its feeds (and their category's, when there is one). */
  feeds?: { category?: string };
  /** Feeds of what the page itself lists (the careers page's open positions), after the blog's. */
  alternateFeeds?: readonly FeedAlternate[];
};

/** Title, description, canonical URL, Open Graph and Twitter tags for one page. */
export function pageMeta(matches: readonly RootMatch[], input: PageMetaInput): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(matches);
  const url = `${siteUrl}${input.path}`;
  const title = input.path === "/" ? `${site.company} — ${site.headline}` : `${input.title} | ${site.company}`;
  const described = typeof input.image === "object" && input.image ? input.image : undefined;
  const imageUrl = typeof input.image === "string" ? input.image : described?.url;
  const image = imageUrl ? absoluteUrl(siteUrl, imageUrl) : undefined;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.company },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: input.description },
  ];
  if (image) tags.push({ property: "og:image", content: image });
  if (described) {
    tags.push(
      { property: "og:image:width", content: String(described.width) },
      { property: "og:image:height", content: String(described.height) },
      { property: "og:image:alt", content: described.alt },
    );
  }
  if (image) tags.push({ name: "twitter:image", content: image });
  if (described) tags.push({ name: "twitter:image:alt", content: described.alt });
  if (input.feeds) tags.push(...feedLinks(siteUrl, input.feeds.category, localePrefixFrom(matches, input.path)));
  if (input.alternateFeeds) tags.push(...feedAlternateLinks(siteUrl, input.alternateFeeds));
  for (const data of input.jsonLd ?? []) tags.push({ "script:ld+json": data });
  return tags;
}

export function organizationJsonLd(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.company,
    url: siteUrl || undefined,
    logo: siteUrl ? `${siteUrl}/favicon.svg` : undefined,
    foundingDate: String(site.foundedYear),
    sameAs: site.social.map((link) => link.href),
  };
}

/** A site path made absolute under `siteUrl`; an http(s) URL stays as it is. */
export function absoluteUrl(siteUrl: string, url: string) {
  return /^https?:\/\//.test(url) ? url : `${siteUrl}${url.startsWith("/") ? "" : "/"}${url}`;
}
