import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { toIso } from "./normalize";
import type { Database, LeadTable } from "./schema";

// The three lead tables are write-only for the site; the export CLI reads them back.

export type SalesLeadInput = {
  first_name: string;
  last_name: string;
  email: string;
  company: string;
  phone: string;
  message: string;
  product_name: string;
  source_page: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
};

export type DemoRequestInput = {
  first_name: string;
  last_name: string;
  email: string;
  company: string;
  job_title: string;
  phone: string;
  company_size: string;
  message: string;
  product_name: string;
  source_page: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
};

export type CareerApplicationInput = {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  linkedin_profile: string;
  years_experience: number | null;
  current_position: string;
  why_quorvant: string;
  biggest_achievement: string;
  work_style: string;
  resume_url: string;
  source_page: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
};

type Db = Kysely<Database>;

// Ids are made here, not by the engine, so both engines hand back the same kind of id without RETURNING tricks.
async function insertLead<T extends LeadTable>(db: Db, table: T, values: object): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto(table)
    .values({ ...values, id, created_at: new Date().toISOString() } as never)
    .execute();
  return id;
}

export function insertSalesLead(db: Db, values: SalesLeadInput): Promise<string> {
  return insertLead(db, "sales_leads", pick(values, salesLeadColumns));
}

export function insertDemoRequest(db: Db, values: DemoRequestInput): Promise<string> {
  return insertLead(db, "demo_requests", pick(values, demoRequestColumns));
}

export function insertCareerApplication(db: Db, values: CareerApplicationInput): Promise<string> {
  return insertLead(db, "career_applications", pick(values, careerApplicationColumns));
}

const tracking = ["source_page", "utm_source", "utm_medium", "utm_campaign"] as const;
const salesLeadColumns = ["first_name", "last_name", "email", "company", "phone", "message", "product_name", ...tracking] as const;
const demoRequestColumns = [
  "first_name", "last_name", "email", "company", "job_title", "phone", "company_size", "message", "product_name", ...tracking,
] as const;
const careerApplicationColumns = [
  "first_name", "last_name", "email", "phone", "linkedin_profile", "years_experience", "current_position",
  "why_quorvant", "biggest_achievement", "work_style", "resume_url", ...tracking,
] as const;

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
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const column of leadColumns[table]) out[column] = (row as Record<string, unknown>)[column];
    out.created_at = toIso(out.created_at);
    if (table === "career_applications" && out.years_experience != null) out.years_experience = Number(out.years_experience);
    return out;
  });
}
