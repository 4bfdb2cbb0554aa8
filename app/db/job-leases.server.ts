import type { Kysely } from "kysely";
import { toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// Leases of the background jobs that run on one server at a time. A server takes a job's lease
// only when nobody holds it and the job is due (it last ran to the end at least `everyMs` ago);
// the update is one statement, so of two servers asking at once exactly one gets it. A server that
// dies holding it loses it when the lease runs out; a run that ends records when it ran.

type Db = Kysely<Database>;

/**
 * Takes the lease of `name` under `token` for `leaseMs` if the job is due at `now`; true when this
 * caller holds it and should run the job.
 */
export async function claimDueJob(
  db: Db,
  {
    name,
    token,
    leaseMs,
    everyMs,
    now = new Date(),
  }: { name: string; token: string; leaseMs: number; everyMs: number; now?: Date },
): Promise<boolean> {
  await db
    .insertInto("job_leases")
    .values({ name })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const nowIso = now.toISOString();
  const dueIfRanBefore = new Date(now.getTime() - everyMs).toISOString();
  const result = await db
    .updateTable("job_leases")
    .set({ locked_by: token, locked_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", nowIso)]))
    .where((eb) => eb.or([eb("last_run_at", "is", null), eb("last_run_at", "<=", dueIfRanBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease back; `ranAt` (when the run started) is recorded when the run went to the end. */
export async function releaseJob(db: Db, { name, token, ranAt }: { name: string; token: string; ranAt?: Date }): Promise<void> {
  await db
    .updateTable("job_leases")
    .set({ locked_by: null, locked_until: null, ...(ranAt ? { last_run_at: ranAt.toISOString() } : {}) })
    .where("name", "=", name)
    .where("locked_by", "=", token)
    .execute();
}

/** When the job last ran to the end, or null. */
export async function jobLastRunAt(db: Db, name: string): Promise<string | null> {
  const row = await db.selectFrom("job_leases").select("last_run_at").where("name", "=", name).executeTakeFirst();
  return row?.last_run_at ? toIso(row.last_run_at) : null;
}
