import type { Route } from "./+types/rss-xml";
import { rssFeed } from "~/features/blog/feeds.server";

// RSS 2.0 of the 50 newest posts, or of one category's with ?category=NAME.
export function loader({ request }: Route.LoaderArgs) {
  return rssFeed(request);
}
