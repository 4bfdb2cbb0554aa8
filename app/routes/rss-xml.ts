import { site } from "~/config/site";
import { BLOG_PATH, postPath } from "~/lib/blog";
import { getDb } from "~/lib/db/index.server";
import { listPublishedPosts } from "~/lib/db/posts.server";
import { getEnv } from "~/lib/env.server";
import { escapeXml } from "~/lib/xml";

/** The feed carries the 50 newest published posts, newest first. */
const FEED_SIZE = 50;

// RSS 2.0 over the same query as the blog pages, so drafts are filtered in one place.
export async function loader() {
  const siteUrl = getEnv().SITE_URL;
  const posts = await listPublishedPosts(getDb(), { limit: FEED_SIZE });
  const items = posts.map((post) => {
    const link = `${siteUrl}${postPath(post)}`;
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
  const newest = posts[0] ? new Date(posts[0].published_date).toUTCString() : undefined;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${escapeXml(`${site.company} Blog`)}</title>`,
    `    <link>${escapeXml(`${siteUrl}${BLOG_PATH}`)}</link>`,
    `    <description>${escapeXml(`Insights from ${site.company} on AI security, compliance and governance.`)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${escapeXml(`${siteUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${newest}</lastBuildDate>`] : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}
