import { Feed } from "feed";
import type { Kysely } from "kysely";
import { site } from "~/config/site";
import { getDb } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { getEnv } from "~/env.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { fullDescription } from "~/features/careers/position-page.server";
import { POSITION_FEED_PATHS, POSITION_FEEDS_TITLE } from "~/features/careers/position-feeds";
import { CAREERS_PATH, formatPay, positionWhere } from "~/features/careers/positions";
import { listOpenPositions, openPositionsChangedAt, type PublicPosition } from "~/features/careers/positions.server";
import { JSON_FEED_VERSION, feedResponse, jsonFeedResponse, type JsonFeed } from "~/platform/feeds";
import { escapeXml, withoutXmlForbidden } from "~/platform/xml";

// The open positions as feeds, Atom 1.0 and JSON Feed 1.1 like the blog's: every open position,
// newest first, with its whole description. They read the careers page's query at the moment of
// the request, so drafts, scheduled versions and closed positions are filtered in one place, and a
// closing date takes effect by the clock (the page cache keeps a feed for its freshness second).

type Db = Kysely<Database>;

export type PositionFeedEntry = {
  /** `urn:uuid:` and the position's id: a feed reader keeps the entry when its slug changes. */
  id: string;
  url: string;
  title: string;
  /** Team, where, and pay when given. */
  summary: string;
  /** The description as HTML, then what the person will do and bring. */
  contentHtml: string;
  team: string;
  /** Since when the position's current version is public. */
  postedAt: Date;
};

export type PositionFeed = {
  title: string;
  description: string;
  siteUrl: string;
  /** The careers page, which the feed follows. */
  homeUrl: string;
  /** When the open positions last changed (a position went public or closed); the epoch when none ever was. */
  updated: Date;
  entries: PositionFeedEntry[];
};

/** "Research · Remote (European Union) · €70,000–€90,000 a year": the team, where, and the pay when given. */
export function positionFeedSummary(position: PublicPosition): string {
  return [position.team, positionWhere(position), ...(position.pay ? [formatPay(position.pay)] : [])].join(" · ");
}

/** The open positions at `now`, newest first, as the feeds carry them. */
export async function loadPositionFeed(db: Db, siteUrl: string, now: Date = new Date()): Promise<PositionFeed> {
  const [positions, changedAt] = await Promise.all([listOpenPositions(db, now), openPositionsChangedAt(db, now)]);
  const entries = positions
    .map((position) => ({
      id: `urn:uuid:${position.id}`,
      url: `${siteUrl}${position.path}`,
      title: position.title,
      summary: positionFeedSummary(position),
      contentHtml: fullDescription(position, renderMarkup(position.description)),
      team: position.team,
      postedAt: new Date(position.postedAt),
    }))
    .sort((a, b) => b.postedAt.getTime() - a.postedAt.getTime() || a.title.localeCompare(b.title));
  return {
    title: POSITION_FEEDS_TITLE,
    description: `The positions open at ${site.company}: where, the pay, and what the job is.`,
    siteUrl,
    homeUrl: `${siteUrl}${CAREERS_PATH}`,
    updated: changedAt ?? new Date(0),
    entries,
  };
}

/**
 * Atom 1.0 through the `feed` library, as the blog's: it marks titles, summaries and content
 * `type="html"`, so plain text is HTML-escaped first, and the characters XML forbids are dropped
 * from everything.
 */
export function positionsAtom(feed: PositionFeed): string {
  const text = withoutXmlForbidden;
  const atom = new Feed({
    id: feed.homeUrl,
    title: text(feed.title),
    description: text(feed.description),
    link: feed.homeUrl,
    language: "en",
    updated: feed.updated,
    copyright: `© ${site.company}`,
    author: { name: site.company, link: feed.siteUrl },
    feedLinks: { atom: `${feed.siteUrl}${POSITION_FEED_PATHS.atom}` },
  });
  for (const entry of feed.entries) {
    atom.addItem({
      id: entry.id,
      link: entry.url,
      title: escapeXml(entry.title),
      description: escapeXml(entry.summary),
      content: text(entry.contentHtml),
      date: entry.postedAt,
      published: entry.postedAt,
      category: [{ name: text(entry.team) }],
    });
  }
  return atom.atom1();
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
export function positionsJsonFeed(feed: PositionFeed): JsonFeed {
  return {
    version: JSON_FEED_VERSION,
    title: feed.title,
    home_page_url: feed.homeUrl,
    feed_url: `${feed.siteUrl}${POSITION_FEED_PATHS.json}`,
    description: feed.description,
    language: "en",
    favicon: `${feed.siteUrl}/favicon.svg`,
    authors: [{ name: site.company, url: feed.siteUrl }],
    items: feed.entries.map((entry) => ({
      id: entry.id,
      url: entry.url,
      title: entry.title,
      summary: entry.summary,
      content_html: entry.contentHtml,
      date_published: entry.postedAt.toISOString(),
      tags: [entry.team],
    })),
  };
}

export async function positionsAtomResponse(): Promise<Response> {
  return feedResponse(positionsAtom(await loadPositionFeed(getDb(), getEnv().SITE_URL)), "atom");
}

export async function positionsJsonFeedResponse(): Promise<Response> {
  return jsonFeedResponse(positionsJsonFeed(await loadPositionFeed(getDb(), getEnv().SITE_URL)));
}
