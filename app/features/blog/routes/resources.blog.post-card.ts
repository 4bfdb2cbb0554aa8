import type { Route } from "./+types/resources.blog.post-card";
import { postCardResponse } from "~/features/blog/og-card/cards.server";
import { routeLocale } from "~/features/i18n/request-locale.server";

// A post's social card (og:image): a 1200×630 PNG of its title, category, author and date. Under
// each language's blog, of that language's posts.
export function loader({ request, params, context }: Route.LoaderArgs) {
  return postCardResponse(request, params.slug, context.requestId, routeLocale(request).tag);
}
