import type { Kysely } from "kysely";
import { readAuditHead, type AuditHead } from "~/features/audit/db/audit-log.server";
import type { Database } from "~/db/schema";
import type { BackgroundJob } from "~/background-job.server";
import { logger } from "~/platform/logger.server";

// The audit chain's head in the server log, at start-up and once a day after, so that a copy of
// it lives outside the database: a chain rewritten from some entry on, hashes and all, still
// verifies, but no longer reaches a head the logs recorded. Every server writes it (no lease):
// each server's log is one more copy, and the line costs one indexed read.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Writes the head (seq and hash) as an info line and returns it. */
export async function logAuditHead(db: Kysely<Database>): Promise<AuditHead> {
  const head = await readAuditHead(db);
  logger.info({ seq: head.seq, hash: head.hash }, "audit log head");
  return head;
}

export const auditHeadJob: BackgroundJob = {
  name: "audit log head",
  start({ getDb }) {
    let current: Promise<void> | undefined;
    const log = () => {
      if (current) return;
      current = logAuditHead(getDb())
        .then(() => undefined)
        .catch((error: unknown) => logger.error({ err: error }, "reading the audit log head failed"))
        .finally(() => (current = undefined));
    };
    log();
    const daily = setInterval(log, DAY_MS);
    daily.unref();
    return {
      async stop() {
        clearInterval(daily);
        await current;
      },
    };
  },
};
