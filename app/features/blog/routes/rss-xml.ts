import type { Route } from "./+types/rss-xml";
import { rssFeed } from "~/features/blog/feeds.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POST_FEEDS_KEY } from "~/features/cdn/surrogate-keys";

// RSS 2.0 of the 50 newest posts, or of one category's with ?category=NAME.
export function loader({ request, context }: Route.LoaderArgs) {
  dependsOn(context, POST_FEEDS_KEY);
  return rssFeed(request);
}
