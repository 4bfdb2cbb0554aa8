import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { dialectOf, toCount, toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// The CDN purge outbox: what a published change touched (its surrogate keys), written in the
// change's transaction, claimed by the purge job for a lease, deleted once the CDN took it or moved
// later when it did not. Like the lead deliveries' outbox: on PostgreSQL a claim skips rows another
// server is claiming (SKIP LOCKED), a claimed row is skipped by everyone until its lease runs out,
// and every update after a claim names its token.

type Db = Kysely<Database>;

export type PendingPurge = { id: string; keys: string[]; dueAt: string; attempts: number; createdAt: string };

/** Writes one purge of `keys`, due now or at `at` (a scheduled publish's moment); call inside the change's transaction. */
export async function insertPurge(trx: Db, keys: readonly string[], at?: string): Promise<void> {
  if (keys.length === 0) return;
  const now = new Date().toISOString();
  await trx
    .insertInto("cdn_purges")
    .values({ id: randomUUID(), surrogate_keys: keys.join(" "), due_at: at ?? now, created_at: now })
    .execute();
}

type Row = { id: string; surrogate_keys: string; due_at: Date | string; attempts: number; created_at: Date | string };

const toPurge = (row: Row): PendingPurge => ({
  id: String(row.id),
  keys: row.surrogate_keys.split(" ").filter(Boolean),
  dueAt: toIso(row.due_at),
  attempts: toCount(row.attempts),
  createdAt: toIso(row.created_at),
});

/** Claims up to `limit` purges due by `now` for `leaseMs` under `token`; each claim counts as an attempt. */
export async function claimDuePurges(
  db: Db,
  { token, leaseMs, limit, now = new Date() }: { token: string; leaseMs: number; limit: number; now?: Date },
): Promise<PendingPurge[]> {
  const nowIso = now.toISOString();
  const due = db
    .selectFrom("cdn_purges")
    .select("id")
    .where("due_at", "<=", nowIso)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", nowIso)]))
    .orderBy("due_at")
    .limit(limit);
  const rows = await db
    .updateTable("cdn_purges")
    .set((eb) => ({
      locked_by: token,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
    }))
    .where("id", "in", dialectOf(db) === "postgres" ? due.forUpdate().skipLocked() : due)
    .returning(["id", "surrogate_keys", "due_at", "attempts", "created_at"])
    .execute();
  return (rows as Row[]).map(toPurge);
}

/** The CDN took these purges: they are done. */
export async function deletePurges(db: Db, ids: readonly string[], token: string): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("cdn_purges").where("id", "in", ids).where("locked_by", "=", token).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The CDN did not take them: try again from `retryAt` (a purge is never given up: none is lost). */
export async function reschedulePurges(
  db: Db,
  ids: readonly string[],
  token: string,
  { error, retryAt }: { error: string; retryAt: Date },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("cdn_purges")
    .set({ due_at: retryAt.toISOString(), last_error: error.slice(0, 1000), locked_by: null, locked_until: null })
    .where("id", "in", ids)
    .where("locked_by", "=", token)
    .execute();
}

/** Gives claimed purges back untried (a stopping server): due again at once, the attempt not counted. */
export async function releasePurges(db: Db, ids: readonly string[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("cdn_purges")
    .set((eb) => ({ locked_by: null, locked_until: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "in", ids)
    .where("locked_by", "=", token)
    .execute();
}

/** Drops every row (purging turned off: there is no CDN to tell). */
export async function dropPurges(db: Db): Promise<number> {
  const result = await db.deleteFrom("cdn_purges").executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The purges not yet taken by the CDN: how many, how many of them are due now (the rest wait for
 * a scheduled moment or a retry), and when the oldest was written. For the logs and metrics.
 */
export async function pendingCdnPurges(
  db: Db,
  now = new Date(),
): Promise<{ pending: number; due: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom("cdn_purges")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("pending"),
      eb.fn.min("created_at").as("oldest"),
      eb.fn.sum<number | string | null>(eb.case().when("due_at", "<=", now.toISOString()).then(1).else(0).end()).as("due"),
    ])
    .executeTakeFirstOrThrow();
  return {
    pending: toCount(row.pending),
    due: toCount(row.due ?? 0),
    oldestCreatedAt: row.oldest === null || row.oldest === undefined ? null : toIso(row.oldest),
  };
}

/** Every purge row, oldest first (tests and the command line look at the queue). */
export async function listPurges(db: Db): Promise<PendingPurge[]> {
  const rows = await db
    .selectFrom("cdn_purges")
    .select(["id", "surrogate_keys", "due_at", "attempts", "created_at"])
    .orderBy("created_at")
    .orderBy("due_at")
    .execute();
  return (rows as Row[]).map(toPurge);
}
