import { getEnv } from "~/lib/env.server";

export function loader() {
  const body = ["User-agent: *", "Allow: /", "", `Sitemap: ${getEnv().SITE_URL}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
