import type { Kysely } from "kysely";
import type { BackgroundJob } from "~/background-job.server";
import type { PageSnapshot } from "~/features/content/content-types";
import {
  findPublishedVersions,
  listPublishedFingerprints,
  liveVersion,
  type PublishedVersions,
} from "~/features/content/documents.server";
import { announceContentChange, watchContentChanges } from "~/features/content/publish-hook.server";
import type { PublishedPage } from "~/features/pages/page-documents.server";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";

// The published pages, held in memory by each server, so that drawing a page asks the database
// nothing (the pages in code never did). A watch reads the pages' fingerprints every WATCH_MS and
// the versions of those that changed; what changed on another server (or in the database directly)
// is then told to this server's page cache, so it shows here within WATCH_MS, sooner than the page
// cache's freshness would. A change made on this server marks the copy out of date at once: the
// next page waits for it to be read again. Without the watch (the command line, a stuck watch) a
// page reads them again once they are FRESH_MS old. When the database cannot be read, the pages
// last read are served; before any read, pages answer 503.

type Db = Kysely<Database>;

export const WATCH_MS = 400;
const FRESH_MS = 1_000;
const FAILURE_LOG_MS = 60_000;
const NAME = "published pages";

type Held = {
  byId: Map<string, { fingerprint: string; versions: PublishedVersions<PageSnapshot> }>;
  /** Ids of the pages that have, or will have, a version at a path. */
  byPath: Map<string, string[]>;
  readAt: number;
  /** `changes` when the read began: older than it, the copy misses a change made here. */
  generation: number;
};

let held: Held | undefined;
/** Changes of pages made on this server. */
let changes = 0;
let reading: { generation: number; promise: Promise<Held> } | undefined;
let failureLoggedAt = 0;

watchContentChanges(NAME, (change) => {
  if (change.type === "page") changes += 1;
});

const pathsOf = (versions: PublishedVersions<PageSnapshot> | undefined) =>
  versions ? [versions.published?.path, versions.scheduled?.path].filter((path): path is string => Boolean(path)) : [];

const sameVersion = (a: PublishedVersions<PageSnapshot>["published"], b: PublishedVersions<PageSnapshot>["published"]) =>
  a === b ||
  (a !== null && b !== null && a.path === b.path && a.since === b.since && JSON.stringify(a.data) === JSON.stringify(b.data));

/**
 * Reads what changed since the copy held (every page at first) and swaps it in; each page whose
 * versions changed is announced (but to this copy) unless this is the first read.
 */
async function read(db: Db, generation: number): Promise<Held> {
  const previous = held;
  const fingerprints = await listPublishedFingerprints(db, "page");
  const changedIds = fingerprints
    .filter(({ id, fingerprint }) => previous?.byId.get(id)?.fingerprint !== fingerprint)
    .map(({ id }) => id);
  const fetched = new Map((await findPublishedVersions<PageSnapshot>(db, changedIds)).map((versions) => [versions.id, versions]));
  const byId: Held["byId"] = new Map();
  for (const { id, fingerprint } of fingerprints) {
    const versions = fetched.get(id) ?? previous?.byId.get(id)?.versions;
    // Unpublished between the two reads: the next read sees it gone.
    if (versions)
      byId.set(id, { fingerprint: fetched.has(id) ? fingerprint : (previous?.byId.get(id)?.fingerprint ?? ""), versions });
  }
  const byPath: Held["byPath"] = new Map();
  for (const [id, { versions }] of byId)
    for (const path of pathsOf(versions)) byPath.set(path, [...(byPath.get(path) ?? []), id]);
  const next = { byId, byPath, readAt: Date.now(), generation };
  if (previous) announceChanges(previous, next);
  held = next;
  return next;
}

function announceChanges(previous: Held, next: Held) {
  const now = Date.now();
  for (const id of new Set([...previous.byId.keys(), ...next.byId.keys()])) {
    const before = previous.byId.get(id)?.versions;
    const after = next.byId.get(id)?.versions;
    if (before && after && sameVersion(before.published, after.published) && sameVersion(before.scheduled, after.scheduled))
      continue;
    const at = after?.scheduled && Date.parse(after.scheduled.since) > now ? after.scheduled.since : undefined;
    announceContentChange(
      { type: "page", id, paths: [...new Set([...pathsOf(before), ...pathsOf(after)])], at },
      { except: NAME },
    );
  }
}

/**
 * Reads again, one read at a time: joins the read under way unless a change was made here since it
 * began. A failure leaves the copy held as it was.
 */
function refresh(db: Db): Promise<Held> {
  if (reading && reading.generation === changes) return reading.promise;
  const generation = changes;
  const before = reading?.promise.catch(() => undefined) ?? Promise.resolve();
  const entry = { generation, promise: before.then(() => read(db, generation)) };
  reading = entry;
  entry.promise
    .finally(() => {
      if (reading === entry) reading = undefined;
    })
    .catch(() => undefined);
  return entry.promise;
}

/**
 * The page visitors see at `path` at `now`, from memory: read first when nothing is held yet, when
 * this server changed a page, or when the copy is older than FRESH_MS (no watch running). Throws
 * only when the database fails and nothing was ever read.
 */
export async function findHeldPage(db: Db, path: string, now: Date = new Date()): Promise<PublishedPage | undefined> {
  let pages = held;
  if (!pages || pages.generation < changes || Date.now() - pages.readAt >= FRESH_MS) {
    try {
      pages = await refresh(db);
    } catch (error) {
      if (!held) throw error;
      pages = held;
      logFailure(error);
    }
  }
  const at = now.getTime();
  for (const id of pages.byPath.get(path) ?? []) {
    const live = liveVersion(pages.byId.get(id)!.versions, at);
    if (live?.path === path) return { ...live.data, id, publishedAt: live.since };
  }
  return undefined;
}

function logFailure(error: unknown) {
  if (Date.now() - failureLoggedAt < FAILURE_LOG_MS) return;
  failureLoggedAt = Date.now();
  logger.warn({ err: error }, "the published pages could not be read again; serving the ones read before");
}

/** Drops what is held: the next page reads every page again (a test's fresh database). */
export function forgetHeldPages(): void {
  held = undefined;
}

export const publishedPagesWatchJob: BackgroundJob = {
  name: "published pages watch",
  start: ({ getDb }) => {
    let running: Promise<unknown> | undefined;
    const timer = setInterval(() => {
      // A read slower than WATCH_MS is not queued behind: the next tick after it reads again.
      running ??= refresh(getDb())
        .catch(logFailure)
        .finally(() => (running = undefined));
    }, WATCH_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  },
};
