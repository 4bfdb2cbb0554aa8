import type { Expression, ExpressionBuilder, Kysely, SqlBool } from "kysely";
import { recordAudit, type AuditActor } from "~/features/audit/audit.server";
import { toIso } from "~/db/normalize";
import type { Database, LeadTable } from "~/db/schema";
import { leadFormList, workflowOf, type LeadFormFacts, type RetentionRule } from "~/features/leads/registry";

// How long leads are kept, as the privacy policy promises: each form's retention rule in the
// registry, the months from settings. Contact and demo requests go once their last interaction
// (or, never touched, their submission) is older than RETENTION_SALES_MONTHS, unless won; job
// applications once their decision (hired or rejected) is older than RETENTION_APPLICATIONS_MONTHS;
// an undecided application stays. A lead goes with its deliveries (which hold its payload while
// queued) and its activity.

type Db = Kysely<Database>;

export type RetentionMonths = Record<RetentionRule["monthsSetting"], number>;

type LeadFilter = (eb: ExpressionBuilder<Database, LeadTable>) => Expression<SqlBool>;

/** The same time `months` calendar months earlier (UTC); the 31st of a shorter month becomes its last day. */
export function monthsBefore(now: Date, months: number): Date {
  const date = new Date(now.getTime());
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}

/** The rows of `form`'s table that its rule says must go at `now`. */
function expired(form: LeadFormFacts, months: RetentionMonths, now: Date): LeadFilter {
  const cutoff = monthsBefore(now, months[form.retention.monthsSetting]).toISOString();
  const rule = form.retention;
  return (eb) => {
    if (rule.from === "last-interaction") {
      return eb.and([eb("status", "<>", rule.keep), eb(eb.fn.coalesce("last_interaction_at", "created_at"), "<", cutoff)]);
    }
    return eb.and([
      eb("status", "in", [...workflowOf(form).decided]),
      eb("decided_at", "is not", null),
      eb("decided_at", "<", cutoff),
    ]);
  };
}

export type ExpiredLead = {
  table: LeadTable;
  id: string;
  createdAt: string;
  lastInteractionAt: string | null;
  decidedAt: string | null;
  status: string;
};

/** What a purge at `now` would delete, oldest first per table: ids and dates only. */
export async function findExpiredLeads(db: Db, months: RetentionMonths, now = new Date()): Promise<ExpiredLead[]> {
  const found: ExpiredLead[] = [];
  for (const form of leadFormList) {
    const rows = await db
      .selectFrom(form.table)
      .select(["id", "created_at", "last_interaction_at", "decided_at", "status"])
      .where(expired(form, months, now))
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    for (const row of rows) {
      found.push({
        table: form.table,
        id: String(row.id),
        createdAt: toIso(row.created_at),
        lastInteractionAt: row.last_interaction_at ? toIso(row.last_interaction_at) : null,
        decidedAt: row.decided_at ? toIso(row.decided_at) : null,
        status: row.status,
      });
    }
  }
  return found;
}

/** Rows deleted per table: each lead table, and the deliveries and activity that went with them. */
export type PurgeCounts = Record<LeadTable | "lead_deliveries" | "lead_activity", number>;

/**
 * Deletes a lead table's rows by id (those still matching `stillMatching`, when given: a lead
 * changed since it was picked stays) and then the deliveries and activity of the leads that went.
 * Call inside a transaction.
 */
export async function deleteLeadsWithTrail(
  trx: Db,
  table: LeadTable,
  ids: readonly string[],
  counts: PurgeCounts,
  stillMatching?: LeadFilter,
): Promise<void> {
  // Bound parameters stay well under either engine's limit.
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const deleted = await trx
      .deleteFrom(table)
      .where("id", "in", chunk)
      .$if(stillMatching !== undefined, (query) => query.where(stillMatching!))
      .returning("id")
      .execute();
    const gone = deleted.map((row) => String(row.id));
    counts[table] += gone.length;
    if (gone.length === 0) continue;
    const deliveries = await trx
      .deleteFrom("lead_deliveries")
      .where("lead_table", "=", table)
      .where("lead_id", "in", gone)
      .executeTakeFirst();
    const activity = await trx
      .deleteFrom("lead_activity")
      .where("lead_table", "=", table)
      .where("lead_id", "in", gone)
      .executeTakeFirst();
    counts.lead_deliveries += Number(deliveries.numDeletedRows);
    counts.lead_activity += Number(activity.numDeletedRows);
  }
}

export function emptyCounts(): PurgeCounts {
  const counts = { lead_deliveries: 0, lead_activity: 0 } as PurgeCounts;
  for (const form of leadFormList) counts[form.table] = 0;
  return counts;
}

/**
 * Deletes every lead its rule says must go at `now`, with its deliveries and activity, in one
 * transaction with one audit entry: the counts per table and the months applied, never a value
 * of a lead.
 */
export async function purgeExpiredLeads(
  db: Db,
  months: RetentionMonths,
  { actor, ip, now = new Date() }: { actor: AuditActor; ip: string; now?: Date },
): Promise<PurgeCounts> {
  return db.transaction().execute(async (trx) => {
    const counts = emptyCounts();
    for (const form of leadFormList) {
      const rows = await trx
        .selectFrom(form.table)
        .select("id")
        .where(expired(form, months, now))
        .execute();
      await deleteLeadsWithTrail(
        trx,
        form.table,
        rows.map((row) => String(row.id)),
        counts,
        expired(form, months, now),
      );
    }
    await recordAudit(trx, {
      actor,
      action: "leads.purged",
      target: { type: "leads", id: "retention" },
      details: { counts, months, cutoffs: cutoffsAt(months, now) },
      ip,
    });
    return counts;
  });
}

function cutoffsAt(months: RetentionMonths, now: Date): Record<string, string> {
  return Object.fromEntries(Object.entries(months).map(([setting, value]) => [setting, monthsBefore(now, value).toISOString()]));
}
