import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { dialectOf, toIso } from "~/db/normalize";
import { enqueueDeliveries, newDeliveryRows } from "~/features/leads/db/deliveries.server";
import type { Database, DeliveryDestination, LeadTable } from "~/db/schema";
import {
  leadFormServer,
  leadFormServerList,
  leadFormServerOfTable,
  type LeadInput,
  type Tracking,
} from "~/features/leads/registry.server";
import type { LeadFormId } from "~/features/leads/registry";

// The lead tables are written by the site's forms; the export CLI, the delivery worker, the
// retention job and privacy requests read them back. Each form's columns come from the registry.

export type { Tracking };

export type SalesLeadInput = LeadInput<"contact-sales">;
export type DemoRequestInput = LeadInput<"request-demo">;
export type CareerApplicationInput = LeadInput<"career-application">;

type Db = Kysely<Database>;

/** An id and time made by the caller: a lead kept in the spool is stored under the id it was kept with. */
export type LeadIdentity = { id: string; createdAt: string };

/**
 * Stores a lead of `form` and, atomically with it, one pending delivery per destination: a crash
 * between the two cannot lose the delivery. On PostgreSQL that is one statement (the lead's
 * insert in a WITH clause), one round trip instead of a four-statement transaction; SQLite, in
 * process, uses a transaction. Ids are made here (or by the caller, `identity`), not by the
 * engine, so both engines hand back the same kind of id without RETURNING tricks. Only the form's
 * own columns reach the INSERT, whatever else the caller's object carries.
 */
export async function insertLead<F extends LeadFormId>(
  db: Db,
  form: F,
  values: LeadInput<F>,
  destinations: readonly DeliveryDestination[] = [],
  identity: LeadIdentity = { id: randomUUID(), createdAt: new Date().toISOString() },
): Promise<string> {
  const { table, columns } = leadFormServer(form);
  const { id } = identity;
  const row = { ...pick(values, columns), id, created_at: identity.createdAt } as never;
  if (destinations.length === 0) {
    await db.insertInto(table).values(row).execute();
    return id;
  }
  if (dialectOf(db) === "postgres") {
    await db
      .with("lead", (qb) => qb.insertInto(table).values(row))
      .insertInto("lead_deliveries")
      .values(newDeliveryRows(table, id, destinations))
      .execute();
    return id;
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto(table).values(row).execute();
    await enqueueDeliveries(trx, table, id, destinations);
  });
  return id;
}

/**
 * insertLead under an id made earlier, at most once: when the insert fails and a lead with that id
 * is already there, an earlier attempt stored it (with its deliveries, in the same statement or
 * transaction) and this one is "already stored". The primary key decides, so two servers (or a
 * replay that crashed after its insert) storing the same lead end with one row.
 */
export async function insertLeadOnce<F extends LeadFormId>(
  db: Db,
  form: F,
  values: LeadInput<F>,
  destinations: readonly DeliveryDestination[],
  identity: LeadIdentity,
): Promise<"stored" | "already stored"> {
  try {
    await insertLead(db, form, values, destinations, identity);
    return "stored";
  } catch (error) {
    const { table } = leadFormServer(form);
    const existing = await db
      .selectFrom(table)
      .select("id")
      .where("id", "=", identity.id)
      .executeTakeFirst()
      .catch(() => undefined);
    if (existing) return "already stored";
    throw error;
  }
}

/** The columns of each lead table in export order. */
export const leadColumns = Object.fromEntries(leadFormServerList.map((form) => [form.table, form.columns])) as Record<
  LeadTable,
  readonly string[]
>;

function pick(values: object, columns: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const column of columns) {
    const value = (values as Record<string, unknown>)[column];
    if (value !== undefined && column !== "id" && column !== "created_at") picked[column] = value;
  }
  return picked;
}

/** Rows oldest first, for the export CLI; `since` is any date or timestamp (inclusive). */
export async function listLeads(db: Db, table: LeadTable, opts: { since?: string } = {}): Promise<Record<string, unknown>[]> {
  let query = db.selectFrom(table).selectAll();
  if (opts.since !== undefined) {
    const since = new Date(opts.since);
    if (Number.isNaN(since.getTime())) throw new RangeError(`not a date: ${opts.since}`);
    query = query.where("created_at", ">=", since.toISOString());
  }
  const rows = await query.orderBy("created_at").orderBy("id").execute();
  return rows.map((row) => toLeadRecord(table, row));
}

/** One lead by id, its columns in export order (the delivery worker reads the lead when it sends). */
export async function findLead(db: Db, table: LeadTable, id: string): Promise<Record<string, unknown> | undefined> {
  const row = await db.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst();
  return row && toLeadRecord(table, row);
}

/** A row with the form's columns in export order; whole numbers as numbers on both engines. */
export function toLeadRecord(table: LeadTable, row: object): Record<string, unknown> {
  const form = leadFormServerOfTable(table);
  const out: Record<string, unknown> = {};
  for (const column of leadColumns[table]) out[column] = (row as Record<string, unknown>)[column];
  out.id = String(out.id);
  out.created_at = toIso(out.created_at);
  for (const column of form?.numberColumns ?? []) if (out[column] != null) out[column] = Number(out[column]);
  return out;
}
