import { createHash } from "node:crypto";
import { sql, type Kysely, type Migration } from "kysely";
import { auditEntryHash, AUDIT_CHAIN_GENESIS } from "~/db/audit-chain";
import { toIso, type Dialect } from "~/db/normalize";

// The audit log becomes a hash chain: each entry gets a sequence number, the previous entry's
// hash and its own, so an entry changed, removed or slipped in behind the application's back no
// longer matches. The entries already there join the chain, oldest first (created_at, then id),
// after search terms that named people are replaced by their hash, once, here: the chain must
// not begin by sealing what should not be kept.

const BATCH = 500;
type OldRow = {
  id: string;
  created_at: unknown;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
  ip: string;
};

export function auditChainMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // SQLite runs migrations outside a transaction (PostgreSQL inside one): this one's lifted
      // trigger must never be seen lifted, nor the chain half made.
      if (dialect === "postgres") await chainAuditLog(db, dialect);
      else await db.transaction().execute((trx) => chainAuditLog(trx, dialect));
    },
  };
}

async function chainAuditLog(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable("audit_log").addColumn("seq", "bigint").execute();
  await db.schema.alterTable("audit_log").addColumn("prev_hash", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("hash", "text").execute();
  // One entry per number: two servers appending at once cannot both take the same place.
  await db.schema.createIndex("audit_log_seq_idx").on("audit_log").column("seq").unique().execute();

  // The append-only trigger is lifted for these updates only, and put back as it was.
  if (dialect === "postgres") await sql`alter table audit_log disable trigger audit_log_append_only`.execute(db);
  else await sql`drop trigger audit_log_no_update`.execute(db);

  // Each batch is the oldest entries not chained yet, so nothing is read twice or skipped. An
  // entry that can no longer be read (details that are not JSON, a time that is not one: written
  // by hand) stays outside the chain, where verify names it, rather than stopping every start.
  let seq = 0;
  let prevHash = AUDIT_CHAIN_GENESIS;
  const unreadable: string[] = [];
  for (;;) {
    const rows = (
      await sql<OldRow>`select id, created_at, actor_id, actor_email, action, target_type, target_id, details, ip
        from audit_log where seq is null
        ${unreadable.length ? sql`and id not in (${sql.join(unreadable)})` : sql``}
        order by created_at, id limit ${BATCH}`.execute(db)
    ).rows;
    for (const row of rows) {
      let details: unknown;
      let createdAt: string;
      try {
        details = redactedDetails(row.action, typeof row.details === "string" ? JSON.parse(row.details) : row.details);
        createdAt = toIso(row.created_at);
      } catch {
        unreadable.push(row.id);
        continue;
      }
      seq += 1;
      const hash = auditEntryHash({
        id: String(row.id),
        seq,
        createdAt,
        actorId: row.actor_id === null ? null : String(row.actor_id),
        actorEmail: row.actor_email,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        details,
        ip: row.ip,
        prevHash,
      });
      await sql`update audit_log set details = ${JSON.stringify(details)}, seq = ${seq}, prev_hash = ${prevHash}, hash = ${hash}
        where id = ${row.id}`.execute(db);
      prevHash = hash;
    }
    if (rows.length < BATCH) break;
  }

  if (dialect === "postgres") await sql`alter table audit_log enable trigger audit_log_append_only`.execute(db);
  else
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
}

const EMAIL = /[^\s@]+@[^\s@]+/;

/** SHA-256 (hex) of the trimmed, lower-cased term: how a privacy request names a person. */
function termHash(term: string): string {
  return createHash("sha256").update(term.trim().toLowerCase()).digest("hex");
}

/**
 * An entry's details without search terms that can name a person: a lead export's `filters.q`
 * (whatever it holds) becomes `filters.q_sha256`, and any other filter of a lead or audit export
 * holding an email address becomes `<name>_sha256`. Other details are left as they are.
 */
export function redactedDetails(action: string, details: unknown): unknown {
  if (action !== "lead.export" && action !== "audit.exported") return details;
  if (!isRecord(details) || !isRecord(details.filters)) return details;
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(details.filters)) {
    const redact = typeof value === "string" && ((action === "lead.export" && name === "q") || EMAIL.test(value));
    if (redact) filters[`${name}_sha256`] = termHash(value);
    else filters[name] = value;
  }
  return { ...details, filters };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
