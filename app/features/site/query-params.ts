import { CAMPAIGN_PARAMETERS } from "~/features/leads/attribution";
import { CAREERS_PATH } from "~/features/careers/careers-path";
import { POSITION_FEED_PATHS } from "~/features/careers/position-feeds";

// The query parameters each page reads. Pages echo only these (in links and form actions) and the
// server's page cache keys on only these: any other parameter is ignored by both, so `?x=N`
// cannot force a fresh render, and a cached page never carries one visitor's URL to another.

export const TRACKING_PARAMS = CAMPAIGN_PARAMETERS;

const PAGE_PARAMS: Record<string, readonly string[]> = {
  "/resources/blog": ["category", "page"],
  "/contact-sales": TRACKING_PARAMS,
  "/request-demo": TRACKING_PARAMS,
  // `position`: the application form without JavaScript, opened from a position's page.
  // team, location, workplace: the open positions' filters.
  "/company/careers": ["apply", "position", "team", "location", "workplace", ...TRACKING_PARAMS],
  "/rss.xml": ["category"],
  "/atom.xml": ["category"],
  "/feed.json": ["category"],
  // The open positions' feeds read none (the pattern of a position's page below would match them).
  [POSITION_FEED_PATHS.atom]: [],
  [POSITION_FEED_PATHS.json]: [],
};

/** A position's page opens the application form in place, as the careers page does. */
const POSITION_PAGE_PARAMS: readonly string[] = ["apply", ...TRACKING_PARAMS];
const POSITION_PAGE = new RegExp(`^${CAREERS_PATH}/[^/]+$`);

export function pageQueryParams(pathname: string): readonly string[] {
  return PAGE_PARAMS[pathname] ?? (POSITION_PAGE.test(pathname) ? POSITION_PAGE_PARAMS : []);
}

/** `?…` with only the parameters `pathname` reads (the first value of each, in a fixed order), or "". */
export function keptQuery(pathname: string, search: string | URLSearchParams): string {
  return queryOf(pageQueryParams(pathname), search);
}

/** keptQuery without the campaign's parameters: the query that changes what the page shows. */
export function contentQuery(pathname: string, search: string | URLSearchParams): string {
  return queryOf(
    pageQueryParams(pathname).filter((name) => !(TRACKING_PARAMS as readonly string[]).includes(name)),
    search,
  );
}

function queryOf(names: readonly string[], search: string | URLSearchParams): string {
  if (search === "" || names.length === 0) return "";
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const kept = names.flatMap((name) => {
    const value = params.get(name);
    return value === null ? [] : [[name, value]];
  });
  return kept.length ? `?${new URLSearchParams(kept).toString()}` : "";
}
