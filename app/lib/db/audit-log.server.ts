import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { toIso } from "~/lib/db/normalize";
import type { Database } from "~/lib/db/schema";

// The audit log: who did what, when, from which address. Rows are only ever inserted; the database
// refuses UPDATE and DELETE on the table (triggers made by its migration), and nothing here offers them.

type Db = Kysely<Database> | Transaction<Database>;

export type AuditEntry = {
  id: string;
  createdAt: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  ip: string;
};

export type NewAuditEntry = {
  actorId: string | null;
  actorEmail: string;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip: string;
};

export async function appendAuditEntry(db: Db, entry: NewAuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      id: randomUUID(),
      created_at: new Date().toISOString(),
      actor_id: entry.actorId,
      actor_email: entry.actorEmail,
      action: entry.action,
      target_type: entry.targetType ?? "",
      target_id: entry.targetId ?? "",
      details: JSON.stringify(entry.details ?? {}),
      ip: entry.ip,
    })
    .execute();
}

export type AuditFilter = {
  actorId?: string;
  action?: string;
  /** Inclusive lower bound, an ISO timestamp. */
  from?: string;
  /** Exclusive upper bound, an ISO timestamp. */
  until?: string;
};

/** Where a page of the log ends: the last entry's time and id. The next page starts after it. */
export type AuditCursor = { createdAt: string; id: string };

/**
 * One page of the log, newest first, and the cursor of the next page (keyset pagination: each
 * page costs the same however deep it is).
 */
export async function listAuditEntries(
  db: Db,
  filter: AuditFilter,
  page: { after?: AuditCursor; limit: number },
): Promise<{ entries: AuditEntry[]; next?: AuditCursor }> {
  let query = db
    .selectFrom("audit_log")
    .select(["id", "created_at", "actor_id", "actor_email", "action", "target_type", "target_id", "details", "ip"]);
  if (filter.actorId) query = query.where("actor_id", "=", filter.actorId);
  if (filter.action) query = query.where("action", "=", filter.action);
  if (filter.from) query = query.where("created_at", ">=", filter.from);
  if (filter.until) query = query.where("created_at", "<", filter.until);
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]),
    );
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit + 1)
    .execute();
  const entries = rows.slice(0, page.limit).map((row) => ({
    id: String(row.id),
    createdAt: toIso(row.created_at),
    actorId: row.actor_id === null ? null : String(row.actor_id),
    actorEmail: row.actor_email,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    details: (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
    ip: row.ip,
  }));
  const last = entries.at(-1);
  return { entries, next: rows.length > page.limit && last ? { createdAt: last.createdAt, id: last.id } : undefined };
}
