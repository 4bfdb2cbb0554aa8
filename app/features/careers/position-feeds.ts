import { CAREERS_PATH } from "~/features/careers/careers-path";
import type { FeedFormat } from "~/platform/feeds";

// The English open positions' feeds (Atom 1.0 and JSON Feed 1.1): their addresses, which the site
// answers itself (another language's are under its careers page: position-feed-paths.server.ts).

export const POSITION_FEED_PATHS = {
  atom: `${CAREERS_PATH}/atom.xml`,
  json: `${CAREERS_PATH}/feed.json`,
} as const satisfies Partial<Record<FeedFormat, string>>;
