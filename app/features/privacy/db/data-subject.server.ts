import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "zod";
import { recordAudit, type Actor } from "~/features/audit/audit.server";
import { toLeadRecord } from "~/features/leads/db/leads.server";
import { toIso } from "~/db/normalize";
import { deleteLeadsWithTrail, emptyCounts, type PurgeCounts } from "~/features/leads/db/retention.server";
import type { Database, LeadTable } from "~/db/schema";
import type { LeadFormId } from "~/features/leads/registry";
import { leadFormServerList, leadFormServerOfTable } from "~/features/leads/registry.server";

// Privacy requests about one email address: what the site holds about it (every lead table, the
// leads' deliveries and activity, and what a server's lead spool still keeps, which its caller
// reads), as one JSON document; correcting one field of one lead; erasing all of it. Each is
// audited; the audit log never holds the address, only a one-way hash of it. An erasure is also
// recorded (hash and time) in `subject_erasures`, which every server applies to its own lead
// spool before storing anything from it (app/features/leads/spool-erasure.server.ts).

type Db = Kysely<Database>;

/** Whose request, for the audit entry: a person in the back office, or nobody (the command line). */
export type RequestedBy = { actor: Actor; ip: string };

/** How a request is named in the audit log: SHA-256 (hex) of the trimmed, lower-cased address. */
export function subjectHash(email: string): string {
  return createHash("sha256").update(normalizeAddress(email)).digest("hex");
}

export function normalizeAddress(email: string): string {
  return email.trim().toLowerCase();
}

export const subjectAddress = z
  .string({ error: "Enter an email address." })
  .trim()
  .min(1, "Enter an email address.")
  .max(254, "An email address has at most 254 characters.")
  .pipe(z.email({ error: "Enter a valid email address, such as name@example.com." }));

export type SubjectDelivery = {
  id: string;
  destination: string;
  status: string;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  last_error: string | null;
};

export type SubjectActivity = {
  id: string;
  kind: string;
  actor_email: string;
  from_value: string;
  to_value: string;
  body: string;
  created_at: string;
};

export type SubjectLead = {
  form: LeadFormId;
  table: LeadTable;
  id: string;
  /** Every column of the row: the form's in export order first, then the workflow's. */
  lead: Record<string, unknown>;
  deliveries: SubjectDelivery[];
  activity: SubjectActivity[];
};

export type SubjectData = { email: string; leads: SubjectLead[] };

/** A lead a server keeps in its lead spool (the database was unreachable when it was posted). */
export type SpooledLead = {
  /** The entry's file name in the spool (or in its `rejected/` directory). */
  file: string;
  /** `waiting` to be stored, or `rejected`: set aside for an operator (unreadable, or refused by the database). */
  state: "waiting" | "rejected";
  form: string | null;
  id: string | null;
  created_at: string | null;
  /** What the visitor posted; null when the file could not be read as an entry. */
  lead: Record<string, unknown> | null;
};

function timestampOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

/** A whole row, engine differences smoothed over: the export-order columns first, dates as ISO text. */
function fullRecord(table: LeadTable, row: Record<string, unknown>): Record<string, unknown> {
  const record = toLeadRecord(table, row);
  for (const [column, value] of Object.entries(row)) {
    if (column in record) continue;
    record[column] = value instanceof Date ? value.toISOString() : value;
  }
  for (const column of ["last_interaction_at", "decided_at"])
    if (column in record) record[column] = timestampOrNull(record[column]);
  return record;
}

/** Everything held about `email` (case-insensitive), each table in registry order, oldest lead first. */
export async function findSubjectData(db: Db, email: string): Promise<SubjectData> {
  const address = normalizeAddress(email);
  const leads: SubjectLead[] = [];
  for (const form of leadFormServerList) {
    const rows = await db
      .selectFrom(form.table)
      .selectAll()
      .where((eb) => eb(eb.fn<string>("lower", ["email"]), "=", address))
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    if (rows.length === 0) continue;
    const ids = rows.map((row) => String(row.id));
    const deliveries = await db
      .selectFrom("lead_deliveries")
      .select(["id", "lead_id", "destination", "status", "attempts", "created_at", "sent_at", "last_error"])
      .where("lead_table", "=", form.table)
      .where("lead_id", "in", ids)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const activity = await db
      .selectFrom("lead_activity")
      .select(["id", "lead_id", "kind", "actor_email", "from_value", "to_value", "body", "created_at"])
      .where("lead_table", "=", form.table)
      .where("lead_id", "in", ids)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    for (const row of rows) {
      const id = String(row.id);
      leads.push({
        form: form.id,
        table: form.table,
        id,
        lead: fullRecord(form.table, row as Record<string, unknown>),
        deliveries: deliveries
          .filter((delivery) => String(delivery.lead_id) === id)
          .map((delivery) => ({
            id: String(delivery.id),
            destination: delivery.destination,
            status: delivery.status,
            attempts: Number(delivery.attempts),
            created_at: toIso(delivery.created_at),
            sent_at: timestampOrNull(delivery.sent_at),
            last_error: delivery.last_error,
          })),
        activity: activity
          .filter((entry) => String(entry.lead_id) === id)
          .map((entry) => ({
            id: String(entry.id),
            kind: entry.kind,
            actor_email: entry.actor_email,
            from_value: entry.from_value,
            to_value: entry.to_value,
            body: entry.body,
            created_at: toIso(entry.created_at),
          })),
      });
    }
  }
  return { email: address, leads };
}

/** Counts per table of what is held (and per place outside the database): for the audit log, which gets no values. */
export function subjectCounts(data: SubjectData, spooled: readonly SpooledLead[] = []): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const form of leadFormServerList) counts[form.table] = 0;
  counts.lead_deliveries = 0;
  counts.lead_activity = 0;
  counts.lead_spool = spooled.length;
  for (const lead of data.leads) {
    counts[lead.table] = (counts[lead.table] ?? 0) + 1;
    counts.lead_deliveries! += lead.deliveries.length;
    counts.lead_activity! += lead.activity.length;
  }
  return counts;
}

/**
 * Looks everything up for a person in the back office; the look is audited (hash and counts).
 * `spooled`: what this server's lead spool keeps about the address (found by the caller).
 */
export async function lookUpSubject(
  db: Db,
  email: string,
  by: RequestedBy,
  spooled: readonly SpooledLead[] = [],
): Promise<SubjectData> {
  const data = await findSubjectData(db, email);
  await recordAudit(db, {
    actor: by.actor,
    action: "privacy.looked-up",
    target: { type: "data-subject", id: subjectHash(email) },
    details: { counts: subjectCounts(data, spooled) },
    ip: by.ip,
  });
  return data;
}

/**
 * The export of everything held about `email`: one JSON document (pretty-printed), audited. Its
 * `lead_spool` lists what the lead spool of the server (or machine) that made it still keeps:
 * leads posted while the database was down, not stored yet or refused.
 */
export async function exportSubjectData(
  db: Db,
  email: string,
  by: RequestedBy,
  now = new Date(),
  spooled: readonly SpooledLead[] = [],
): Promise<string> {
  const data = await findSubjectData(db, email);
  await recordAudit(db, {
    actor: by.actor,
    action: "privacy.exported",
    target: { type: "data-subject", id: subjectHash(email) },
    details: { counts: subjectCounts(data, spooled) },
    ip: by.ip,
  });
  return `${JSON.stringify({ exportedAt: now.toISOString(), ...data, lead_spool: spooled }, null, 2)}\n`;
}

export type CorrectionResult = { ok: true } | { ok: false; field: "lead" | "field" | "value"; message: string };

/**
 * Sets one field of one lead held about `email` to `value` (as typed in a form: text, the form's
 * schema decides), validated with that form's own rule for the field. The lead's activity records
 * which field was corrected and the audit log says so too; neither keeps the old or new value.
 */
export async function correctSubjectField(
  db: Db,
  { email, table, id, field, value }: { email: string; table: string; id: string; field: string; value: string },
  by: RequestedBy,
): Promise<CorrectionResult> {
  const form = leadFormServerOfTable(table);
  if (!form) return { ok: false, field: "lead", message: "Choose one of the leads listed." };
  if (!form.fields.includes(field)) return { ok: false, field: "field", message: `Choose a field of a ${form.noun}.` };
  const shape = form.schema.shape as Record<string, z.ZodType>;
  const input = form.numberColumns.includes(field)
    ? value.trim() === ""
      ? undefined
      : Number(value)
    : value === ""
      ? undefined
      : value;
  const parsed = shape[field]!.safeParse(input);
  if (!parsed.success)
    return { ok: false, field: "value", message: parsed.error.issues[0]?.message ?? "This value is not valid." };
  const address = normalizeAddress(email);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable(form.table)
      .set({ [field]: parsed.data } as never)
      .where("id", "=", id)
      .where((eb) => eb(eb.fn<string>("lower", ["email"]), "=", address))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      return { ok: false, field: "lead", message: "That lead is not one held about this address any more." } as const;
    }
    await trx
      .insertInto("lead_activity")
      .values({
        id: randomUUID(),
        lead_table: form.table,
        lead_id: id,
        kind: "correction",
        actor_id: by.actor?.id ?? null,
        actor_email: by.actor?.email ?? "",
        from_value: field,
        to_value: "",
        body: "",
        created_at: new Date().toISOString(),
      })
      .execute();
    await recordAudit(trx, {
      actor: by.actor,
      action: "privacy.corrected",
      target: { type: form.table, id },
      details: { field, subject: subjectHash(email) },
      ip: by.ip,
    });
    return { ok: true } as const;
  });
}

/**
 * Erases everything held about `email`: its leads in every table, their deliveries and activity,
 * in one transaction with the audit entry (the address's hash and the counts, never the address).
 *
 * First, in a statement of its own, the erasure is recorded for the lead spools (which each server
 * applies to its own). Committed before the leads are deleted, it closes the race with a spool
 * replay storing a lead of this address meanwhile: the replay looks for the record after its
 * insert, so either it sees the record (and deletes what it stored) or its insert was committed
 * before the record, and so before the deletion below, which then finds it.
 */
export async function eraseSubject(db: Db, email: string, by: RequestedBy, at = new Date()): Promise<PurgeCounts> {
  const address = normalizeAddress(email);
  await recordErasure(db, email, at);
  return db.transaction().execute(async (trx) => {
    const counts = emptyCounts();
    for (const form of leadFormServerList) {
      const rows = await trx
        .selectFrom(form.table)
        .select("id")
        .where((eb) => eb(eb.fn<string>("lower", ["email"]), "=", address))
        .execute();
      await deleteLeadsWithTrail(
        trx,
        form.table,
        rows.map((row) => String(row.id)),
        counts,
      );
    }
    await recordAudit(trx, {
      actor: by.actor,
      action: "privacy.erased",
      target: { type: "data-subject", id: subjectHash(email) },
      details: { counts },
      ip: by.ip,
    });
    return counts;
  });
}

/** Records (or moves forward) the erasure of `email` at `at`, for the lead spools: the hash only. */
export async function recordErasure(db: Db, email: string, at = new Date()): Promise<void> {
  const erasedAt = at.toISOString();
  await db
    .insertInto("subject_erasures")
    .values({ subject_hash: subjectHash(email), erased_at: erasedAt })
    .onConflict((conflict) => conflict.column("subject_hash").doUpdateSet({ erased_at: erasedAt }))
    .execute();
}

/** Erasures recorded at or after `since` (ISO time): hash → when (ISO). */
export async function erasuresSince(db: Db, since: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("subject_erasures")
    .select(["subject_hash", "erased_at"])
    .where("erased_at", ">=", since)
    .execute();
  return new Map(rows.map((row) => [row.subject_hash, toIso(row.erased_at)]));
}

/**
 * Whether a lead of `email` posted at `createdAt` was erased since: a lead posted before an erasure
 * never comes back from a spool; one posted after it is a new request of that person's.
 */
export async function erasedSince(db: Db, email: string, createdAt: string): Promise<boolean> {
  if (!email.trim()) return false;
  const row = await db
    .selectFrom("subject_erasures")
    .select("subject_hash")
    .where("subject_hash", "=", subjectHash(email))
    .where("erased_at", ">=", createdAt)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes one lead with its deliveries and activity: a spooled lead of an erased address that reached the database. */
export async function deleteErasedLead(db: Db, table: LeadTable, id: string): Promise<PurgeCounts> {
  return db.transaction().execute(async (trx) => {
    const counts = emptyCounts();
    await deleteLeadsWithTrail(trx, table, [id], counts);
    return counts;
  });
}
