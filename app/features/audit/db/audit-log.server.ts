import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { auditEntryHash, AUDIT_CHAIN_GENESIS } from "~/db/audit-chain";
import { dialectOf, isUuid, toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// The audit log: who did what, when, from which address. Rows are only ever inserted; the database
// refuses UPDATE and DELETE on the table (triggers made by its migration), and nothing here offers them.
// Whoever holds the database can lift a trigger, so the entries also form a hash chain: each has a
// sequence number, the previous entry's hash and its own over both (~/db/audit-chain), and
// verifyAuditChain finds the first entry changed, removed or slipped in since.

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

/** Serialises appends on PostgreSQL: a transaction-scoped advisory lock, held until the caller's commit. */
const CHAIN_LOCK = 0x5a0d17c;

/**
 * Adds an entry at the head of the chain. Inside the caller's transaction (so the entry is stored
 * with the change it records, or not at all), or in one of its own on a bare handle. Appends run
 * one at a time across every server: PostgreSQL's advisory lock, SQLite's one write lock, taken
 * before the head is read and held until commit, so no two entries ever follow the same one.
 */
export async function appendAuditEntry(db: Db, entry: NewAuditEntry): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => appendAuditEntry(trx, entry));
  if (dialectOf(db) === "postgres") await sql`select pg_advisory_xact_lock(${sql.lit(CHAIN_LOCK)})`.execute(db);
  // A write that touches no row takes SQLite's write lock up front (no trigger fires for no row).
  else await sql`update audit_log set seq = seq where 1 = 0`.execute(db);
  const head = await readAuditHead(db);
  const content = {
    id: randomUUID(),
    seq: head.seq + 1,
    createdAt: new Date().toISOString(),
    // As PostgreSQL's uuid column gives it back, so the hash is recomputed from the same text.
    actorId: entry.actorId !== null && isUuid(entry.actorId) ? entry.actorId.toLowerCase() : entry.actorId,
    actorEmail: entry.actorEmail,
    action: entry.action,
    targetType: entry.targetType ?? "",
    targetId: entry.targetId ?? "",
    details: entry.details ?? {},
    ip: entry.ip,
    prevHash: head.hash,
  };
  await db
    .insertInto("audit_log")
    .values({
      id: content.id,
      created_at: content.createdAt,
      actor_id: content.actorId,
      actor_email: content.actorEmail,
      action: content.action,
      target_type: content.targetType,
      target_id: content.targetId,
      details: JSON.stringify(content.details),
      ip: content.ip,
      seq: content.seq,
      prev_hash: content.prevHash,
      hash: auditEntryHash(content),
    })
    .execute();
}

/** The last entry of the chain (seq 0 and the genesis hash while the log is empty). */
export type AuditHead = { seq: number; hash: string };

export async function readAuditHead(db: Db): Promise<AuditHead> {
  const head = await db
    .selectFrom("audit_log")
    .select(["seq", "hash"])
    .where("seq", "is not", null)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  return head ? { seq: Number(head.seq), hash: head.hash ?? "" } : { seq: 0, hash: AUDIT_CHAIN_GENESIS };
}

/** The first entry that does not match, and why (no id: a logged head past the chain's end). */
export type AuditChainBreak = {
  seq: number | null;
  id?: string;
  createdAt?: string;
  action?: string;
  reason: string;
};

export type AuditChainReport =
  | { ok: true; entries: number; head: AuditHead }
  /** `entries`: how many verified before the break. */
  | { ok: false; entries: number; broken: AuditChainBreak };

/**
 * Walks the whole chain in seq order, a page at a time, recomputing each entry's hash from what
 * the database gives back: the first entry whose content no longer gives its hash, whose link does
 * not name the entry before it, or that follows a gap in the numbers, is named. Then any entry
 * outside the chain (no seq: written behind the application's back) is named. With `loggedHead`
 * (a head the server log recorded), the chain must still pass through it: a chain rewritten from
 * an earlier entry on, hashes and all, or cut short, verifies on its own but not against it.
 */
export async function verifyAuditChain(
  db: Db,
  { pageSize = 500, loggedHead }: { pageSize?: number; loggedHead?: AuditHead } = {},
): Promise<AuditChainReport> {
  let expected = 1;
  let prevHash = AUDIT_CHAIN_GENESIS;
  for (;;) {
    const rows = await db
      .selectFrom("audit_log")
      .select(["id", "created_at", "actor_id", "actor_email", "action", "target_type", "target_id", "details", "ip"])
      .select(["seq", "prev_hash", "hash"])
      .where("seq", ">=", expected)
      .orderBy("seq")
      .limit(pageSize)
      .execute();
    for (const row of rows) {
      const seq = Number(row.seq);
      const broken = (reason: string): AuditChainReport => ({
        ok: false,
        entries: expected - 1,
        broken: { seq, id: String(row.id), createdAt: readableTime(row.created_at), action: row.action, reason },
      });
      let entry: AuditEntry;
      try {
        entry = toEntry(row);
      } catch {
        return broken("content hash mismatch: its details or time can no longer be read (changed after it was written)");
      }
      if (seq !== expected) {
        const missing = seq === expected + 1 ? `seq ${expected} is` : `seqs ${expected} to ${seq - 1} are`;
        return broken(`missing seq: ${missing} missing before this entry (removed from the log)`);
      }
      const hash = auditEntryHash({ ...entry, seq, prevHash: row.prev_hash ?? "" });
      if (hash !== row.hash) return broken("content hash mismatch: the entry was changed after it was written");
      if (row.prev_hash !== prevHash) {
        return broken(`prev link broken: it follows ${row.prev_hash ?? "nothing"}, the entry before it is ${prevHash}`);
      }
      if (loggedHead && seq === loggedHead.seq && hash !== loggedHead.hash) {
        return broken(`not the logged head: the log recorded ${loggedHead.hash} for seq ${seq} (rewritten since)`);
      }
      prevHash = hash;
      expected += 1;
    }
    if (rows.length < pageSize) break;
  }
  if (loggedHead && loggedHead.seq > expected - 1) {
    return {
      ok: false,
      entries: expected - 1,
      broken: {
        seq: loggedHead.seq,
        reason: `missing seq: the chain ends at seq ${expected - 1}, before the logged head (entries removed from its end)`,
      },
    };
  }
  const outside = await db
    .selectFrom("audit_log")
    .select(["id", "created_at", "action"])
    .where("seq", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  if (outside) {
    return {
      ok: false,
      entries: expected - 1,
      broken: {
        seq: null,
        id: String(outside.id),
        createdAt: readableTime(outside.created_at),
        action: outside.action,
        reason: "missing seq: the entry is not in the chain (written outside the application)",
      },
    };
  }
  return { ok: true, entries: expected - 1, head: { seq: expected - 1, hash: prevHash } };
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
  const entries = rows.slice(0, page.limit).map(toEntry);
  const last = entries.at(-1);
  return { entries, next: rows.length > page.limit && last ? { createdAt: last.createdAt, id: last.id } : undefined };
}

type EntryRow = {
  id: string;
  created_at: Date | string;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
  ip: string;
};

/** A row as both engines give it back, in one shape: what the page shows and what the chain hashes. */
function toEntry(row: EntryRow): AuditEntry {
  return {
    id: String(row.id),
    createdAt: toIso(row.created_at),
    actorId: row.actor_id === null ? null : String(row.actor_id),
    actorEmail: row.actor_email,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    details: (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
    ip: row.ip,
  };
}

/** A time for a message about an entry that may itself be damaged. */
function readableTime(value: unknown): string {
  try {
    return toIso(value);
  } catch {
    return String(value);
  }
}
