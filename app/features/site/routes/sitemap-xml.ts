import { staticPaths } from "~/config/site";
import { postPath } from "~/features/blog/posts";
import { getDb } from "~/db/index.server";
import { listPublishedPosts } from "~/features/blog/db/posts.server";
import { listPublishedPages } from "~/features/pages/page-documents.server";
import { getEnv } from "~/env.server";
import { escapeXml } from "~/platform/xml";

/** A sitemap holds at most 50,000 URLs; posts are read in batches so memory stays bounded. */
const MAX_URLS = 50_000;
const BATCH = 500;

export async function loader() {
  const siteUrl = getEnv().SITE_URL;
  const urls = staticPaths.map((path) => `  <url><loc>${escapeXml(`${siteUrl}${path}`)}</loc></url>`);
  const db = getDb();
  // Pages made in the back office (the site's own pages are listed above), unless kept out of search.
  const listed = new Set<string>(staticPaths);
  for (const page of await listPublishedPages(db))
    if (!page.noindex && !listed.has(page.path)) urls.push(`  <url><loc>${escapeXml(`${siteUrl}${page.path}`)}</loc></url>`);
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
