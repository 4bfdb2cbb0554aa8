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
/** A BCP 47 tag (app/features/i18n/site-locales.ts); 'en' when a row is written without one. */
type Locale = ColumnType<string, string | undefined, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;

export interface BlogPostsTable {
  id: string;
  locale: Locale;
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
  unpublished_at: NullableTimestamp;
  /** A translation's source (a post; for a legal document, the version it translates); null for a source. */
  translation_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** The source's revision the translation was made from: older than the source's, the translation is outdated. */
  source_revision: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A view of content_revisions' posts since 0015-content-core: SQL written against it keeps working. */
export interface BlogPostRevisionsTable {
  post_id: string;
  number: number;
  snapshot: Json;
  summary: Text;
  author_id: string | null;
  author_email: Text;
  created_at: Timestamp;
}

/** Every revision of every content type (app/features/content), numbered per document. */
export interface ContentRevisionsTable {
  type: string;
  document_id: string;
  number: number;
  snapshot: Json;
  summary: Text;
  author_id: string | null;
  author_email: Text;
  created_at: Timestamp;
}

/** Documents of the content types without a table of their own (pages): a draft, and what visitors see. */
export interface ContentDocumentsTable {
  id: string;
  type: string;
  path: string;
  draft: Json;
  published: NullableJson;
  published_path: ColumnType<string | null, string | null | undefined, string | null>;
  published_at: NullableTimestamp;
  /** When visitors first saw it since it was last taken off the site (a job posting's date). */
  first_published_at: NullableTimestamp;
  scheduled: NullableJson;
  scheduled_path: ColumnType<string | null, string | null | undefined, string | null>;
  publish_at: NullableTimestamp;
  unpublished_at: NullableTimestamp;
  state: ColumnType<string, string | undefined, string>;
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  created_by_email: Text;
  updated_at: Timestamp;
  updated_by_email: Text;
  locale: Locale;
  /** A translation's source document (in the default locale); null for a source or a document never translated. */
  translation_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** The source's revision the translation was made from: older than the source's, the translation is outdated. */
  source_revision: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface BlogSlugRedirectsTable {
  slug: string;
  post_id: string;
  created_at: Timestamp;
  hits: ColumnType<number, number | undefined, number>;
  last_used_at: NullableTimestamp;
}

/** An old address answering with a redirect or 410 Gone (~/features/redirects). */
export interface RedirectsTable {
  id: string;
  from_path: string;
  target: Text;
  kind: "permanent" | "temporary" | "gone";
  source: ColumnType<"editor" | "page-move", "editor" | "page-move" | undefined, "editor" | "page-move">;
  hits: ColumnType<number, number | undefined, number>;
  last_used_at: NullableTimestamp;
  created_at: Timestamp;
  created_by: Text;
  updated_at: Timestamp;
  updated_by: Text;
}

export interface LegalDocumentsTable {
  id: string;
  locale: Locale;
  document_type: string;
  title: string;
  content: Json;
  last_updated: Timestamp;
  version: Text;
  published: Bool;
  created_at: Timestamp;
  /** What changed in this version, in the words of whoever wrote it (back office, content files). */
  change_summary: Text;
  /** Who created the version in the back office (their email then); "" for rows from elsewhere. */
  author_email: Text;
  /** When a draft was last saved in the back office. */
  edited_at: NullableTimestamp;
  /** When the version went live through the back office or a content file that says so. */
  published_at: NullableTimestamp;
  published_by_email: Text;
  /** Counts a draft's saves: a form carries the revision it was made from. */
  revision: ColumnType<number, number | undefined, number>;
  /** A translation's source (a post; for a legal document, the version it translates); null for a source. */
  translation_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** The source's revision the translation was made from: older than the source's, the translation is outdated. */
  source_revision: ColumnType<number | null, number | null | undefined, number | null>;
}

interface LeadCommon {
  id: string;
  created_at: Timestamp;
  /** The language of the form the visitor sent. */
  locale: Locale;
  first_name: Text;
  last_name: Text;
  email: Text;
  phone: Text;
  source_page: Text;
  /** The utm_* columns: the form page's own query string, '' for a parameter it does not have. */
  utm_source: Text;
  utm_medium: Text;
  utm_campaign: Text;
  utm_term: Text;
  utm_content: Text;
  /** The host of the site that sent the visitor to their first page, '' when none or our own. */
  referrer_host: Text;
  /** The path of the visit's first page on the site. */
  landing_page: Text;
  /** The first_utm_* columns: the visit's first page's campaign (the lead's source in the report and inbox). */
  first_utm_source: Text;
  first_utm_medium: Text;
  first_utm_campaign: Text;
  first_utm_term: Text;
  first_utm_content: Text;
  /** A status of the form's workflow (see ~/features/leads/registry). */
  status: Text;
  owner_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Null until someone acts on the lead; retention then counts from created_at. */
  last_interaction_at: NullableTimestamp;
  /** When the lead reached a final status (won, lost, hired, rejected); cleared if it moves back. */
  decided_at: NullableTimestamp;
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
  /** The open position applied for (a content document's id); null for an open application. */
  position_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** That position's title when the application was made. */
  position_title: ColumnType<string | null, string | null | undefined, string | null>;
  /** What was asked for when the position was closed, unknown or a draft: "<id> (<title or unknown>)". */
  position_requested: ColumnType<string | null, string | null | undefined, string | null>;
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

export type LeadActivityKind = "status" | "owner" | "note" | "reply" | "correction" | "delivery";

export interface LeadActivityTable {
  id: string;
  lead_table: LeadTable;
  lead_id: string;
  kind: LeadActivityKind;
  actor_id: string | null;
  actor_email: Text;
  /** For a change: the value before and after (status names, owner ids, a corrected field's name in from_value). */
  from_value: Text;
  to_value: Text;
  /** A note's or a recorded reply's text. */
  body: Text;
  created_at: Timestamp;
}

/** A background job's lease (one server at a time) and when it last ran to the end. */
export interface JobLeasesTable {
  name: string;
  locked_by: string | null;
  locked_until: ColumnType<Date | string | null, string | null | undefined, string | null>;
  last_run_at: NullableTimestamp;
}

/** A menu edited in the back office (header menus, footer columns, footer links); no row: the code's default. */
export interface NavigationMenusTable {
  menu: string;
  items: Json;
  revision: ColumnType<number, number | undefined, number>;
  updated_at: Timestamp;
  updated_by: Text;
}

/** An erased address (its SHA-256, as in the audit log) and when: applied by every server to its lead spool. */
export interface SubjectErasuresTable {
  subject_hash: string;
  erased_at: Timestamp;
}

/** Page views per UTC day, page, referring site and campaign: counts only, nothing about a visitor. */
export interface PageViewsTable {
  day: string;
  path: string;
  referrer_host: Text;
  utm_source: Text;
  utm_medium: Text;
  utm_campaign: Text;
  utm_term: Text;
  utm_content: Text;
  views: number;
}

export type RolesSource = "back-office" | "identity-provider";

export interface AdminUsersTable {
  id: string;
  email: string;
  display_name: Text;
  roles_source: ColumnType<RolesSource, RolesSource | undefined, RolesSource>;
  disabled_at: NullableTimestamp;
  last_sign_in_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface AdminSsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface AdminUserRolesTable {
  user_id: string;
  role: string;
}

/** The languages a person may edit; no row: every language. */
export interface AdminUserLocalesTable {
  user_id: string;
  locale: string;
}

export interface AdminPasskeysTable {
  id: string;
  user_id: string;
  public_key: string;
  /** bigint: pg returns it as text. */
  counter: ColumnType<number | string, number | undefined, number>;
  transports: Text;
  device_type: Text;
  backed_up: Bool;
  name: Text;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export type AuthMethod = "passkey" | "sso";

export interface AdminSessionsTable {
  id: string;
  user_id: string;
  auth_method: AuthMethod;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  authenticated_at: Timestamp;
  expires_at: Timestamp;
  csrf_secret: string;
  ip: Text;
  user_agent: Text;
  data: ColumnType<unknown, string | undefined, string>;
}

export interface AdminInvitationsTable {
  id: string;
  token_hash: string;
  email: string;
  /** Comma-separated role names. */
  roles: string;
  /** Comma-separated locale tags the invited person may edit; empty: every language. */
  locales: Text;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface AdminSignInStatesTable {
  id: string;
  purpose: string;
  payload: Json;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  created_at: Timestamp;
  actor_id: string | null;
  actor_email: Text;
  action: string;
  target_type: Text;
  target_id: Text;
  details: ColumnType<unknown, string | undefined, never>;
  ip: Text;
  /** The entry's place in the hash chain (a bigint: text from PostgreSQL); null for a row written outside it. */
  seq: ColumnType<number | string | null, number | undefined, never>;
  prev_hash: ColumnType<string | null, string | undefined, never>;
  hash: ColumnType<string | null, string | undefined, never>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export type MediaContentType = "image/jpeg" | "image/png" | "image/webp" | "image/avif";

export interface MediaTable {
  id: string;
  file_name: string;
  original_name: Text;
  content_type: MediaContentType;
  width: number;
  height: number;
  has_alpha: Bool;
  bytes: number;
  sha256: string;
  alt: string;
  /** BLOB in SQLite, bytea in PostgreSQL: both drivers return a Buffer. */
  data: ColumnType<Buffer, Buffer, never>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The CDN purge outbox (~/features/cdn): keys to purge, due from due_at. */
export interface CdnPurgesTable {
  id: ColumnType<string, string | undefined, never>;
  surrogate_keys: string;
  due_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  locked_by: string | null;
  locked_until: ColumnType<Date | string | null, string | null | undefined, string | null>;
  last_error: string | null;
  created_at: Timestamp;
}

export interface Database {
  admin_users: AdminUsersTable;
  admin_user_roles: AdminUserRolesTable;
  admin_user_locales: AdminUserLocalesTable;
  admin_sso_identities: AdminSsoIdentitiesTable;
  admin_passkeys: AdminPasskeysTable;
  admin_sessions: AdminSessionsTable;
  admin_invitations: AdminInvitationsTable;
  admin_sign_in_states: AdminSignInStatesTable;
  audit_log: AuditLogTable;
  app_secrets: AppSecretsTable;
  media: MediaTable;
  lead_deliveries: LeadDeliveriesTable;
  lead_activity: LeadActivityTable;
  job_leases: JobLeasesTable;
  page_views: PageViewsTable;
  subject_erasures: SubjectErasuresTable;
  navigation_menus: NavigationMenusTable;
  blog_posts: BlogPostsTable;
  blog_post_revisions: BlogPostRevisionsTable;
  content_revisions: ContentRevisionsTable;
  content_documents: ContentDocumentsTable;
  blog_slug_redirects: BlogSlugRedirectsTable;
  redirects: RedirectsTable;
  legal_documents: LegalDocumentsTable;
  sales_leads: SalesLeadsTable;
  demo_requests: DemoRequestsTable;
  career_applications: CareerApplicationsTable;
  cdn_purges: CdnPurgesTable;
}

export type LeadTable = "sales_leads" | "demo_requests" | "career_applications";
