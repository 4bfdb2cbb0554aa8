import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { BackgroundJob } from "~/background-job.server";
import type { Database } from "~/db/schema";
import type { Env } from "~/env.server";
import {
  claimDuePurges,
  deletePurges,
  dropPurges,
  pendingCdnPurges,
  releasePurges,
  reschedulePurges,
  type PendingPurge,
} from "~/features/cdn/db/purges.server";
import { logger } from "~/platform/logger.server";
import { wakeableSleep } from "~/platform/wakeable-sleep";

// The purge job runs on every server when CDN_PURGE_URL is set: it claims the due purges of the
// outbox, sends their keys to the CDN (coalesced: one request for many changes, in batches the
// CDN's API takes) and deletes them once the CDN answered 2xx. A CDN that is down or refuses gets
// them again later, the waits doubling up to an hour: a purge is never given up, so none is lost.

type Db = Kysely<Database>;

export type PurgeStyle = "fastly" | "cloudflare";

export type PurgeConfig = {
  url: string;
  token: string;
  style: PurgeStyle;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  leaseMs: number;
  pollMs: number;
};

/** Keys per request: Fastly's batch purge takes 256, Cloudflare's purge_cache 30 tags. */
export const KEYS_PER_REQUEST: Record<PurgeStyle, number> = { fastly: 256, cloudflare: 30 };
/** Outbox rows claimed (and coalesced) per round. */
const ROWS_PER_ROUND = 200;

export function purgeConfigFrom(env: Env): PurgeConfig | undefined {
  if (!env.CDN_PURGE_URL || !env.CDN_PURGE_TOKEN) return undefined;
  return {
    url: env.CDN_PURGE_URL,
    token: env.CDN_PURGE_TOKEN,
    style: env.CDN_PURGE_STYLE,
    timeoutMs: 10_000,
    retryBaseMs: 10_000,
    retryMaxMs: 3_600_000,
    leaseMs: 60_000,
    pollMs: 1_000,
  };
}

export type PurgeRequest = { headers: Record<string, string>; body: string };

/** The requests that purge `keys`, in the CDN's shape, at most KEYS_PER_REQUEST keys each. */
export function purgeRequests(config: Pick<PurgeConfig, "style" | "token">, keys: readonly string[]): PurgeRequest[] {
  const size = KEYS_PER_REQUEST[config.style];
  const requests: PurgeRequest[] = [];
  for (let from = 0; from < keys.length; from += size) {
    const batch = keys.slice(from, from + size);
    requests.push(
      config.style === "fastly"
        ? {
            headers: { "Fastly-Key": config.token, "Surrogate-Key": batch.join(" "), "Content-Type": "application/json" },
            body: JSON.stringify({ surrogate_keys: batch }),
          }
        : {
            headers: { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ tags: batch }),
          },
    );
  }
  return requests;
}

/** Sends one purge request; throws (with a message naming no secret) unless the CDN answers 2xx. */
async function send(config: PurgeConfig, request: PurgeRequest, stop: AbortSignal): Promise<void> {
  const signal = AbortSignal.any([stop, AbortSignal.timeout(config.timeoutMs)]);
  let response: Response;
  try {
    response = await fetch(config.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      signal,
      redirect: "error",
    });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.name) : "error";
    throw new Error(`the CDN could not be reached (${cause})`);
  }
  await response.body?.cancel();
  if (response.status < 200 || response.status > 299) throw new Error(`the CDN answered ${response.status}`);
}

export function purgeRetryDelayMs(config: Pick<PurgeConfig, "retryBaseMs" | "retryMaxMs">, attempt: number): number {
  const plain = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (0.8 + Math.random() * 0.2));
}

/** Purges sent and failed by this process since it started (deliveries, not outbox rows). */
const counts = { sentRequests: 0, sentKeys: 0, failedAttempts: 0 };
export function cdnPurgeCounts(): Readonly<typeof counts> {
  return { ...counts };
}

/**
 * One round: claims the due purges, sends their keys (each once) and deletes them when every
 * request succeeded; otherwise all of them are tried again later (purging a key twice is harmless).
 * Returns what was claimed and whether it went through.
 */
export async function deliverDuePurges(
  db: Db,
  config: PurgeConfig,
  { now = new Date(), stop = new AbortController().signal }: { now?: Date; stop?: AbortSignal } = {},
): Promise<{ claimed: number; sent: boolean }> {
  const token = randomUUID();
  const claimed = await claimDuePurges(db, { token, leaseMs: config.leaseMs, limit: ROWS_PER_ROUND, now });
  if (claimed.length === 0) return { claimed: 0, sent: false };
  const ids = claimed.map((purge) => purge.id);
  const keys = [...new Set(claimed.flatMap((purge) => purge.keys))];
  const context = { purges: claimed.length, keys: keys.length, style: config.style };
  try {
    for (const request of purgeRequests(config, keys)) await send(config, request, stop);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (stop.aborted) {
      await releasePurges(db, ids, token).catch(() => undefined);
      return { claimed: claimed.length, sent: false };
    }
    counts.failedAttempts += 1;
    const attempts = Math.max(...claimed.map((purge) => purge.attempts));
    const retryAt = new Date(now.getTime() + purgeRetryDelayMs(config, attempts));
    await reschedulePurges(db, ids, token, { error: message, retryAt });
    logger.warn({ ...context, attempts, error: message, retryAt: retryAt.toISOString() }, "cdn purge failed; will retry");
    return { claimed: claimed.length, sent: false };
  }
  await deletePurges(db, ids, token);
  counts.sentRequests += Math.ceil(keys.length / KEYS_PER_REQUEST[config.style]);
  counts.sentKeys += keys.length;
  logger.info({ ...context, sample: keys.slice(0, 10), oldestCreatedAt: oldestOf(claimed) }, "cdn purge sent");
  return { claimed: claimed.length, sent: true };
}

const oldestOf = (purges: readonly PendingPurge[]) => purges.map((purge) => purge.createdAt).sort()[0];

/** Runs rounds until stopped: a full round looks again at once, else it waits for the poll. */
function startPurgeWorker(config: PurgeConfig, getDb: () => Db) {
  const stop = new AbortController();
  let running = true;
  const { sleep, wake } = wakeableSleep();

  async function run() {
    while (running) {
      let claimed = 0;
      try {
        ({ claimed } = await deliverDuePurges(getDb(), config, { stop: stop.signal }));
      } catch (error) {
        logger.error({ err: error }, "cdn purge queue could not be read");
      }
      if (running && claimed < ROWS_PER_ROUND) await sleep(config.pollMs);
    }
  }

  const backlog = setInterval(() => {
    pendingCdnPurges(getDb())
      .then(({ pending, due, oldestCreatedAt }) => {
        if (due === 0 || !oldestCreatedAt) return;
        logger.info(
          { pending, due, oldestPendingSeconds: Math.round((Date.now() - Date.parse(oldestCreatedAt)) / 1000) },
          "cdn purges pending",
        );
      })
      .catch((error: unknown) => logger.error({ err: error }, "cdn purge backlog could not be read"));
  }, 60_000);
  backlog.unref();

  const loop = run();
  return {
    async stop() {
      running = false;
      clearInterval(backlog);
      // A request in flight is stopped and its purges handed back (another server sends them).
      stop.abort();
      wake();
      await loop;
    },
  };
}

/** Purges what a publish changed from the CDN in front, when CDN_PURGE_URL says where. */
export const cdnPurgeJob: BackgroundJob = {
  name: "cdn purge",
  start({ env, getDb }) {
    const config = purgeConfigFrom(env);
    if (!config) {
      // No CDN to tell: rows left from when there was one are dropped (nothing would ever send them).
      dropPurges(getDb())
        .then((dropped) => {
          if (dropped > 0) logger.info({ dropped }, "cdn purges dropped: CDN_PURGE_URL is not set");
        })
        .catch((error: unknown) => logger.warn({ err: error }, "cdn purges could not be dropped"));
      return undefined;
    }
    logger.info({ style: config.style, host: new URL(config.url).host }, "cdn purging on");
    return startPurgeWorker(config, getDb);
  },
};
