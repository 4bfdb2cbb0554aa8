import type { Route } from "./+types/atom-xml";
import { atomFeed } from "~/features/blog/feeds.server";

// Atom 1.0 of the 50 newest posts, or of one category's with ?category=NAME.
export function loader({ request }: Route.LoaderArgs) {
  return atomFeed(request);
}
