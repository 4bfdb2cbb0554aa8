import type { Route } from "./+types/feed-json";
import { jsonFeed } from "~/features/blog/feeds.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POST_FEEDS_KEY } from "~/features/cdn/surrogate-keys";

// JSON Feed 1.1 of the 50 newest posts, or of one category's with ?category=NAME.
export function loader({ request, context }: Route.LoaderArgs) {
  dependsOn(context, POST_FEEDS_KEY);
  return jsonFeed(request);
}
