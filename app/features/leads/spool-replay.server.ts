import type { Kysely } from "kysely";
import { isDatabaseUnreachable, isStatementRefused } from "~/db/connection.server";
import { deleteErasedLead, erasedSince } from "~/features/privacy/db/data-subject.server";
import { insertLeadOnce } from "~/features/leads/db/leads.server";
import { withCheckedPosition } from "~/features/leads/forms/application-position.server";
import type { Database, DeliveryDestination } from "~/db/schema";
import { deliveryConfigFrom, destinationsFor } from "~/features/leads/delivery/config.server";
import { nudgeDeliveries } from "~/features/leads/delivery/worker.server";
import type { BackgroundJob } from "~/background-job.server";
import { leadForms, type LeadFormId } from "~/features/leads/registry";
import type { LeadInput } from "~/features/leads/registry.server";
import { applyErasuresToSpool } from "~/features/leads/spool-erasure.server";
import { serverLeadSpool, SpoolEntryError, type LeadSpool } from "~/features/leads/spool.server";
import { jobSucceeded } from "~/platform/metrics.server";
import { logger } from "~/platform/logger.server";

// Moves the leads a server kept in its spool (while the database could not be reached) into the
// database, oldest first, each through insertLead so its deliveries are queued with it. A lead is
// stored under the id it was kept with, and its file removed only after the insert: a replay cut
// short between the two, or two replayers on one directory, find the row there and only remove the
// file (insertLeadOnce). Before anything is stored, the erasures recorded since (privacy requests,
// made on any server) are applied to the spool, and after each insert the lead's address is looked
// up among them once more, so an erased lead is never stored again from a spool
// (./spool-erasure.server). Logs say how many, never what.

/** How often a server with kept leads tries the database again. */
const REPLAY_INTERVAL_MS = 1_000;
/** While leads wait, their number is logged at least this often. */
const DEPTH_LOG_MS = 30_000;

export type ReplayResult = {
  stored: number;
  alreadyStored: number;
  rejected: number;
  /** Leads of erased addresses deleted from the spool (or again from the database); absent when none. */
  erased?: number;
  /** The database could not be reached: the pass stopped there, the rest wait for the next. */
  unreachable: boolean;
  /** The code of any other failure that stopped the pass (the entry waits for the next). */
  failed?: string;
};

/** Leads stored at once in a pass: a backlog of hundreds drains in a few seconds, using few connections. */
const REPLAY_CONCURRENCY = 4;

/**
 * One pass over the spool, oldest first, `concurrency` leads at a time: every entry stored (or
 * found stored) and removed, until the database is unreachable or fails otherwise (the rest wait
 * for the next pass).
 */
export async function replayLeadSpool(
  spool: LeadSpool,
  db: Kysely<Database>,
  destinationsOf: (form: LeadFormId) => readonly DeliveryDestination[],
  concurrency = REPLAY_CONCURRENCY,
): Promise<ReplayResult> {
  const result: ReplayResult = { stored: 0, alreadyStored: 0, rejected: 0, unreachable: false };
  let erased = 0;
  try {
    erased = await applyErasuresToSpool(spool, db);
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    result.unreachable = true;
    return result;
  }
  const names = await spool.list();
  let next = 0;
  const stopped = () => result.unreachable || result.failed !== undefined;

  const replayOne = async (name: string) => {
    const entry = await spool.read(name).catch(async (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined; // another replayer took it
      if (!(error instanceof SpoolEntryError)) throw error;
      await spool.reject(name);
      result.rejected += 1;
      logger.error({ entry: name, problem: error.message }, "lead spool entry unreadable; moved to rejected/");
      return undefined;
    });
    if (!entry) return;
    try {
      // An application whose position could not be looked up when it was posted.
      const lead = entry.form === "career-application" ? await withCheckedPosition(db, entry.lead, entry.createdAt) : entry.lead;
      const outcome = await insertLeadOnce(db, entry.form, lead as LeadInput<typeof entry.form>, destinationsOf(entry.form), {
        id: entry.id,
        createdAt: entry.createdAt,
      });
      const email = typeof entry.lead.email === "string" ? entry.lead.email : "";
      // An erasure recorded after this pass began: what was just stored goes again (see eraseSubject).
      if (await erasedSince(db, email, entry.createdAt)) {
        await deleteErasedLead(db, leadForms[entry.form].table, entry.id);
        erased += 1;
      } else if (outcome === "stored") result.stored += 1;
      else result.alreadyStored += 1;
    } catch (error) {
      if (isDatabaseUnreachable(error)) {
        result.unreachable = true;
        return;
      }
      // Anything but a refusal may pass (a lock, a full disk, too many connections): try again later.
      // Only the error's code is kept: a refused row's values can be in the message.
      if (!isStatementRefused(error)) {
        result.failed = String((error as { code?: unknown }).code ?? (error as Error).name);
        return;
      }
      // The database refuses this lead for good (a constraint it broke): set aside for an operator.
      await spool.reject(name);
      result.rejected += 1;
      logger.error(
        { entry: name, form: entry.form, code: (error as { code?: unknown }).code },
        "lead spool entry refused by the database; moved to rejected/",
      );
      return;
    }
    await spool.remove(name);
  };

  const worker = async () => {
    while (!stopped() && next < names.length) await replayOne(names[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, names.length)) }, worker));
  if (erased > 0) result.erased = erased;
  return result;
}

export const leadSpoolReplayJob: BackgroundJob = {
  name: "lead spool replay",
  start({ env, getDb }) {
    const spool = serverLeadSpool(env);
    const config = deliveryConfigFrom(env);
    const destinationsOf = (form: LeadFormId) => destinationsFor(config, form);
    let running = true;
    let wake: (() => void) | undefined;
    let lastDepth = spool.depth().entries;
    let lastLogged = 0;
    if (lastDepth > 0) logger.warn({ spool: spool.depth() }, "lead spool holds leads from before this start; replaying");

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (wake = undefined));

    // Every second, also with nothing counted: a look at an empty directory is cheap, and the
    // directory, not the count, says what waits (an entry moved back from rejected/, say).
    const pass = async () => {
      const started = Date.now();
      const result = await replayLeadSpool(spool, getDb(), destinationsOf);
      const depth = spool.depth();
      if (!result.unreachable && result.failed === undefined) jobSucceeded("lead-spool-replay");
      if (result.stored > 0) nudgeDeliveries();
      const moved = result.stored + result.alreadyStored + result.rejected + (result.erased ?? 0);
      if (depth.entries === 0 && lastDepth > 0) {
        logger.info({ ...result, spool: depth, ms: Date.now() - started }, "lead spool empty: every kept lead is stored");
      } else if (moved > 0 || depth.entries !== lastDepth || (depth.entries > 0 && Date.now() - lastLogged > DEPTH_LOG_MS)) {
        logger.warn(
          { ...result, spool: depth },
          result.unreachable
            ? "database unreachable: leads wait in the lead spool"
            : result.failed
              ? "lead spool replay stopped by a database error; trying again"
              : "lead spool replayed",
        );
        lastLogged = Date.now();
      }
      lastDepth = depth.entries;
    };

    const loop = (async () => {
      while (running) {
        try {
          await pass();
        } catch (error) {
          logger.error({ err: error }, "lead spool replay failed; trying again");
        }
        if (running) await sleep(REPLAY_INTERVAL_MS);
      }
    })();

    return {
      stop: async () => {
        running = false;
        wake?.();
        await loop;
      },
    };
  },
};
