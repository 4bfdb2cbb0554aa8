import { randomUUID } from "node:crypto";
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool, type Transaction } from "kysely";
import { dialectOf, toCount, toIso } from "~/db/normalize";
import type { Database, DeliveryDestination, DeliveryStatus, LeadActivityKind, LeadTable } from "~/db/schema";
import { TRACKING_COLUMNS } from "~/features/leads/registry.server";

// The back office's reading and working of leads: one form's inbox (newest first, paged by
// (created_at, id) so every page costs the same however deep), a lead with its activity and
// deliveries, and the workflow's writes (status, owner, notes), each with its activity row.
// Search is by prefix (a name, an email, a company), on lower-cased expression indexes
// (migrations 0007 and 0009): a substring search would read every row of a large table.

type Db = Kysely<Database> | Transaction<Database>;

/** Where a page of an inbox ends: a lead's creation time exactly as stored, and its id. */
export type LeadCursor = { createdAt: string; id: string };

export type LeadInboxFilter = {
  /** A name, email or company prefix; "first last" matches both names; with "@", the email. */
  search?: string;
  status?: string;
  /** A person's id; null for leads nobody owns. */
  ownerId?: string | null;
  /** Inclusive lower bound, an ISO timestamp. */
  from?: string;
  /** Exclusive upper bound, an ISO timestamp. */
  until?: string;
  sourcePage?: string;
  /** The campaign of the visit's first page (first_utm_campaign). */
  campaign?: string;
  /** Applications only: a position's id; null for open applications (no position). */
  positionId?: string | null;
  /** The language of the form's page: a tag of SITE_LOCALES. */
  locale?: string;
};

export type LeadSummary = {
  id: string;
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  status: string;
  ownerId: string | null;
  ownerEmail: string;
  /** The form page's own utm_campaign. */
  campaign: string;
  /** The campaign of the visit's first page: what the inbox shows and filters by. */
  firstCampaign: string;
  sourcePage: string;
  /** An application's position (its id and title then), or what it asked for; null for other forms and open applications. */
  positionId: string | null;
  positionTitle: string | null;
  positionRequested: string | null;
  locale: string;
  cursor: LeadCursor;
};

export type LeadPage = { leads: LeadSummary[]; older?: LeadCursor; newer?: LeadCursor };

/** Applications have no company column. */
export function hasCompany(table: LeadTable): boolean {
  return table !== "career_applications";
}

/** Only applications name a position (migration 0018-application-positions). */
export function hasPosition(table: LeadTable): boolean {
  return table === "career_applications";
}

/** Lower-cases as both engines' lower() does: SQLite's only knows ASCII letters. */
function lowerLike(db: Db, text: string): string {
  return dialectOf(db) === "postgres" ? text.toLowerCase() : text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * `lower(column)` starts with `prefix`, written so each engine uses its index: PostgreSQL a LIKE
 * on a text_pattern_ops index, SQLite a range on its binary-ordered expression index (its LIKE
 * optimisation covers plain columns only).
 */
function startsWith(db: Db, table: LeadTable, column: string, prefix: string): RawBuilder<SqlBool> {
  const lowerColumn = sql`lower(${sql.ref(`${table}.${column}`)})`;
  const lowered = lowerLike(db, prefix);
  if (dialectOf(db) === "postgres") {
    return sql<SqlBool>`${lowerColumn} like ${`${lowered.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}`;
  }
  const points = [...lowered];
  // One character matches a large share of the leads: reading the inbox index newest first and
  // stopping at a page beats collecting every match from the search indexes and sorting them.
  // SQLite's unary + keeps it from choosing the search index.
  const target = points.length === 1 ? sql`+${lowerColumn}` : lowerColumn;
  const last = points.pop()!.codePointAt(0)!;
  // The first string after every string starting with the prefix: its last character, plus one.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  if (next > 0x10ffff) return sql<SqlBool>`${target} >= ${lowered}`;
  return sql<SqlBool>`(${target} >= ${lowered} and ${target} < ${points.join("") + String.fromCodePoint(next)})`;
}

function searchCondition(db: Db, table: LeadTable, search: string): RawBuilder<SqlBool> {
  if (search.includes("@")) return startsWith(db, table, "email", search);
  const [first, ...rest] = search.split(/\s+/);
  const alternatives: RawBuilder<SqlBool>[] = [];
  if (rest.length) {
    alternatives.push(
      sql<SqlBool>`(${startsWith(db, table, "first_name", first!)} and ${startsWith(db, table, "last_name", rest.join(" "))})`,
    );
  } else {
    alternatives.push(startsWith(db, table, "first_name", search), startsWith(db, table, "last_name", search));
    alternatives.push(startsWith(db, table, "email", search));
  }
  if (hasCompany(table)) alternatives.push(startsWith(db, table, "company", search));
  return sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}

/** (created_at, id) compared with a cursor as row values, which both engines answer from the inbox index. */
function beyond(db: Db, table: LeadTable, cursor: LeadCursor, operator: "<" | ">"): RawBuilder<SqlBool> {
  const left = sql`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)})`;
  const right =
    dialectOf(db) === "postgres"
      ? sql`(cast(${cursor.createdAt} as timestamptz), cast(${cursor.id} as uuid))`
      : sql`(${cursor.createdAt}, ${cursor.id})`;
  return sql<SqlBool>`${left} ${sql.raw(operator)} ${right}`;
}

/** created_at as the cursor carries it: to the microsecond on PostgreSQL, the stored text on SQLite. */
function cursorTime(db: Db, table: LeadTable): RawBuilder<string> {
  const column = sql.ref(`${table}.created_at`);
  return dialectOf(db) === "postgres"
    ? sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql<string>`${column}`;
}

function filterConditions(db: Db, table: LeadTable, filter: LeadInboxFilter): Expression<SqlBool>[] {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const conditions: Expression<SqlBool>[] = [];
  if (filter.search) conditions.push(searchCondition(db, table, filter.search));
  if (filter.status) conditions.push(sql<SqlBool>`${column("status")} = ${filter.status}`);
  if (filter.ownerId === null) conditions.push(sql<SqlBool>`${column("owner_id")} is null`);
  else if (filter.ownerId) conditions.push(sql<SqlBool>`${column("owner_id")} = ${filter.ownerId}`);
  if (filter.from) conditions.push(sql<SqlBool>`${column("created_at")} >= ${filter.from}`);
  if (filter.until) conditions.push(sql<SqlBool>`${column("created_at")} < ${filter.until}`);
  if (filter.sourcePage) conditions.push(sql<SqlBool>`${column("source_page")} = ${filter.sourcePage}`);
  if (filter.campaign) conditions.push(sql<SqlBool>`${column("first_utm_campaign")} = ${filter.campaign}`);
  if (hasPosition(table) && filter.positionId === null) conditions.push(sql<SqlBool>`${column("position_id")} is null`);
  else if (hasPosition(table) && filter.positionId)
    conditions.push(sql<SqlBool>`${column("position_id")} = ${filter.positionId}`);
  if (filter.locale) conditions.push(sql<SqlBool>`${column("locale")} = ${filter.locale}`);
  return conditions;
}

type SummaryRow = {
  id: string;
  created_at: Date | string;
  cursor_at: string;
  first_name: string;
  last_name: string;
  email: string;
  company: string;
  status: string;
  owner_id: string | null;
  owner_email: string | null;
  utm_campaign: string;
  first_utm_campaign: string;
  source_page: string;
  position_id: string | null;
  position_title: string | null;
  position_requested: string | null;
  locale: string;
};

/**
 * One page of a form's inbox, newest first. `after` gives the page older than a cursor, `before`
 * the page newer than one (still shown newest first); neither, the newest page.
 */
export async function listLeadInbox(
  db: Db,
  table: LeadTable,
  filter: LeadInboxFilter,
  page: { after?: LeadCursor; before?: LeadCursor; limit: number },
): Promise<LeadPage> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const positionColumn = (name: string) => (hasPosition(table) ? column(name) : sql`null`);
  const newer = Boolean(page.before) && !page.after;
  const conditions = filterConditions(db, table, filter);
  if (page.after) conditions.push(beyond(db, table, page.after, "<"));
  else if (page.before) conditions.push(beyond(db, table, page.before, ">"));
  const direction = sql.raw(newer ? "asc" : "desc");
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const result = await sql<SummaryRow>`
    select ${column("id")} as id, ${column("created_at")} as created_at, ${cursorTime(db, table)} as cursor_at,
      ${column("first_name")} as first_name, ${column("last_name")} as last_name, ${column("email")} as email,
      ${hasCompany(table) ? column("company") : sql`''`} as company, ${column("status")} as status,
      ${column("owner_id")} as owner_id, admin_users.email as owner_email,
      ${column("utm_campaign")} as utm_campaign, ${column("first_utm_campaign")} as first_utm_campaign,
      ${column("source_page")} as source_page,
      ${positionColumn("position_id")} as position_id, ${positionColumn("position_title")} as position_title,
      ${positionColumn("position_requested")} as position_requested, ${column("locale")} as locale
    from ${sql.table(table)}
    left join admin_users on admin_users.id = ${column("owner_id")}
    ${where}
    order by ${column("created_at")} ${direction}, ${column("id")} ${direction}
    limit ${page.limit + 1}
  `.execute(db);
  const more = result.rows.length > page.limit;
  const rows = result.rows.slice(0, page.limit);
  if (newer) rows.reverse();
  const leads = rows.map(toSummary);
  const first = leads[0]?.cursor;
  const last = leads.at(-1)?.cursor;
  if (newer) return { leads, newer: more ? first : undefined, older: last };
  return { leads, older: more ? last : undefined, newer: page.after ? first : undefined };
}

function toSummary(row: SummaryRow): LeadSummary {
  return {
    id: String(row.id),
    createdAt: toIso(row.created_at),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    company: row.company,
    status: row.status,
    ownerId: row.owner_id === null ? null : String(row.owner_id),
    ownerEmail: row.owner_email ?? "",
    campaign: row.utm_campaign,
    firstCampaign: row.first_utm_campaign,
    sourcePage: row.source_page,
    positionId: row.position_id === null ? null : String(row.position_id),
    positionTitle: row.position_title,
    positionRequested: row.position_requested,
    locale: row.locale,
    cursor: { createdAt: String(row.cursor_at), id: String(row.id) },
  };
}

/** One position's applications (or the open applications', positionId null) counted per status of the workflow. */
export type PositionPipeline = {
  positionId: string | null;
  /** The title of its newest application ("" for open applications). */
  title: string;
  counts: Record<string, number>;
  total: number;
};

/**
 * How many applications each position has in each status, the open applications first, then the
 * positions by their newest application. One grouped read over the table: a recruiting desk holds
 * thousands of applications, not millions. `positionId`: that position's only (its page in the back office).
 */
export async function listPositionPipelines(db: Db, { positionId }: { positionId?: string } = {}): Promise<PositionPipeline[]> {
  const rows = await db
    .selectFrom("career_applications")
    .$if(positionId !== undefined, (query) => query.where("position_id", "=", positionId!))
    .select((eb) => [
      "position_id",
      "position_title",
      "status",
      eb.fn.countAll<number | string>().as("applications"),
      eb.fn.max("created_at").as("newest"),
    ])
    .groupBy(["position_id", "position_title", "status"])
    .execute();
  const pipelines = new Map<string, PositionPipeline & { newest: string; titleNewest: string }>();
  for (const row of rows) {
    const key = row.position_id === null ? "" : String(row.position_id);
    const newest = toIso(row.newest);
    const pipeline = pipelines.get(key) ?? {
      positionId: row.position_id === null ? null : key,
      title: "",
      counts: {},
      total: 0,
      newest,
      titleNewest: "",
    };
    const count = toCount(row.applications);
    pipeline.counts[row.status] = (pipeline.counts[row.status] ?? 0) + count;
    pipeline.total += count;
    if (newest > pipeline.newest) pipeline.newest = newest;
    // A position renamed while it recruited: the title its newest application saw.
    if (row.position_title !== null && newest >= pipeline.titleNewest) {
      pipeline.title = row.position_title;
      pipeline.titleNewest = newest;
    }
    pipelines.set(key, pipeline);
  }
  return [...pipelines.values()]
    .sort((a, b) => (a.positionId === null ? -1 : b.positionId === null ? 1 : b.newest.localeCompare(a.newest)))
    .map(({ positionId, title, counts, total }) => ({ positionId, title, counts, total }));
}

/** Columns every lead table has beyond the visitor's own answers and where they came from (TRACKING_COLUMNS). */
export const WORKFLOW_COLUMNS = ["id", "created_at", "status", "owner_id", "last_interaction_at", "decided_at"] as const;

export type LeadRecord = {
  id: string;
  createdAt: string;
  status: string;
  ownerId: string | null;
  lastInteractionAt: string | null;
  decidedAt: string | null;
  /** Where the visitor came from: the form page and its utm_* values, the visit's first touch (landing_page, referrer_host, first_utm_*). */
  attribution: Record<(typeof TRACKING_COLUMNS)[number], string>;
  /** Every other column: what the visitor submitted, in the table's column order. */
  submitted: [column: string, value: string][];
};

const nullableIso = (value: unknown) => (value === null || value === undefined ? null : toIso(value));

/** One lead with every column, or undefined. `id` must be a UUID (PostgreSQL refuses anything else). */
export async function findLeadRecord(db: Db, table: LeadTable, id: string): Promise<LeadRecord | undefined> {
  const row = (await db
    .selectFrom(table as "sales_leads")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const known = new Set<string>([...WORKFLOW_COLUMNS, ...TRACKING_COLUMNS]);
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  return {
    id: String(row.id),
    createdAt: toIso(row.created_at),
    status: text(row.status),
    ownerId: row.owner_id === null || row.owner_id === undefined ? null : String(row.owner_id),
    lastInteractionAt: nullableIso(row.last_interaction_at),
    decidedAt: nullableIso(row.decided_at),
    attribution: Object.fromEntries(TRACKING_COLUMNS.map((name) => [name, text(row[name])])) as LeadRecord["attribution"],
    submitted: Object.entries(row)
      .filter(([name]) => !known.has(name))
      .map(([name, value]) => [name, text(value)]),
  };
}

/** What the workflow needs of a lead: its status and owner, or undefined when there is no such lead. */
export async function findLeadState(
  db: Db,
  table: LeadTable,
  id: string,
): Promise<{ status: string; ownerId: string | null } | undefined> {
  const row = await db
    .selectFrom(table as "sales_leads")
    .select(["status", "owner_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { status: row.status, ownerId: row.owner_id === null ? null : String(row.owner_id) };
}

export type ActivityActor = { id: string; email: string };

export type LeadActivityEntry = {
  id: string;
  kind: LeadActivityKind;
  actorEmail: string;
  fromValue: string;
  toValue: string;
  body: string;
  createdAt: string;
};

/** A lead's activity, newest first. */
export async function listLeadActivity(db: Db, table: LeadTable, leadId: string, limit = 500): Promise<LeadActivityEntry[]> {
  const rows = await db
    .selectFrom("lead_activity")
    .select(["id", "kind", "actor_email", "from_value", "to_value", "body", "created_at"])
    .where("lead_table", "=", table)
    .where("lead_id", "=", leadId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    kind: row.kind,
    actorEmail: row.actor_email,
    fromValue: row.from_value,
    toValue: row.to_value,
    body: row.body,
    createdAt: toIso(row.created_at),
  }));
}

export type LeadDeliveryEntry = {
  id: string;
  destination: DeliveryDestination;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
};

/** A lead's deliveries, oldest first. */
export async function listLeadDeliveries(db: Db, table: LeadTable, leadId: string): Promise<LeadDeliveryEntry[]> {
  const rows = await db
    .selectFrom("lead_deliveries")
    .select(["id", "destination", "status", "attempts", "last_error", "created_at", "sent_at"])
    .where("lead_table", "=", table)
    .where("lead_id", "=", leadId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    destination: row.destination,
    status: row.status,
    attempts: toCount(row.attempts),
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    sentAt: nullableIso(row.sent_at),
  }));
}

/** People who may own a lead of a form: active, holding `role` or owner; by email. */
export async function listLeadAssignees(db: Db, role: string): Promise<{ id: string; email: string }[]> {
  const rows = await db
    .selectFrom("admin_users")
    .innerJoin("admin_user_roles", "admin_user_roles.user_id", "admin_users.id")
    .select(["admin_users.id", "admin_users.email"])
    .distinct()
    .where("admin_users.disabled_at", "is", null)
    .where("admin_user_roles.role", "in", [role, "owner"])
    .orderBy("admin_users.email")
    .execute();
  return rows.map((row) => ({ id: String(row.id), email: row.email }));
}

/** Emails of people by id (for an activity that names owners), deleted people left out. */
export async function emailsOfPeople(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("admin_users").select(["id", "email"]).where("id", "in", ids).execute();
  return new Map(rows.map((row) => [String(row.id), row.email]));
}

/**
 * The time of a lead's next activity: now, or a millisecond after its latest one when that is not
 * earlier (two changes within a millisecond keep their order in the timeline).
 */
async function activityTime(db: Db, table: LeadTable, leadId: string, requested?: Date): Promise<string> {
  const latest = await db
    .selectFrom("lead_activity")
    .select("created_at")
    .where("lead_table", "=", table)
    .where("lead_id", "=", leadId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const wanted = (requested ?? new Date()).getTime();
  return new Date(latest ? Math.max(wanted, Date.parse(toIso(latest.created_at)) + 1) : wanted).toISOString();
}

async function addActivity(
  db: Db,
  table: LeadTable,
  leadId: string,
  entry: { kind: LeadActivityKind; actor: ActivityActor; from?: string; to?: string; body?: string; now: string },
) {
  await db
    .insertInto("lead_activity")
    .values({
      id: randomUUID(),
      lead_table: table,
      lead_id: leadId,
      kind: entry.kind,
      actor_id: entry.actor.id,
      actor_email: entry.actor.email,
      from_value: entry.from ?? "",
      to_value: entry.to ?? "",
      body: entry.body ?? "",
      created_at: entry.now,
    })
    .execute();
}

/**
 * Moves a lead from status `from` to `to`: `decided` (a final status) sets its decision time,
 * anything else clears it. False when the lead is not at `from` any more (someone else moved it).
 */
export async function setLeadStatus(
  db: Db,
  table: LeadTable,
  leadId: string,
  change: { from: string; to: string; decided: boolean; actor: ActivityActor; now?: Date },
): Promise<boolean> {
  const now = await activityTime(db, table, leadId, change.now);
  const result = await db
    .updateTable(table as "sales_leads")
    .set({ status: change.to, decided_at: change.decided ? now : null, last_interaction_at: now })
    .where("id", "=", leadId)
    .where("status", "=", change.from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await addActivity(db, table, leadId, { kind: "status", actor: change.actor, from: change.from, to: change.to, now });
  return true;
}

/** Gives a lead to a person (or to nobody, null). False when its owner is not `from` any more. */
export async function setLeadOwner(
  db: Db,
  table: LeadTable,
  leadId: string,
  change: { from: string | null; to: string | null; actor: ActivityActor; now?: Date },
): Promise<boolean> {
  const now = await activityTime(db, table, leadId, change.now);
  const result = await db
    .updateTable(table as "sales_leads")
    .set({ owner_id: change.to, last_interaction_at: now })
    .where("id", "=", leadId)
    .where((eb) => (change.from === null ? eb("owner_id", "is", null) : eb("owner_id", "=", change.from)))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await addActivity(db, table, leadId, { kind: "owner", actor: change.actor, from: change.from ?? "", to: change.to ?? "", now });
  return true;
}

/** An internal note, or a reply sent to the person (kind reply). False when there is no such lead. */
export async function addLeadNote(
  db: Db,
  table: LeadTable,
  leadId: string,
  note: { kind: "note" | "reply"; body: string; actor: ActivityActor; now?: Date },
): Promise<boolean> {
  const now = await activityTime(db, table, leadId, note.now);
  const result = await db
    .updateTable(table as "sales_leads")
    .set({ last_interaction_at: now })
    .where("id", "=", leadId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await addActivity(db, table, leadId, { kind: note.kind, actor: note.actor, body: note.body, now });
  return true;
}

/** A delivery of the lead put back in the queue, in its timeline (not an interaction with the person). */
export async function recordDeliveryActivity(
  db: Db,
  table: LeadTable,
  leadId: string,
  entry: { destination: string; previousStatus: string; actor: ActivityActor; now?: Date },
): Promise<void> {
  await addActivity(db, table, leadId, {
    kind: "delivery",
    actor: entry.actor,
    from: entry.previousStatus,
    to: entry.destination,
    now: await activityTime(db, table, leadId, entry.now),
  });
}
