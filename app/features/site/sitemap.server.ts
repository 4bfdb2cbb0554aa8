import { codePaths, staticPaths } from "~/config/site";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { listPublishedPostLinks } from "~/features/blog/db/posts.server";
import { listPublishedPages } from "~/features/pages/page-documents.server";
import { listOpenPositions } from "~/features/careers/positions.server";
import { escapeXml } from "~/platform/xml";
import type { SiteLocale } from "~/features/i18n/site-locales";
import {
  documentLocaleOf,
  listTranslationSources,
  localizedPostPath,
  sitemapLanguageRoutes,
} from "~/features/i18n/alternates.server";

// The sitemap: every page visitors can open, in every language the site is in.

/** A sitemap holds at most 50,000 URLs; posts are read in batches so memory stays bounded. */
const MAX_URLS = 50_000;
const BATCH = 500;

/** One page of the sitemap: its path, its language, and the translation group it belongs to (if any). */
type Entry = { path: string; tag: string; lastmod?: string; group?: string };

/**
 * Every page of every language the site is in; on a site in more than one, each page that has
 * translations names them all (xhtml:link alternates with x-default), on each of them.
 */
export async function sitemapXml(db: Kysely<Database>, siteUrl: string, locales: readonly SiteLocale[]): Promise<string> {
  const multilingual = locales.length > 1;
  const configured = new Set(locales.map((locale) => locale.tag));
  const defaultTag = locales[0]!.tag;
  // What each published page or position translates (only a site in several languages asks).
  const sources = multilingual ? await listTranslationSources(db) : new Map<string, string>();
  const languageRoutes = sitemapLanguageRoutes(locales);
  const entries: Entry[] = [];
  // The pages written in code always; pages made of blocks while published and not kept out of
  // search, the seed's in their usual order first; each language's only when the site is in it.
  const code = new Set<string>(codePaths);
  const pages = new Map(
    (await listPublishedPages(db))
      .filter((page) => !page.noindex && configured.has(documentLocaleOf(page.path, locales)))
      .map((page) => [page.path, page]),
  );
  const pageEntry = (path: string): Entry => {
    const page = pages.get(path);
    const group = page ? `doc:${sources.get(page.id) ?? page.id}` : languageRoutes.groupOf(path);
    return { path, tag: documentLocaleOf(path, locales), group };
  };
  for (const path of staticPaths.filter((path) => code.has(path) || pages.has(path))) {
    entries.push(pageEntry(path));
    if (!code.has(path)) pages.delete(path);
  }
  for (const path of pages.keys()) entries.push(pageEntry(path));
  // The forms, the blog and the legal documents in the other languages, at their own addresses.
  entries.push(...(await languageRoutes.others(db)));
  // Open positions only: a closed one answers 410 and leaves search engines.
  for (const position of await listOpenPositions(db)) {
    const tag = documentLocaleOf(position.path, locales);
    if (!configured.has(tag)) continue;
    entries.push({
      path: position.path,
      tag,
      lastmod: position.postedAt,
      group: `doc:${sources.get(position.id) ?? position.id}`,
    });
  }
  const tags = locales.map((locale) => locale.tag);
  for (let offset = 0; entries.length < MAX_URLS; offset += BATCH) {
    const posts = await listPublishedPostLinks(db, { locales: tags, limit: Math.min(BATCH, MAX_URLS - entries.length), offset });
    for (const post of posts) {
      const locale = locales.find((candidate) => candidate.tag === post.locale)!;
      const lastmod = new Date(post.updatedAt).toISOString();
      entries.push({
        path: localizedPostPath(post, locale),
        tag: post.locale,
        lastmod,
        group: `post:${post.translationOf ?? post.id}`,
      });
    }
    if (posts.length < BATCH) break;
  }

  // Each page's versions (its translation group's, one per language), named on every one of them.
  const groups = new Map<string, Map<string, string>>();
  if (multilingual)
    for (const entry of entries) {
      if (!entry.group) continue;
      const members = groups.get(entry.group) ?? new Map<string, string>();
      if (!members.has(entry.tag)) members.set(entry.tag, entry.path);
      groups.set(entry.group, members);
    }
  const absolute = (path: string) => escapeXml(`${siteUrl}${path}`);
  const alternates = (entry: Entry) => {
    const members = entry.group ? groups.get(entry.group) : undefined;
    if (!members || members.size < 2) return "";
    const links = tags.flatMap((tag) => {
      const path = members.get(tag);
      return path === undefined ? [] : [`<xhtml:link rel="alternate" hreflang="${tag}" href="${absolute(path)}"/>`];
    });
    const byDefault = members.get(defaultTag);
    if (byDefault !== undefined) links.push(`<xhtml:link rel="alternate" hreflang="x-default" href="${absolute(byDefault)}"/>`);
    return links.join("");
  };
  const urls = entries.map(
    (entry) =>
      `  <url><loc>${absolute(entry.path)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ""}${alternates(entry)}</url>`,
  );
  const namespaces = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${multilingual ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : ""}`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${namespaces}>\n${urls.join("\n")}\n</urlset>\n`;
}
