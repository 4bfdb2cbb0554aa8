import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { claimDueJob, releaseJob } from "~/db/job-leases.server";
import { purgeExpiredLeads, type PurgeCounts, type RetentionMonths } from "~/features/leads/db/retention.server";
import type { Database } from "~/db/schema";
import type { Env } from "~/env.server";
import type { BackgroundJob } from "~/background-job.server";
import { logger } from "~/platform/logger.server";

// The privacy policy's retention promise, kept by every server and run by one: each server looks
// hourly whether the daily purge is due and takes its lease in the database if so; the others
// find it taken (or already run today) and do nothing.

/** Its name in the job leases (and in the metrics). */
export const RETENTION_JOB_NAME = "lead-retention";
const JOB_NAME = RETENTION_JOB_NAME;
const DAY_MS = 24 * 60 * 60 * 1000;
const CHECK_EVERY_MS = 60 * 60 * 1000;
/** The first look waits until start-up and its first visitors are well over. */
const FIRST_CHECK_MS = 5 * 60 * 1000;
/** A server that dies mid-run holds the purge this long at most. */
const LEASE_MS = 30 * 60 * 1000;

export function retentionMonths(env: Pick<Env, "RETENTION_SALES_MONTHS" | "RETENTION_APPLICATIONS_MONTHS">): RetentionMonths {
  return {
    RETENTION_SALES_MONTHS: env.RETENTION_SALES_MONTHS,
    RETENTION_APPLICATIONS_MONTHS: env.RETENTION_APPLICATIONS_MONTHS,
  };
}

/**
 * Runs the purge if it is due (it last ran a day or more before `now`) and nobody else is running
 * it: the counts deleted, or undefined when this caller did not run it.
 */
export async function runRetentionIfDue(
  db: Kysely<Database>,
  { months, now = new Date() }: { months: RetentionMonths; now?: Date },
): Promise<PurgeCounts | undefined> {
  const token = randomUUID();
  if (!(await claimDueJob(db, { name: JOB_NAME, token, leaseMs: LEASE_MS, everyMs: DAY_MS, now }))) return undefined;
  try {
    const counts = await purgeExpiredLeads(db, months, { actor: "system", ip: "background job", now });
    await releaseJob(db, { name: JOB_NAME, token, ranAt: now });
    return counts;
  } catch (error) {
    // Not recorded as run: the next look tries again.
    await releaseJob(db, { name: JOB_NAME, token }).catch(() => undefined);
    throw error;
  }
}

export const leadRetentionJob: BackgroundJob = {
  name: "lead retention",
  start({ env, getDb }) {
    const months = retentionMonths(env);
    let current: Promise<void> | undefined;
    const check = () => {
      if (current) return;
      current = runRetentionIfDue(getDb(), { months })
        .then((counts) => {
          if (counts) logger.info({ counts }, "expired leads deleted");
        })
        .catch((error: unknown) => logger.error({ err: error }, "deleting expired leads failed"))
        .finally(() => (current = undefined));
    };
    const first = setTimeout(check, FIRST_CHECK_MS);
    const hourly = setInterval(check, CHECK_EVERY_MS);
    first.unref();
    hourly.unref();
    return {
      async stop() {
        clearTimeout(first);
        clearInterval(hourly);
        await current;
      },
    };
  },
};
