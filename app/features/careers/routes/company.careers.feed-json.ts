import { positionsJsonFeedResponse } from "~/features/careers/position-feeds.server";

// JSON Feed 1.1 of the open positions, newest first.
export function loader() {
  return positionsJsonFeedResponse();
}
