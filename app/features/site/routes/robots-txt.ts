import { getEnv } from "~/env.server";

export function loader() {
  // The back office is private: crawlers are asked to stay out (its pages also say noindex).
  const body = ["User-agent: *", "Allow: /", "Disallow: /admin", "", `Sitemap: ${getEnv().SITE_URL}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
