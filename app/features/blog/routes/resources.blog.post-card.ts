import type { Route } from "./+types/resources.blog.post-card";
import { postCardResponse } from "~/features/blog/og-card/cards.server";

// A post's social card (og:image): a 1200×630 PNG of its title, category, author and date.
export function loader({ request, params, context }: Route.LoaderArgs) {
  return postCardResponse(request, params.slug, context.requestId);
}
