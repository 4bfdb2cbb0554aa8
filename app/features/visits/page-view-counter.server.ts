import type { Kysely } from "kysely";
import { addPageViews, type PageViewKey } from "~/features/visits/db/page-views.server";
import type { Database } from "~/db/schema";
import type { BackgroundJob } from "~/background-job.server";
import { jobSucceeded } from "~/platform/metrics.server";
import { logger } from "~/platform/logger.server";

// Page views are counted in memory (a map increment: nothing a cached page would notice) and added
// to the database's daily totals every few seconds by one flush per server. A crash loses at most
// one interval of counts; a failed flush keeps them for the next.

/** Distinct keys held between flushes; past this, views of new keys wait for the next flush. */
const MAX_KEYS = 50_000;

export class PageViewCounter {
  private counts = new Map<string, { key: PageViewKey; views: number }>();

  record(key: PageViewKey, views = 1): void {
    // NUL never appears in a normalised value: a plain join is an unambiguous key, and cheap.
    const id = `${key.day}\0${key.path}\0${key.referrer_host}\0${key.utm_source}\0${key.utm_medium}\0${key.utm_campaign}\0${key.utm_term}\0${key.utm_content}`;
    const held = this.counts.get(id);
    if (held) held.views += views;
    else if (this.counts.size < MAX_KEYS) this.counts.set(id, { key, views });
  }

  /** Everything counted since the last take, leaving the counter empty. */
  take(): { key: PageViewKey; views: number }[] {
    const taken = [...this.counts.values()];
    this.counts = new Map();
    return taken;
  }

  /** Puts back counts a failed flush could not store. */
  giveBack(counts: readonly { key: PageViewKey; views: number }[]): void {
    for (const { key, views } of counts) this.record(key, views);
  }

  async flush(db: Kysely<Database>): Promise<void> {
    const counts = this.take();
    try {
      await addPageViews(db, counts);
      jobSucceeded("page-view-flush");
    } catch (error) {
      this.giveBack(counts);
      logger.warn({ err: error, keys: counts.length }, "page view counts could not be stored; kept for the next flush");
    }
  }
}

/** This process's counter: the server records into it, the flush job empties it. */
export const pageViews = new PageViewCounter();

/** Flushes `counter` every `intervalMs`, and once more when stopped. */
export function startPageViewFlush(counter: PageViewCounter, getDb: () => Kysely<Database>, intervalMs: number) {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => counter.flush(getDb()));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await counter.flush(getDb());
    },
  };
}

/** The background job adding this server's counted views to the database (off with VISIT_COUNTING=off). */
export const pageViewFlushJob: BackgroundJob = {
  name: "page view counting",
  start: ({ env, getDb }) => (env.VISIT_COUNTING ? startPageViewFlush(pageViews, getDb, env.VISIT_FLUSH_MS) : undefined),
};
