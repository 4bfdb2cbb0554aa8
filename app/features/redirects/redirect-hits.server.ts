import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { BackgroundJob } from "~/background-job.server";
import { addRedirectHits, type HitCount } from "~/features/redirects/db/redirects.server";
import { logger } from "~/platform/logger.server";

// Uses of redirects are counted in memory and added to the database every few seconds by one flush
// per server, as page views are: a redirect answered costs a map increment, not a write (a burst
// of old links from a newsletter would otherwise queue behind SQLite's one write lock). A crash
// loses at most one interval of counts.

/** Distinct addresses held between flushes; past this, uses of new ones wait for the next flush. */
const MAX_KEYS = 10_000;
export const REDIRECT_HITS_FLUSH_MS = 10_000;

export class RedirectHitCounter {
  private counts = new Map<string, HitCount>();

  private add(id: string, key: HitCount["key"], hits: number, at: string) {
    const held = this.counts.get(id);
    if (held) {
      held.hits += hits;
      if (at > held.at) held.at = at;
    } else if (this.counts.size < MAX_KEYS) this.counts.set(id, { key, hits, at });
  }

  /** One use of the redirect from `fromPath`. */
  redirect(fromPath: string, at = new Date().toISOString()): void {
    this.add(`r\0${fromPath}`, { table: "redirects", fromPath }, 1, at);
  }

  /** One use of a post's old slug. */
  postRename(slug: string, at = new Date().toISOString()): void {
    this.add(`p\0${slug}`, { table: "posts", slug }, 1, at);
  }

  take(): HitCount[] {
    const taken = [...this.counts.values()];
    this.counts = new Map();
    return taken;
  }

  async flush(db: Kysely<Database>): Promise<void> {
    const counts = this.take();
    try {
      await addRedirectHits(db, counts);
    } catch (error) {
      for (const { key, hits, at } of counts)
        this.add(key.table === "redirects" ? `r\0${key.fromPath}` : `p\0${key.slug}`, key, hits, at);
      logger.warn({ err: error, keys: counts.length }, "redirect use counts could not be stored; kept for the next flush");
    }
  }
}

/** This process's counter: the routes record into it, the job empties it. */
export const redirectHits = new RedirectHitCounter();

export const redirectHitsFlushJob: BackgroundJob = {
  name: "redirect use counting",
  start: ({ getDb }) => {
    let running: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      running = running.then(() => redirectHits.flush(getDb()));
    }, REDIRECT_HITS_FLUSH_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await running;
        await redirectHits.flush(getDb());
      },
    };
  },
};
