import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import {
  deliveryConfigFrom,
  describeDeliveries,
  retryDelayMs,
  type DeliveryConfig,
} from "~/features/leads/delivery/config.server";
import { createSenders } from "~/features/leads/delivery/senders.server";
import {
  claimDueDeliveries,
  markAttemptFailed,
  markDelivered,
  pendingBacklog,
  releaseDelivery,
  type Delivery,
} from "~/features/leads/db/deliveries.server";
import { findLead } from "~/features/leads/db/leads.server";
import { hiringContactsOf } from "~/features/leads/delivery/hiring-contacts.server";
import type { Database } from "~/db/schema";
import { watchEventLoop } from "~/platform/event-loop.server";
import type { BackgroundJob } from "~/background-job.server";
import { leadFormOfTable } from "~/features/leads/registry";
import { logger } from "~/platform/logger.server";
import { wakeableSleep } from "~/platform/wakeable-sleep";
import { deliveryAttempts, jobSucceeded } from "~/platform/metrics.server";

// The delivery worker runs inside each server process, beside the pages: it claims due
// deliveries, sends them, and records the outcome. A visitor's form answer never waits on it
// (the submission only writes the outbox row and nudges the worker), and while the server is
// busy with visitors the worker gives way: a delivery then waits up to maxDeferMs for a quieter
// moment, so a burst of leads is answered at full speed and delivered just after it.

/** Sends in flight at once, per server. */
const CONCURRENCY = 16;
/** On shutdown, in-flight sends get this long to finish before they are stopped and released. */
const DRAIN_MS = 5_000;

/** The server counts as busy while its event loop was working more than this share of the last sample. */
const BUSY_UTILIZATION = 0.5;
const LOAD_SAMPLE_MS = 250;

/**
 * The latest due time a claim takes: now when the server is quiet; while it is busy, only
 * deliveries that have already waited `maxDeferMs` (so a lead is never held back longer than that).
 */
export function claimDueBy(now: number, busy: boolean, maxDeferMs: number): Date {
  return new Date(busy ? now - maxDeferMs : now);
}

export type DeliveryWorker = { nudge: () => void; stop: () => Promise<void> };

let current: DeliveryWorker | undefined;

/** A lead was just stored: look at the queue now rather than at the next poll. */
export function nudgeDeliveries() {
  current?.nudge();
}

export function startDeliveryWorker(config: DeliveryConfig, getDb: () => Kysely<Database>): DeliveryWorker {
  const senders = createSenders(config);
  const stopSends = new AbortController();
  const inFlight = new Map<string, { token: string; done: Promise<void> }>();
  const eventLoop = watchEventLoop(LOAD_SAMPLE_MS);
  const busy = () => eventLoop.utilization() > BUSY_UTILIZATION;
  let running = true;
  const { sleep, wake } = wakeableSleep();

  async function attempt(delivery: Delivery, token: string) {
    const db = getDb();
    const context = {
      deliveryId: delivery.id,
      destination: delivery.destination,
      leadTable: delivery.lead_table,
      leadId: delivery.lead_id,
    };
    try {
      const lead = await findLead(db, delivery.lead_table, delivery.lead_id);
      if (!lead) throw new Error("the lead no longer exists");
      const alsoTo = delivery.destination === "email" ? await hiringContactsOf(db, delivery.lead_table, lead) : [];
      await senders.send(delivery, leadFormOfTable(delivery.lead_table).id, lead, stopSends.signal, alsoTo);
      if (await markDelivered(db, delivery.id, token)) {
        deliveryAttempts.labels(delivery.destination, "delivered").inc();
        logger.info({ ...context, attempts: delivery.attempts }, "lead delivered");
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (stopSends.signal.aborted) {
        // Stopped by shutdown: not the destination's fault, and another server (or this one after
        // a restart) takes it from here.
        await releaseDelivery(db, delivery.id, token).catch(() => undefined);
        return;
      }
      const giveUp = delivery.attempts >= config.maxAttempts || message.endsWith("no longer exists");
      const retryAt = giveUp ? null : new Date(Date.now() + retryDelayMs(config, delivery.attempts));
      deliveryAttempts.labels(delivery.destination, retryAt ? "retry" : "dead").inc();
      await markAttemptFailed(db, delivery.id, token, { error: message, retryAt }).catch((failure: unknown) =>
        logger.error({ ...context, err: failure }, "lead delivery outcome could not be recorded"),
      );
      if (retryAt)
        logger.warn(
          { ...context, attempts: delivery.attempts, error: message, retryAt: retryAt.toISOString() },
          "lead delivery attempt failed",
        );
      else logger.error({ ...context, attempts: delivery.attempts, error: message }, "lead delivery failed for good");
    }
  }

  async function run() {
    while (running) {
      const free = CONCURRENCY - inFlight.size;
      let claimed: Delivery[] = [];
      if (free > 0) {
        const token = randomUUID();
        try {
          const dueBy = claimDueBy(Date.now(), busy(), config.maxDeferMs);
          claimed = await claimDueDeliveries(getDb(), { token, leaseMs: config.leaseMs, limit: free, dueBy });
          jobSucceeded("lead-delivery");
        } catch (error) {
          logger.error({ err: error }, "lead delivery queue could not be read");
        }
        for (const delivery of claimed) {
          const done = attempt(delivery, token).finally(() => {
            inFlight.delete(delivery.id);
            wake();
          });
          inFlight.set(delivery.id, { token, done });
        }
      }
      // A full batch may mean more are due: look again at once; otherwise wait for the poll, a
      // nudge (a new lead) or a free slot.
      if (running && (claimed.length === 0 || claimed.length < free || inFlight.size >= CONCURRENCY)) await sleep(config.pollMs);
    }
  }

  const backlog = setInterval(() => {
    pendingBacklog(getDb())
      .then(({ pending, oldestCreatedAt }) => {
        if (pending === 0 || !oldestCreatedAt) return;
        const oldestPendingSeconds = Math.round((Date.now() - Date.parse(oldestCreatedAt)) / 1000);
        logger.info({ pending, oldestPendingSeconds }, "deliveries pending");
      })
      .catch((error: unknown) => logger.error({ err: error }, "lead delivery backlog could not be read"));
  }, config.backlogLogMs);
  backlog.unref();

  const loop = run();
  const worker: DeliveryWorker = {
    // A new lead is looked at at once only when visitors leave room for it; else at the next poll.
    nudge: () => {
      if (!busy()) wake();
    },
    async stop() {
      if (!running) return loop;
      running = false;
      clearInterval(backlog);
      eventLoop.stop();
      wake();
      await loop;
      const pending = [...inFlight.values()].map((entry) => entry.done);
      const drained = await Promise.race([
        Promise.all(pending).then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), DRAIN_MS).unref()),
      ]);
      if (!drained) {
        stopSends.abort();
        await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
        // A send that cannot be stopped (an SMTP exchange) gives its claim back now: its late
        // outcome is then ignored, and the delivery is retried (at least once, never lost).
        await Promise.all(
          [...inFlight.entries()].map(([id, { token }]) => releaseDelivery(getDb(), id, token).catch(() => undefined)),
        );
      }
      senders.close();
      if (current === worker) current = undefined;
    },
  };
  current = worker;
  return worker;
}

/** Leads reach the business through this worker, on every server, when a destination is configured. */
export const leadDeliveryJob: BackgroundJob = {
  name: "lead delivery",
  start({ env, getDb }) {
    const config = deliveryConfigFrom(env);
    const destinations = describeDeliveries(config);
    if (!destinations) {
      logger.info("lead delivery off: leads are stored only");
      return undefined;
    }
    logger.info({ destinations }, "lead delivery on");
    return startDeliveryWorker(config, getDb);
  },
};
