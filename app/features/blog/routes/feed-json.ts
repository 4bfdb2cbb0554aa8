import type { Route } from "./+types/feed-json";
import { jsonFeed } from "~/features/blog/feeds.server";

// JSON Feed 1.1 of the 50 newest posts, or of one category's with ?category=NAME.
export function loader({ request }: Route.LoaderArgs) {
  return jsonFeed(request);
}
