import { staticPaths } from "~/config/site";
import { getEnv } from "~/lib/env.server";
import { escapeXml } from "~/lib/xml";

export function loader() {
  const siteUrl = getEnv().SITE_URL;
  const urls = staticPaths.map((path) => `  <url><loc>${escapeXml(`${siteUrl}${path}`)}</loc></url>`);
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
}
