import type { Route } from "./+types/company.careers.feed-json";
import { positionsJsonFeedResponse } from "~/features/careers/position-feeds.server";

// JSON Feed 1.1 of the open positions of the address's language, newest first (under each language's careers page).
export function loader({ request }: Route.LoaderArgs) {
  return positionsJsonFeedResponse(request);
}
