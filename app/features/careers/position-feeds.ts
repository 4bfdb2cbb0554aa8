import { site } from "~/config/site";
import { CAREERS_PATH } from "~/features/careers/careers-path";
import type { FeedAlternate, FeedFormat } from "~/platform/feeds";

// The open positions' feeds (Atom 1.0 and JSON Feed 1.1): their addresses and title, advertised by
// the careers page and each position's page.

export const POSITION_FEEDS_TITLE = `Open positions at ${site.company}`;

export const POSITION_FEED_PATHS = {
  atom: `${CAREERS_PATH}/atom.xml`,
  json: `${CAREERS_PATH}/feed.json`,
} as const satisfies Partial<Record<FeedFormat, string>>;

/** The alternate links of the pages that list or show open positions. */
export const POSITION_FEED_ALTERNATES: FeedAlternate[] = [
  { format: "atom", title: POSITION_FEEDS_TITLE, path: POSITION_FEED_PATHS.atom },
  { format: "json", title: POSITION_FEEDS_TITLE, path: POSITION_FEED_PATHS.json },
];
