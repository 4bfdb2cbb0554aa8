import type { Kysely } from "kysely";
import type { PositionSnapshot } from "~/features/content/content-types";
import { findDocument, liveVersionOf } from "~/features/content/documents.server";
import { heldDocuments, type HeldLiveVersion } from "~/features/content/held-documents.server";
import { isOpenAt, positionPath, type Position } from "~/features/careers/positions";
import type { Database } from "~/db/schema";
import { memoByClock, nextMomentAfter } from "~/platform/memo-by-clock";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";

// What visitors and applications see of the open positions at the moment asked (a scheduled
// version, and a closing date, take effect by the clock alone): visitors' from the copy each server
// holds, applications' from the database. The pages that show them are served from the page
// cache, which the publish hook keeps current.

type Db = Kysely<Database>;

export type PositionForApplication = {
  id: string;
  title: string;
  state: "open" | "closed" | "draft" | "unknown";
  hiringContacts: string[];
};

/**
 * The position an application names, as it stands at `now`: open or closed when visitors see it,
 * draft when it exists but visitors see nothing of it (never published, taken off the site, or
 * not yet at its scheduled time), unknown otherwise (an id that is not a position's, or no UUID).
 */
export async function findPositionForApplication(db: Db, id: string, now: Date = new Date()): Promise<PositionForApplication> {
  const doc = await findDocument<PositionSnapshot>(db, id);
  if (!doc || doc.type !== "position") return { id, title: "", state: "unknown", hiringContacts: [] };
  const live = liveVersionOf(doc, now.getTime());
  if (!live) return { id: doc.id, title: doc.draft.title, state: "draft", hiringContacts: [] };
  return {
    id: doc.id,
    title: live.data.title,
    state: isOpenAt(live.data, now.getTime()) ? "open" : "closed",
    hiringContacts: live.data.hiringContacts,
  };
}

/**
 * The published positions, held in memory by each server and watched for changes like the pages
 * (decisions 029, 030): the careers page, a position's page, the feeds and the sitemap ask the
 * database nothing. Applications read the database itself (they need drafts too).
 */
const positions = heldDocuments<PositionSnapshot>("position", "published positions");

export const publishedPositionsWatchJob = positions.watchJob;

/** Every position visitors see at `now` (open or closed), from memory: its translations name each other. */
export function listHeldPositions(db: Db, now: Date = new Date()): Promise<readonly HeldLiveVersion<PositionSnapshot>[]> {
  return positions.list(db, now);
}

/** Drops what is held: the next read reads every position again (a test's fresh database). */
export function forgetHeldPositions(): void {
  positions.forget();
}

/** A position visitors see: its fields, its id, and since when it is posted (its first publication, not its latest correction). */
export type PublicPosition = Position & { id: string; path: string; postedAt: string };

const openOf = memoByClock((live: readonly HeldLiveVersion<PositionSnapshot>[], at: number) => ({
  value: live
    .filter((entry) => isOpenAt(entry.data, at))
    .map((entry): PublicPosition => ({ ...entry.data, id: entry.id, path: entry.path, postedAt: entry.firstSince }))
    .sort((a, b) => a.team.localeCompare(b.team) || a.title.localeCompare(b.title)),
  until: nextMomentAfter(
    at,
    live.map((entry) => entry.data.closesAt),
  ),
}));

/**
 * The open positions at `now`, by team then title (the careers page, the sitemap, the feeds): the
 * same array until a position changes, opens or closes, so a page may derive from it once (read only).
 */
export async function listOpenPositions(db: Db, now: Date = new Date()): Promise<readonly PublicPosition[]> {
  return openOf(await positions.list(db, now), now.getTime());
}

/**
 * When the list of open positions of the language `tag` (every language's when none is given) last
 * changed as of `now` (a feed's updated time): the latest moment a position's current version went
 * public or a position closed by its date; undefined while no position is public. A position taken
 * off the site leaves no trace here.
 */
export async function openPositionsChangedAt(db: Db, now: Date = new Date(), tag?: string): Promise<Date | undefined> {
  const held = await positions.list(db, now);
  const live = tag === undefined ? held : held.filter((entry) => positionLocaleOf(entry.path) === tag);
  const moments = live.map((entry) => Date.parse(isOpenAt(entry.data, now.getTime()) ? entry.since : entry.data.closesAt!));
  return moments.length ? new Date(Math.max(...moments)) : undefined;
}

/** A position's language: the one whose prefix begins its path (/de/unternehmen/karriere/…), else English. */
function positionLocaleOf(path: string): string {
  const first = /^\/([^/]+)\//.exec(path)?.[1]?.toLowerCase();
  for (const tag of CATALOGS.keys()) if (tag !== SOURCE_LOCALE && tag.toLowerCase() === first) return tag;
  return SOURCE_LOCALE;
}

const byLanguage = new WeakMap<readonly PublicPosition[], Map<string, readonly PublicPosition[]>>();

/**
 * The open positions of one language's careers page (`tag`), as listOpenPositions orders them:
 * the same array while the whole list is the same, so the board is drawn once per list.
 */
export async function listOpenPositionsIn(db: Db, tag: string, now: Date = new Date()): Promise<readonly PublicPosition[]> {
  const all = await listOpenPositions(db, now);
  let languages = byLanguage.get(all);
  if (!languages) byLanguage.set(all, (languages = new Map()));
  let mine = languages.get(tag);
  if (!mine) languages.set(tag, (mine = all.filter((position) => positionLocaleOf(position.path) === tag)));
  return mine;
}

/** The position visitors see at /company/careers/<slug> at `now`, open or closed; undefined when none is. */
export async function findPublicPosition(
  db: Db,
  slug: string,
  now: Date = new Date(),
  /** The careers page the position is under: another language's (/de/unternehmen/karriere). */
  careers?: string,
): Promise<{ position: PublicPosition; open: boolean } | undefined> {
  const live = await positions.find(db, careers ? `${careers}/${slug}` : positionPath(slug), now);
  if (!live) return undefined;
  return {
    position: { ...live.data, id: live.id, path: live.path, postedAt: live.firstSince },
    open: isOpenAt(live.data, now.getTime()),
  };
}

/**
 * The position the careers page's application form carries when opened without JavaScript from a
 * position's page (?position=<id>): named while it is open; a closed, draft or unknown one is
 * still carried, so the application says what was asked for.
 */
export async function applicationPositionOf(
  db: Db,
  requested: string | null,
): Promise<{ id: string; title: string; open: boolean } | null> {
  if (!requested || requested.length > 100) return null;
  const position = await findPositionForApplication(db, requested);
  return {
    id: position.id,
    title: position.state === "open" || position.state === "closed" ? position.title : "",
    open: position.state === "open",
  };
}
