import { codePaths, staticPaths } from "~/config/site";
import { postPath } from "~/features/blog/posts";
import { getDb } from "~/db/index.server";
import { listPublishedPosts } from "~/features/blog/db/posts.server";
import { listPublishedPages } from "~/features/pages/page-documents.server";
import { listOpenPositions } from "~/features/careers/positions.server";
import { getEnv } from "~/env.server";
import { escapeXml } from "~/platform/xml";

/** A sitemap holds at most 50,000 URLs; posts are read in batches so memory stays bounded. */
const MAX_URLS = 50_000;
const BATCH = 500;

export async function loader() {
  const siteUrl = getEnv().SITE_URL;
  const db = getDb();
  const url = (path: string) => `  <url><loc>${escapeXml(`${siteUrl}${path}`)}</loc></url>`;
  // The pages written in code always; pages made of blocks while published and not kept out of
  // search, the seed's in their usual order first.
  const code = new Set<string>(codePaths);
  const pages = new Map((await listPublishedPages(db)).filter((page) => !page.noindex).map((page) => [page.path, page]));
  const urls = staticPaths.filter((path) => code.has(path) || pages.delete(path)).map(url);
  for (const path of pages.keys()) urls.push(url(path));
  // Open positions only: a closed one answers 410 and leaves search engines.
  for (const position of await listOpenPositions(db))
    urls.push(`  <url><loc>${escapeXml(`${siteUrl}${position.path}`)}</loc><lastmod>${position.postedAt}</lastmod></url>`);
  for (let offset = 0; urls.length < MAX_URLS; offset += BATCH) {
    const posts = await listPublishedPosts(db, { limit: Math.min(BATCH, MAX_URLS - urls.length), offset });
    for (const post of posts) {
      const lastmod = new Date(post.updated_at).toISOString();
      urls.push(`  <url><loc>${escapeXml(`${siteUrl}${postPath(post)}`)}</loc><lastmod>${lastmod}</lastmod></url>`);
    }
    if (posts.length < BATCH) break;
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
