import { data, type AppLoadContext } from "react-router";
import { getDb } from "~/db/index.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { jobPostingJsonLd } from "~/features/careers/job-posting";
import { positionFeedAlternates } from "~/features/careers/position-feed-paths.server";
import {
  POSITION_DESCRIPTION_ID,
  POSITION_SLUG_PATTERN,
  WORKPLACES,
  type BoardPosition,
  type PositionListEntry,
  type PositionView,
  positionPath,
  type Position,
} from "~/features/careers/positions";
import { boardCounts, positionLabels, type PositionLabels } from "~/features/careers/position-labels.server";
import {
  boardFiltersOf,
  matchesBoardFilters,
  OPEN_POSITIONS_LIST_ID,
  type BoardChoices,
  type BoardFilters,
} from "~/features/careers/board-filters";
import {
  findPublicPosition,
  listOpenPositions,
  listOpenPositionsIn,
  type PublicPosition,
} from "~/features/careers/positions.server";
import type { PageMetaData } from "~/features/pages/page-meta";
import { getEnv } from "~/env.server";
import { carriedByDocument } from "~/platform/document-html.server";
import { escapeXml } from "~/platform/xml";
import { logger } from "~/platform/logger.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POSITION_LIST_KEY, positionKey } from "~/features/cdn/surrogate-keys";

// The loader of a position's page, /company/careers/<slug>: an open position with its
// description, pay and JobPosting structured data; a closed one answers 410 with the positions
// still open. Where no position is public at the slug, the caller falls back to the pages. Its
// labels are written in the page's language (position-labels.server.ts).

export function positionListEntry(position: PublicPosition, labels: PositionLabels = positionLabels("en")): PositionListEntry {
  return {
    id: position.id,
    title: position.title,
    team: position.team,
    where: labels.where(position),
    path: position.path,
    summary: position.summary,
  };
}

function positionView(position: PublicPosition, labels: PositionLabels): PositionView {
  return {
    id: position.id,
    title: position.title,
    team: position.team,
    summary: position.summary,
    locations: position.locations,
    workplace: labels.workplace(position.workplace),
    remote: position.workplace === "remote",
    where: labels.where(position),
    employmentType: labels.employmentType(position.employmentType),
    pay: position.pay ? labels.pay(position.pay) : null,
    responsibilities: position.responsibilities,
    requirements: position.requirements,
    closesAt: position.closesAt,
  };
}

const list = (heading: string, items: readonly string[]) =>
  items.length ? `<h3>${escapeXml(heading)}</h3><ul>${items.map((item) => `<li>${escapeXml(item)}</li>`).join("")}</ul>` : "";

/**
 * The whole description for job search engines and the feeds: the text, then what the person will
 * do and bring, under the page's headings in `labels`' language.
 */
export function fullDescription(
  position: PublicPosition,
  descriptionHtml: string,
  labels: PositionLabels = positionLabels("en"),
): string {
  const summary = position.summary ? `<p>${escapeXml(position.summary)}</p>` : "";
  const heading = (key: string) => labels.message(`shell.position.${key}`);
  return `${summary}${descriptionHtml}${list(heading("responsibilities"), position.responsibilities)}${list(heading("requirements"), position.requirements)}`;
}

/**
 * The position's page data at `slug` (any case, as the router matched it), or undefined when
 * no position is public there: the pages, redirects and 404 answer instead.
 */
export async function loadPositionPage(
  slug: string,
  context: AppLoadContext,
  /** Another language's careers page and tag: its positions are under it. */
  language?: { careers: string; tag: string },
) {
  const normalized = slug.toLowerCase();
  if (!POSITION_SLUG_PATTERN.test(normalized)) return undefined;
  // Its page, and a closed one's list of the open positions.
  dependsOn(context, POSITION_LIST_KEY);
  const db = getDb();
  const labels = positionLabels(language?.tag ?? "en");
  let found;
  try {
    found = await findPublicPosition(db, normalized, undefined, language?.careers);
    if (found && !found.open) {
      const open = (await (language ? listOpenPositionsIn(db, language.tag) : listOpenPositions(db))).map((entry) =>
        positionListEntry(entry, labels),
      );
      const { title, team, path } = found.position;
      const meta: PageMetaData = {
        title: labels.message("careers.closed.title", { title }),
        description: labels.message("careers.closed.description", { title }),
        path,
        noindex: true,
        feeds: false,
        alternateFeeds: positionFeedAlternates(labels.tag),
        jsonLd: [],
      };
      return data(
        { kind: "position" as const, state: "closed" as const, position: { title, team }, open, meta },
        { status: 410 },
      );
    }
  } catch (error) {
    logger.error({ requestId: context.requestId, err: error, slug: normalized }, "position could not be read");
    return data(
      { kind: "position" as const, state: "failed" as const, meta: null },
      { status: 503, headers: { "Retry-After": "30" } },
    );
  }
  if (!found) return undefined;
  const { position } = found;
  dependsOn(context, positionKey(position.id));
  const html = renderMarkup(position.description);
  const meta: PageMetaData = {
    title: `${position.title}, ${position.team}`,
    description: position.summary || `${position.title}: ${labels.where(position)}.`,
    path: position.path,
    noindex: false,
    feeds: false,
    alternateFeeds: positionFeedAlternates(labels.tag),
    jsonLd: [jobPostingJsonLd({ ...position, descriptionHtml: fullDescription(position, html, labels) }, getEnv().SITE_URL)],
  };
  return data({
    kind: "position" as const,
    state: "open" as const,
    position: positionView(position, labels),
    descriptionHtml: carriedByDocument(context, POSITION_DESCRIPTION_ID, html),
    meta,
  });
}

/** An open position as the careers page lists it. */
export function boardPosition(position: PublicPosition, labels: PositionLabels = positionLabels("en")): BoardPosition {
  return {
    ...positionListEntry(position, labels),
    locations: position.locations,
    workplace: position.workplace,
    employmentType: labels.employmentType(position.employmentType),
    pay: position.pay ? labels.pay(position.pay) : null,
  };
}

/** The filters' choices: the teams, locations and workplaces the open positions have. */
function boardChoices(positions: readonly BoardPosition[]): BoardChoices {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  const workplaces = new Set(positions.map((position) => position.workplace));
  return {
    team: sorted(positions.map((position) => position.team)),
    location: sorted(positions.flatMap((position) => position.locations)),
    workplace: WORKPLACES.filter((workplace) => workplaces.has(workplace)),
  };
}

const hiddenUnless = (shown: boolean) => (shown ? "" : " hidden");

/** Each team's list styles its entries, so an entry carries no classes of its own (fifty entries are most of the page). */
const TEAM_LIST_CLASSES =
  "mt-3 divide-y divide-slate-200 border-y border-slate-200 [&>li]:py-4 [&_a]:text-lg [&_a]:font-semibold [&_a]:text-brand-700 [&_a:hover]:underline [&_p]:mt-1 [&_p]:text-base [&_p]:text-muted [&_p+p]:text-slate-800";

/**
 * The open positions grouped by team, as HTML: each entry says what it is filtered by (its team's
 * group, data-workplace, data-locations), and what the filters leave out is `hidden`, so the list
 * is right without JavaScript; with it, the careers page shows and hides entries itself when the
 * filters change.
 */
function boardListHtml(positions: readonly BoardPosition[], filters: BoardFilters): string {
  const teams = [...new Set(positions.map((position) => position.team))];
  return teams
    .map((team) => {
      const entries = positions.filter((position) => position.team === team);
      const items = entries.map((position) => {
        const facts = [position.where, position.employmentType, position.pay].filter(Boolean).join(" · ");
        const summary = position.summary ? `<p>${escapeXml(position.summary)}</p>` : "";
        return (
          `<li data-workplace="${position.workplace}" data-locations="${escapeXml(JSON.stringify(position.locations))}"${hiddenUnless(matchesBoardFilters(position, filters))}>` +
          `<a href="${escapeXml(position.path)}">${escapeXml(position.title)}</a><p>${escapeXml(facts)}</p>${summary}</li>`
        );
      });
      const shown = entries.some((position) => matchesBoardFilters(position, filters));
      return (
        `<div class="mt-8" data-team="${escapeXml(team)}"${hiddenUnless(shown)}><h3 class="text-xl font-semibold">${escapeXml(team)}</h3>` +
        `<ul class="${TEAM_LIST_CLASSES}">${items.join("")}</ul></div>`
      );
    })
    .join("");
}

export type OpenPositionsBoard = {
  choices: BoardChoices;
  total: number;
  /** How many the filters in the address let through. */
  shown: number;
  /** The line under the filters in the page's language: for all the positions, and for each number the filters let through. */
  counts: { all: string; matching: string[] };
  /** The list's HTML when it is not carried by the document (a navigation in the browser). */
  listHtml: string | undefined;
};

/**
 * The careers page's open positions for the filters in `url`, or null when they cannot be read
 * (the page shows the rest). The list travels once, as HTML in the document; the page's data
 * holds only the filters' choices and the counts.
 */
export async function loadOpenPositionsBoard(
  context: AppLoadContext,
  url: URL,
  locale = "en",
): Promise<OpenPositionsBoard | null> {
  let board: DrawnBoard;
  try {
    // The careers page of a language lists that language's positions, in its words.
    board = drawnBoard(await listOpenPositionsIn(getDb(), locale), locale);
  } catch (error) {
    logger.error({ requestId: context.requestId, err: error }, "open positions could not be read");
    return null;
  }
  const filters = boardFiltersOf(url.searchParams, board.choices);
  const { html, shown } = board.list(filters);
  return {
    choices: board.choices,
    total: board.positions.length,
    shown,
    counts: board.counts,
    listHtml: carriedByDocument(context, OPEN_POSITIONS_LIST_ID, html),
  };
}

/** The board drawn from one list of open positions: its entries, the filters' choices and counts, and its HTML per filters. */
type DrawnBoard = {
  positions: readonly BoardPosition[];
  choices: BoardChoices;
  counts: OpenPositionsBoard["counts"];
  list(filters: BoardFilters): { html: string; shown: number };
};

/** How many filtered lists a board keeps drawn: the unfiltered one and the few that visitors' links share. */
const DRAWN_LISTS = 16;

/**
 * Drawn once per list of open positions (the same array until one changes, opens or closes) and
 * language, not once per render: the careers page with fifty positions spent a millisecond and a
 * half on it.
 */
const drawnBoards = new WeakMap<readonly PublicPosition[], Map<string, DrawnBoard>>();

function drawnBoard(open: readonly PublicPosition[], tag: string): DrawnBoard {
  let languages = drawnBoards.get(open);
  if (!languages) drawnBoards.set(open, (languages = new Map()));
  const known = languages.get(tag);
  if (known) return known;
  const labels = positionLabels(tag);
  const positions = open.map((position) => boardPosition(position, labels));
  const lists = new Map<string, { html: string; shown: number }>();
  const board: DrawnBoard = {
    positions,
    choices: boardChoices(positions),
    counts: boardCounts(labels, positions.length),
    list(filters) {
      const key = `${filters.team}\n${filters.location}\n${filters.workplace}`;
      let drawn = lists.get(key);
      if (!drawn) {
        if (lists.size >= DRAWN_LISTS) lists.clear();
        drawn = {
          html: boardListHtml(positions, filters),
          shown: positions.filter((position) => matchesBoardFilters(position, filters)).length,
        };
        lists.set(key, drawn);
      }
      return drawn;
    },
  };
  languages.set(tag, board);
  return board;
}

/** A position's saved draft as its page would show it in the language `tag`, for previews: no application form, nothing cached. */
export function positionDraftView(position: Position, id: string, tag = "en") {
  const draft: PublicPosition = { ...position, id, path: positionPath(position.slug), postedAt: new Date().toISOString() };
  return { position: positionView(draft, positionLabels(tag)), descriptionHtml: renderMarkup(position.description) };
}
