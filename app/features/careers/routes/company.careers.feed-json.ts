import type { Route } from "./+types/company.careers.feed-json";
import { positionsJsonFeedResponse } from "~/features/careers/position-feeds.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POSITION_LIST_KEY } from "~/features/cdn/surrogate-keys";

// JSON Feed 1.1 of the open positions of the address's language, newest first (under each language's careers page).
export function loader({ request, context }: Route.LoaderArgs) {
  dependsOn(context, POSITION_LIST_KEY);
  return positionsJsonFeedResponse(request);
}
