import type { Kysely } from "kysely";
import type { BackgroundJob } from "~/background-job.server";
import type { ContentTypeId } from "~/features/content/content-types";
import {
  findPublishedVersions,
  listPublishedFingerprints,
  liveVersion,
  type PublishedVersions,
} from "~/features/content/documents.server";
import { announceContentChange, watchContentChanges } from "~/features/content/publish-hook.server";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";
import { memoByClock, nextMomentAfter } from "~/platform/memo-by-clock";

// The published documents of one type, held in memory by each server, so that drawing a page asks
// the database nothing (decision 029: pages; open positions the same way). A watch reads the
// documents' fingerprints every WATCH_MS and the versions of those that changed; what changed on
// another server (or in the database directly) is then told to this server's page cache, so it
// shows here within WATCH_MS, sooner than the page cache's freshness would. A change made on this
// server marks the copy out of date at once: the next read waits for it. Without the watch (the
// command line, a stuck watch) the copy is read again once it is FRESH_MS old. When the database
// cannot be read, the documents last read are served; before any read, the read throws.

type Db = Kysely<Database>;

export const WATCH_MS = 400;
const FRESH_MS = 1_000;
const FAILURE_LOG_MS = 60_000;

/** A live version of a held document: what visitors see, where, since when, and since when it is posted at all. */
export type HeldLiveVersion<Snapshot> = {
  id: string;
  data: Snapshot;
  path: string;
  since: string;
  firstSince: string;
  /** The source document this one translates (null for a source): its translation group. */
  translationOf: string | null;
};

type Held<Snapshot> = {
  byId: Map<string, { fingerprint: string; versions: PublishedVersions<Snapshot> }>;
  /** Ids of the documents that have, or will have, a version at a path. */
  byPath: Map<string, string[]>;
  readAt: number;
  /** `changes` when the read began: older than it, the copy misses a change made here. */
  generation: number;
};

export type HeldDocuments<Snapshot> = {
  /** The version visitors see at `path` at `now`, if any. */
  find(db: Db, path: string, now?: Date): Promise<HeldLiveVersion<Snapshot> | undefined>;
  /**
   * Every version visitors see at `now`, by path: the same array for every caller until the copy
   * is read again or a scheduled version goes live, so callers may derive from it once (read only).
   */
  list(db: Db, now?: Date): Promise<readonly HeldLiveVersion<Snapshot>[]>;
  /** Drops what is held: the next read reads every document again (a test's fresh database). */
  forget(): void;
  watchJob: BackgroundJob;
};

const pathsOf = <Snapshot>(versions: PublishedVersions<Snapshot> | undefined) =>
  versions ? [versions.published?.path, versions.scheduled?.path].filter((path): path is string => Boolean(path)) : [];

type Version<Snapshot> = PublishedVersions<Snapshot>["published"];
const sameVersion = <Snapshot>(a: Version<Snapshot>, b: Version<Snapshot>) =>
  a === b ||
  (a !== null && b !== null && a.path === b.path && a.since === b.since && JSON.stringify(a.data) === JSON.stringify(b.data));

const liveOf = <Snapshot>(id: string, versions: PublishedVersions<Snapshot>, at: number): HeldLiveVersion<Snapshot> | null => {
  const live = liveVersion(versions, at);
  return (
    live && {
      id,
      data: live.data,
      path: live.path,
      since: live.since,
      firstSince: live.firstSince ?? live.since,
      translationOf: versions.translationOf ?? null,
    }
  );
};

/** The held copy of the published documents of `type`; `name` names its watch and its listener. */
export function heldDocuments<Snapshot>(type: ContentTypeId, name: string): HeldDocuments<Snapshot> {
  let held: Held<Snapshot> | undefined;
  /** Changes of documents of this type made on this server. */
  let changes = 0;
  let reading: { generation: number; promise: Promise<Held<Snapshot>> } | undefined;
  let failureLoggedAt = 0;

  // Keyed by the documents' map, which a read that finds no change keeps.
  const liveList = memoByClock((byId: Held<Snapshot>["byId"], at: number) => ({
    value: [...byId]
      .flatMap(([id, { versions }]) => liveOf(id, versions, at) ?? [])
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    until: nextMomentAfter(
      at,
      [...byId.values()].map(({ versions }) => versions.scheduled?.since),
    ),
  }));

  watchContentChanges(name, (change) => {
    if (change.type === type) changes += 1;
  });

  /**
   * Reads what changed since the copy held (every document at first) and swaps it in; each
   * document whose versions changed is announced (but to this copy) unless this is the first read.
   */
  async function read(db: Db, generation: number): Promise<Held<Snapshot>> {
    const previous = held;
    const fingerprints = await listPublishedFingerprints(db, type);
    const changedIds = fingerprints
      .filter(({ id, fingerprint }) => previous?.byId.get(id)?.fingerprint !== fingerprint)
      .map(({ id }) => id);
    if (previous && !changedIds.length && fingerprints.length === previous.byId.size) {
      // Nothing changed: the same maps, so that what callers derived from them still holds.
      held = { byId: previous.byId, byPath: previous.byPath, readAt: Date.now(), generation };
      return held;
    }
    const fetched = new Map((await findPublishedVersions<Snapshot>(db, changedIds)).map((versions) => [versions.id, versions]));
    const byId: Held<Snapshot>["byId"] = new Map();
    for (const { id, fingerprint } of fingerprints) {
      const versions = fetched.get(id) ?? previous?.byId.get(id)?.versions;
      // Unpublished between the two reads: the next read sees it gone.
      if (versions)
        byId.set(id, { fingerprint: fetched.has(id) ? fingerprint : (previous?.byId.get(id)?.fingerprint ?? ""), versions });
    }
    const byPath: Held<Snapshot>["byPath"] = new Map();
    for (const [id, { versions }] of byId)
      for (const path of pathsOf(versions)) byPath.set(path, [...(byPath.get(path) ?? []), id]);
    const next = { byId, byPath, readAt: Date.now(), generation };
    if (previous) announceChanges(previous, next);
    held = next;
    return next;
  }

  function announceChanges(previous: Held<Snapshot>, next: Held<Snapshot>) {
    const now = Date.now();
    for (const id of new Set([...previous.byId.keys(), ...next.byId.keys()])) {
      const before = previous.byId.get(id)?.versions;
      const after = next.byId.get(id)?.versions;
      if (before && after && sameVersion(before.published, after.published) && sameVersion(before.scheduled, after.scheduled))
        continue;
      const at = after?.scheduled && Date.parse(after.scheduled.since) > now ? after.scheduled.since : undefined;
      announceContentChange({ type, id, paths: [...new Set([...pathsOf(before), ...pathsOf(after)])], at }, { except: name });
    }
  }

  /**
   * Reads again, one read at a time: joins the read under way unless a change was made here since
   * it began. A failure leaves the copy held as it was.
   */
  function refresh(db: Db): Promise<Held<Snapshot>> {
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

  function logFailure(error: unknown) {
    if (Date.now() - failureLoggedAt < FAILURE_LOG_MS) return;
    failureLoggedAt = Date.now();
    logger.warn({ err: error, type }, `the ${name} could not be read again; serving the ones read before`);
  }

  /** The copy: read first when nothing is held yet, when this server changed a document, or when it is older than FRESH_MS. */
  async function current(db: Db): Promise<Held<Snapshot>> {
    const copy = held;
    if (copy && copy.generation >= changes && Date.now() - copy.readAt < FRESH_MS) return copy;
    try {
      return await refresh(db);
    } catch (error) {
      if (!held) throw error;
      logFailure(error);
      return held;
    }
  }

  return {
    async find(db, path, now = new Date()) {
      const copy = await current(db);
      const at = now.getTime();
      for (const id of copy.byPath.get(path) ?? []) {
        const live = liveOf(id, copy.byId.get(id)!.versions, at);
        if (live?.path === path) return live;
      }
      return undefined;
    },
    async list(db, now = new Date()) {
      return liveList((await current(db)).byId, now.getTime());
    },
    forget() {
      held = undefined;
    },
    watchJob: {
      name: `${name} watch`,
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
    },
  };
}
