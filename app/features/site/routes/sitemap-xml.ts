import type { Route } from "./+types/sitemap-xml";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { sitemapXml } from "~/features/site/sitemap.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { SITEMAP_KEY } from "~/features/cdn/surrogate-keys";

export async function loader({ context }: Route.LoaderArgs) {
  dependsOn(context, SITEMAP_KEY);
  const { SITE_URL: siteUrl, SITE_LOCALES: locales } = getEnv();
  return new Response(await sitemapXml(getDb(), siteUrl, locales), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
