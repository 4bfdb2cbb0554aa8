import { Feed } from "feed";
import type { Kysely } from "kysely";
import { site } from "~/config/site";
import { getDb } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { getEnv } from "~/env.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { fullDescription } from "~/features/careers/position-page.server";
import { positionLabels, type PositionLabels } from "~/features/careers/position-labels.server";
import { listOpenPositionsIn, openPositionsChangedAt, type PublicPosition } from "~/features/careers/positions.server";
import { catalogMessage, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import type { SiteLocale } from "~/features/i18n/site-locales";
import { routePathIn } from "~/features/i18n/route-paths.server";
import { JSON_FEED_VERSION, feedResponse, jsonFeedResponse, type JsonFeed } from "~/platform/feeds";
import { positionFeedPaths } from "~/features/careers/position-feed-paths.server";
import { escapeXml, withoutXmlForbidden } from "~/platform/xml";

// The open positions as feeds, Atom 1.0 and JSON Feed 1.1 like the blog's: every open position of
// one language, newest first, with its whole description, under that language's careers page
// (/company/careers/atom.xml, /de/unternehmen/karriere/atom.xml) and in its words. They read the
// careers page's query at the moment of the request, so drafts, scheduled versions and closed
// positions are filtered in one place, and a closing date takes effect by the clock (the page
// cache keeps a feed for its freshness second).

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
  /** The language of its positions and words. */
  locale: string;
  title: string;
  description: string;
  siteUrl: string;
  /** The careers page, which the feed follows. */
  homeUrl: string;
  /** Its own addresses, absolute. */
  atomUrl: string;
  jsonUrl: string;
  /** When the open positions last changed (a position went public or closed); the epoch when none ever was. */
  updated: Date;
  entries: PositionFeedEntry[];
};

/**
 * "Research · Remote (European Union) · €70,000–€90,000 a year": the team, where, and the pay when
 * given, in the feed's language.
 */
export function positionFeedSummary(position: PublicPosition, labels: PositionLabels = positionLabels(SOURCE_LOCALE)): string {
  return [position.team, labels.where(position), ...(position.pay ? [labels.pay(position.pay)] : [])].join(" · ");
}

/** The open positions of the language `tag` at `now`, newest first, as the feeds carry them. */
export async function loadPositionFeed(
  db: Db,
  siteUrl: string,
  now: Date = new Date(),
  tag: string = SOURCE_LOCALE,
): Promise<PositionFeed> {
  const [positions, changedAt] = await Promise.all([listOpenPositionsIn(db, tag, now), openPositionsChangedAt(db, now, tag)]);
  const labels = positionLabels(tag);
  const entries = positions
    .map((position) => ({
      id: `urn:uuid:${position.id}`,
      url: `${siteUrl}${position.path}`,
      title: position.title,
      summary: positionFeedSummary(position, labels),
      contentHtml: fullDescription(position, renderMarkup(position.description), labels),
      team: position.team,
      postedAt: new Date(position.postedAt),
    }))
    .sort((a, b) => b.postedAt.getTime() - a.postedAt.getTime() || a.title.localeCompare(b.title));
  const paths = positionFeedPaths(tag);
  return {
    locale: tag,
    title: catalogMessage(tag, "seo.positionsFeed.title", { company: site.company }),
    description: catalogMessage(tag, "seo.positionsFeed.description", { company: site.company }),
    siteUrl,
    homeUrl: `${siteUrl}${routePathIn("careers", tag)}`,
    atomUrl: `${siteUrl}${paths.atom}`,
    jsonUrl: `${siteUrl}${paths.json}`,
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
    language: feed.locale,
    updated: feed.updated,
    copyright: `© ${site.company}`,
    author: { name: site.company, link: feed.siteUrl },
    feedLinks: { atom: feed.atomUrl },
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
  // The library writes no language on an Atom feed: its root element carries it (xml:lang).
  return atom.atom1().replace(/<feed(?=[\s>])/, `<feed xml:lang="${escapeXml(feed.locale)}"`);
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
export function positionsJsonFeed(feed: PositionFeed): JsonFeed {
  return {
    version: JSON_FEED_VERSION,
    title: feed.title,
    home_page_url: feed.homeUrl,
    feed_url: feed.jsonUrl,
    description: feed.description,
    language: feed.locale,
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

/** Where the feeds are read from: the site's database and configuration (a test's own). */
export type PositionFeedSource = { db: Db; siteUrl: string; locales: readonly SiteLocale[] };

const siteSource = (): PositionFeedSource => ({ db: getDb(), siteUrl: getEnv().SITE_URL, locales: getEnv().SITE_LOCALES });

/** The feed at the request's address: its language's positions; 404 in a language the site is not in. */
function feedAt(request: Request, { db, siteUrl, locales }: PositionFeedSource): Promise<PositionFeed> {
  const { tag } = routeLocale(request, locales);
  return loadPositionFeed(db, siteUrl, new Date(), tag);
}

export async function positionsAtomResponse(request: Request, source: PositionFeedSource = siteSource()): Promise<Response> {
  return feedResponse(positionsAtom(await feedAt(request, source)), "atom");
}

export async function positionsJsonFeedResponse(request: Request, source: PositionFeedSource = siteSource()): Promise<Response> {
  return jsonFeedResponse(positionsJsonFeed(await feedAt(request, source)));
}
