import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { sitemapXml } from "~/features/site/sitemap.server";

export async function loader() {
  const { SITE_URL: siteUrl, SITE_LOCALES: locales } = getEnv();
  return new Response(await sitemapXml(getDb(), siteUrl, locales), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
