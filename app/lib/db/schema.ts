import type { ColumnType } from "kysely";

// Kysely table interfaces for the site's tables. Column names are fixed: tools outside the site read them.
// Reads come back engine-shaped (pg: Date/boolean, SQLite: string/0-1); the repositories normalise.

/** timestamptz in PostgreSQL, ISO-8601 text in SQLite; written as ISO strings. */
type Timestamp = ColumnType<Date | string, string | undefined, string>;
/** boolean in PostgreSQL, 0/1 in SQLite (the SQLite plugin turns written booleans into 0/1). */
type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;
/** jsonb in PostgreSQL (parsed by pg), JSON text in SQLite; written as JSON text. */
type Json = ColumnType<unknown, string, string>;
type Text = ColumnType<string, string | undefined, string>;

export interface BlogPostsTable {
  id: string;
  slug: string | null;
  title: string;
  excerpt: Text;
  content: Text;
  category: Text;
  author: Text;
  published_date: Timestamp;
  read_time: ColumnType<number, number | undefined, number>;
  image_url: string | null;
  featured: Bool;
  published: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LegalDocumentsTable {
  id: string;
  document_type: string;
  title: string;
  content: Json;
  last_updated: Timestamp;
  version: Text;
  published: Bool;
  created_at: Timestamp;
}

interface LeadCommon {
  id: string;
  created_at: Timestamp;
  first_name: Text;
  last_name: Text;
  email: Text;
  phone: Text;
  source_page: Text;
  utm_source: Text;
  utm_medium: Text;
  utm_campaign: Text;
}

export interface SalesLeadsTable extends LeadCommon {
  company: Text;
  message: Text;
  product_name: Text;
}

export interface DemoRequestsTable extends LeadCommon {
  company: Text;
  job_title: Text;
  company_size: Text;
  message: Text;
  product_name: Text;
}

export interface CareerApplicationsTable extends LeadCommon {
  linkedin_profile: Text;
  years_experience: number | null;
  current_position: Text;
  why_quorvant: Text;
  biggest_achievement: Text;
  work_style: Text;
  resume_url: Text;
}

export type DeliveryDestination = "email" | "webhook";
export type DeliveryStatus = "pending" | "sent" | "dead";

export interface LeadDeliveriesTable {
  id: string;
  lead_table: LeadTable;
  lead_id: string;
  destination: DeliveryDestination;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  locked_by: string | null;
  locked_until: ColumnType<Date | string | null, string | null | undefined, string | null>;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

export interface Database {
  lead_deliveries: LeadDeliveriesTable;
  blog_posts: BlogPostsTable;
  legal_documents: LegalDocumentsTable;
  sales_leads: SalesLeadsTable;
  demo_requests: DemoRequestsTable;
  career_applications: CareerApplicationsTable;
}

export type LeadTable = "sales_leads" | "demo_requests" | "career_applications";
