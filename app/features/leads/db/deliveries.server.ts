import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { dialectOf, toCount, toIso } from "~/db/normalize";
import type { Database, DeliveryDestination, DeliveryStatus, LeadTable } from "~/db/schema";

// The lead-delivery outbox. Rows are written with their lead (same transaction), claimed by a
// worker for a lease, then marked sent, rescheduled or dead. Several servers share the table:
// on PostgreSQL a claim skips rows another server is claiming at that moment (SKIP LOCKED), and a
// claimed row is skipped by everyone until its lease runs out, so one delivery is sent by one
// server at a time. Every update after a claim names the claim's token, so a worker whose lease
// expired cannot overwrite the result of the worker that took the row over.

type Db = Kysely<Database>;

export type Delivery = {
  id: string;
  lead_table: LeadTable;
  lead_id: string;
  destination: DeliveryDestination;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
};

type Row = {
  id: string;
  lead_table: LeadTable;
  lead_id: string;
  destination: DeliveryDestination;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | string;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
};

function toDelivery(row: Row): Delivery {
  return {
    id: String(row.id),
    lead_table: row.lead_table,
    lead_id: String(row.lead_id),
    destination: row.destination,
    status: row.status,
    attempts: toCount(row.attempts),
    next_attempt_at: toIso(row.next_attempt_at),
    last_error: row.last_error,
    created_at: toIso(row.created_at),
    sent_at: row.sent_at === null ? null : toIso(row.sent_at),
  };
}

const deliveryColumns = [
  "id",
  "lead_table",
  "lead_id",
  "destination",
  "status",
  "attempts",
  "next_attempt_at",
  "last_error",
  "created_at",
  "sent_at",
] as const;

/** The pending delivery rows of a new lead, one per destination. */
export function newDeliveryRows(leadTable: LeadTable, leadId: string, destinations: readonly DeliveryDestination[]) {
  const now = new Date().toISOString();
  return destinations.map((destination) => ({
    id: randomUUID(),
    lead_table: leadTable,
    lead_id: leadId,
    destination,
    status: "pending" as const,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
}

/** One pending delivery per destination for a lead just stored; call inside the lead's transaction. */
export async function enqueueDeliveries(
  trx: Db,
  leadTable: LeadTable,
  leadId: string,
  destinations: readonly DeliveryDestination[],
): Promise<void> {
  if (destinations.length === 0) return;
  await trx
    .insertInto("lead_deliveries")
    .values(newDeliveryRows(leadTable, leadId, destinations))
    .execute();
}

/**
 * Claims up to `limit` deliveries due by `dueBy` (now unless given) for `leaseMs` under `token`;
 * each claim counts as an attempt.
 */
export async function claimDueDeliveries(
  db: Db,
  { token, leaseMs, limit, dueBy }: { token: string; leaseMs: number; limit: number; dueBy?: Date },
): Promise<Delivery[]> {
  const now = new Date();
  const nowIso = now.toISOString();
  const due = db
    .selectFrom("lead_deliveries")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", (dueBy ?? now).toISOString())
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", nowIso)]))
    .orderBy("next_attempt_at")
    .limit(limit);
  const rows = await db
    .updateTable("lead_deliveries")
    .set((eb) => ({
      locked_by: token,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
      updated_at: nowIso,
    }))
    .where("id", "in", dialectOf(db) === "postgres" ? due.forUpdate().skipLocked() : due)
    .returning(deliveryColumns)
    .execute();
  return (rows as Row[]).map(toDelivery).sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at));
}

/** The delivery reached its destination. False when the claim was lost (the lease ran out). */
export async function markDelivered(db: Db, id: string, token: string): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .updateTable("lead_deliveries")
    .set({ status: "sent", sent_at: now, updated_at: now, locked_by: null, locked_until: null, last_error: null })
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A failed attempt: try again at `retryAt`, or give up (`dead`) when there is none. */
export async function markAttemptFailed(
  db: Db,
  id: string,
  token: string,
  { error, retryAt }: { error: string; retryAt: Date | null },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable("lead_deliveries")
    .set({
      status: retryAt ? "pending" : "dead",
      next_attempt_at: (retryAt ?? new Date()).toISOString(),
      last_error: error.slice(0, 1000),
      updated_at: now,
      locked_by: null,
      locked_until: null,
    })
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .execute();
}

/** Gives back a claim that was not attempted to the end (shutdown): it does not count as an attempt. */
export async function releaseDelivery(db: Db, id: string, token: string): Promise<void> {
  await db
    .updateTable("lead_deliveries")
    .set((eb) => ({
      attempts: eb("attempts", "-", 1),
      locked_by: null,
      locked_until: null,
      updated_at: new Date().toISOString(),
    }))
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .execute();
}

/** Deliveries, oldest first, optionally of one status and created from `since` on. */
export async function listDeliveries(db: Db, filter: { status?: DeliveryStatus; since?: string } = {}): Promise<Delivery[]> {
  let query = db.selectFrom("lead_deliveries").select(deliveryColumns).orderBy("created_at").orderBy("id");
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.since) query = query.where("created_at", ">=", filter.since);
  return ((await query.execute()) as Row[]).map(toDelivery);
}

/**
 * Puts deliveries back in the queue as new: due now, attempts from zero. `ids` names them (any
 * status); `{ dead: true }` takes every dead one. Returns how many were queued; when an id
 * matches nothing, nothing is queued and the unknown ids come back.
 */
export async function requeueDeliveries(
  db: Db,
  which: { ids: string[] } | { dead: true },
): Promise<{ queued: number; unknown: string[] }> {
  const now = new Date().toISOString();
  let unknown: string[] = [];
  if ("ids" in which) {
    const found = which.ids.length
      ? await db.selectFrom("lead_deliveries").select("id").where("id", "in", which.ids).execute()
      : [];
    const known = new Set(found.map((row) => String(row.id)));
    unknown = which.ids.filter((id) => !known.has(id));
    if (unknown.length) return { queued: 0, unknown };
  }
  let query = db.updateTable("lead_deliveries").set({
    status: "pending",
    attempts: 0,
    next_attempt_at: now,
    updated_at: now,
    locked_by: null,
    locked_until: null,
  });
  query = "ids" in which ? query.where("id", "in", which.ids.length ? which.ids : [""]) : query.where("status", "=", "dead");
  const result = await query.executeTakeFirst();
  return { queued: Number(result.numUpdatedRows), unknown };
}

/** How many deliveries wait, and since when the oldest of them was created. */
export async function pendingBacklog(db: Db): Promise<{ pending: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom("lead_deliveries")
    .select((eb) => [eb.fn.countAll().as("pending"), eb.fn.min("created_at").as("oldest")])
    .where("status", "=", "pending")
    .executeTakeFirst();
  const oldest = row?.oldest as Date | string | null | undefined;
  return { pending: toCount(row?.pending), oldestCreatedAt: oldest ? toIso(oldest) : null };
}

/**
 * Per destination kind: deliveries pending, pending after a failed attempt (retrying), dead, and
 * when the oldest pending one was created. One aggregate query (the metrics read it on a scrape).
 */
export async function deliveryCounts(
  db: Db,
): Promise<
  { destination: DeliveryDestination; pending: number; retrying: number; dead: number; oldestPendingAt: string | null }[]
> {
  const rows = await db
    .selectFrom("lead_deliveries")
    .select((eb) => [
      "destination",
      eb.fn.sum<number>(eb.case().when("status", "=", "pending").then(1).else(0).end()).as("pending"),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("status", "=", "pending"), eb("attempts", ">", 0)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("retrying"),
      eb.fn.sum<number>(eb.case().when("status", "=", "dead").then(1).else(0).end()).as("dead"),
      eb.fn.min(eb.case().when("status", "=", "pending").then(eb.ref("created_at")).end()).as("oldest"),
    ])
    .where("status", "in", ["pending", "dead"])
    .groupBy("destination")
    .execute();
  return rows.map((row) => {
    const oldest = row.oldest as Date | string | null;
    return {
      destination: row.destination,
      pending: toCount(row.pending),
      retrying: toCount(row.retrying),
      dead: toCount(row.dead),
      oldestPendingAt: oldest ? toIso(oldest) : null,
    };
  });
}
