import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { CareerApplicationValues, ContactSalesValues, DemoRequestValues } from "~/lib/forms/schemas";
import { dialectOf, toIso } from "~/lib/db/normalize";
import { enqueueDeliveries, newDeliveryRows } from "~/lib/db/deliveries.server";
import type { Database, DeliveryDestination, LeadTable } from "~/lib/db/schema";

// The three lead tables are write-only for the site; the export CLI reads them back.

const trackingColumns = ["source_page", "utm_source", "utm_medium", "utm_campaign"] as const;

/** Where a lead came from: the form page's path and its utm_* query parameters ('' when absent). */
export type Tracking = Record<(typeof trackingColumns)[number], string>;

/** A text column accepts any string, though the form's choice lists (product, company size, work style) narrow it. */
type Column<Value> = Value extends string ? string : Value;

/** A lead row as inserted: the fields of the form's schema (its output) plus the tracking columns. */
type LeadRow<Values> = { [Field in keyof Values]: Column<Values[Field]> } & Tracking;

export type SalesLeadInput = LeadRow<ContactSalesValues>;
export type DemoRequestInput = LeadRow<DemoRequestValues>;
export type CareerApplicationInput = LeadRow<CareerApplicationValues>;

type Db = Kysely<Database>;

/**
 * Stores a lead and, atomically with it, one pending delivery per destination: a crash between
 * the two cannot lose the delivery. On PostgreSQL that is one statement (the lead's insert in a
 * WITH clause), one round trip instead of a four-statement transaction; SQLite, in process, uses
 * a transaction. Ids are made here, not by the engine, so both engines hand back the same kind
 * of id without RETURNING tricks.
 */
async function insertLead(
  db: Db,
  table: LeadTable,
  values: object,
  destinations: readonly DeliveryDestination[],
): Promise<string> {
  const id = randomUUID();
  const row = { ...values, id, created_at: new Date().toISOString() } as never;
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

export function insertSalesLead(
  db: Db,
  values: SalesLeadInput,
  destinations: readonly DeliveryDestination[] = [],
): Promise<string> {
  return insertLead(db, "sales_leads", pick(values, salesLeadColumns), destinations);
}

export function insertDemoRequest(
  db: Db,
  values: DemoRequestInput,
  destinations: readonly DeliveryDestination[] = [],
): Promise<string> {
  return insertLead(db, "demo_requests", pick(values, demoRequestColumns), destinations);
}

export function insertCareerApplication(
  db: Db,
  values: CareerApplicationInput,
  destinations: readonly DeliveryDestination[] = [],
): Promise<string> {
  return insertLead(db, "career_applications", pick(values, careerApplicationColumns), destinations);
}

const salesLeadColumns = columnsOf<SalesLeadInput>()([
  "first_name",
  "last_name",
  "email",
  "company",
  "phone",
  "message",
  "product_name",
  ...trackingColumns,
]);
const demoRequestColumns = columnsOf<DemoRequestInput>()([
  "first_name",
  "last_name",
  "email",
  "company",
  "job_title",
  "phone",
  "company_size",
  "message",
  "product_name",
  ...trackingColumns,
]);
const careerApplicationColumns = columnsOf<CareerApplicationInput>()([
  "first_name",
  "last_name",
  "email",
  "phone",
  "linkedin_profile",
  "years_experience",
  "current_position",
  "why_quorvant",
  "biggest_achievement",
  "work_style",
  "resume_url",
  ...trackingColumns,
]);

/** A table's columns in export order. Every field of the row must be listed, or the compiler names the missing one. */
function columnsOf<Row>() {
  return <const Columns extends readonly (keyof Row)[]>(
    columns: Columns &
      ([Exclude<keyof Row, Columns[number]>] extends [never] ? unknown : { missing: Exclude<keyof Row, Columns[number]> }),
  ): Columns => columns;
}

/** The columns of each lead table in export order. */
export const leadColumns: Record<LeadTable, readonly string[]> = {
  sales_leads: ["id", "created_at", ...salesLeadColumns],
  demo_requests: ["id", "created_at", ...demoRequestColumns],
  career_applications: ["id", "created_at", ...careerApplicationColumns],
};

/** Only the table's own columns reach the INSERT, whatever else the caller's object carries. */
function pick<T extends object>(values: T, columns: readonly (keyof T)[]): Partial<T> {
  const picked: Partial<T> = {};
  for (const column of columns) if (values[column] !== undefined) picked[column] = values[column];
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

function toLeadRecord(table: LeadTable, row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of leadColumns[table]) out[column] = (row as Record<string, unknown>)[column];
  out.id = String(out.id);
  out.created_at = toIso(out.created_at);
  if (table === "career_applications" && out.years_experience != null) out.years_experience = Number(out.years_experience);
  return out;
}
