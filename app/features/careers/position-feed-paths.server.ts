import { site } from "~/config/site";
import { catalogMessage } from "~/features/i18n/messages.server";
import { routePathIn } from "~/features/i18n/route-paths.server";
import type { FeedAlternate } from "~/platform/feeds";

// The open positions' feeds of each language: their addresses, under the language's careers page
// (/company/careers/atom.xml, /de/unternehmen/karriere/atom.xml), and the alternate links of the
// pages that list or show its positions.

/** The feeds' addresses in the language `tag`: under its careers page. */
export function positionFeedPaths(tag: string): { atom: string; json: string } {
  const careers = routePathIn("careers", tag);
  return { atom: `${careers}/atom.xml`, json: `${careers}/feed.json` };
}

/** The alternate links of the pages that list or show the open positions of the language `tag`: its feeds. */
export function positionFeedAlternates(tag: string): FeedAlternate[] {
  const title = catalogMessage(tag, "seo.positionsFeed.title", { company: site.company });
  const paths = positionFeedPaths(tag);
  return [
    { format: "atom", title, path: paths.atom },
    { format: "json", title, path: paths.json },
  ];
}
