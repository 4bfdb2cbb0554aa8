import type { Kysely, Transaction } from "kysely";
import { sql } from "kysely";
import { toCount, toIso } from "~/db/normalize";
import type { AuthMethod, Database } from "~/db/schema";

// Back-office sessions and the short-lived state of sign-in ceremonies. Both live in the database
// so that every server knows them: a session made on one server works on the others, and a
// passkey or single sign-on round trip can finish on whichever server the browser reaches.

type Db = Kysely<Database> | Transaction<Database>;

export type SessionRecord = {
  /** SHA-256 of the cookie's token. */
  id: string;
  userId: string;
  authMethod: AuthMethod;
  createdAt: string;
  lastSeenAt: string;
  authenticatedAt: string;
  expiresAt: string;
  csrfSecret: string;
  ip: string;
  userAgent: string;
  data: Record<string, unknown>;
};

const sessionColumns = [
  "id",
  "user_id",
  "auth_method",
  "created_at",
  "last_seen_at",
  "authenticated_at",
  "expires_at",
  "csrf_secret",
  "ip",
  "user_agent",
  "data",
] as const;

function parseData(value: unknown): Record<string, unknown> {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function toSession(row: {
  id: string;
  user_id: string;
  auth_method: AuthMethod;
  created_at: unknown;
  last_seen_at: unknown;
  authenticated_at: unknown;
  expires_at: unknown;
  csrf_secret: string;
  ip: string;
  user_agent: string;
  data: unknown;
}): SessionRecord {
  return {
    id: row.id,
    userId: String(row.user_id),
    authMethod: row.auth_method,
    createdAt: toIso(row.created_at),
    lastSeenAt: toIso(row.last_seen_at),
    authenticatedAt: toIso(row.authenticated_at),
    expiresAt: toIso(row.expires_at),
    csrfSecret: row.csrf_secret,
    ip: row.ip,
    userAgent: row.user_agent,
    data: parseData(row.data),
  };
}

export async function insertSession(
  db: Db,
  session: Omit<SessionRecord, "createdAt" | "lastSeenAt" | "authenticatedAt"> & { now: Date },
): Promise<void> {
  const now = session.now.toISOString();
  await db
    .insertInto("admin_sessions")
    .values({
      id: session.id,
      user_id: session.userId,
      auth_method: session.authMethod,
      created_at: now,
      last_seen_at: now,
      authenticated_at: now,
      expires_at: session.expiresAt,
      csrf_secret: session.csrfSecret,
      ip: session.ip,
      user_agent: session.userAgent,
      data: JSON.stringify(session.data),
    })
    .execute();
}

/** A session that has neither passed its absolute expiry nor been idle since `idleCutoff`. */
export async function findLiveSession(db: Db, id: string, now: Date, idleCutoff: Date): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom("admin_sessions")
    .select(sessionColumns)
    .where("id", "=", id)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", idleCutoff.toISOString())
    .executeTakeFirst();
  return row && toSession(row);
}

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("admin_sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", id).execute();
}

export async function updateSessionData(db: Db, id: string, data: Record<string, unknown>): Promise<void> {
  await db
    .updateTable("admin_sessions")
    .set({ data: JSON.stringify(data) })
    .where("id", "=", id)
    .execute();
}

/** The person proved who they are again (a destructive action asked). */
export async function markSessionAuthenticated(db: Db, id: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.updateTable("admin_sessions").set({ authenticated_at: at, last_seen_at: at }).where("id", "=", id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("admin_sessions").where("id", "=", id).execute();
}

/** Ends every session of a person; returns how many there were. */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("admin_sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A person's live sessions, most recently active first. */
export async function listUserSessions(db: Db, userId: string, now: Date, idleCutoff: Date): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom("admin_sessions")
    .select(sessionColumns)
    .where("user_id", "=", userId)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", idleCutoff.toISOString())
    .orderBy("last_seen_at", "desc")
    .execute();
  return rows.map(toSession);
}

/** Drops sessions nobody can use any more (expired or idle too long). */
export async function deleteDeadSessions(db: Db, now: Date, idleCutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom("admin_sessions")
    .where((eb) => eb.or([eb("expires_at", "<=", now.toISOString()), eb("last_seen_at", "<=", idleCutoff.toISOString())]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Sign-in ceremonies

export async function saveSignInState(
  db: Db,
  state: { id: string; purpose: string; payload: unknown; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("admin_sign_in_states")
    .values({
      id: state.id,
      purpose: state.purpose,
      payload: JSON.stringify(state.payload),
      expires_at: state.expiresAt.toISOString(),
    })
    .execute();
}

/**
 * Takes a ceremony's state out of the table: one statement, so a state is used at most once even
 * when two servers are asked at the same moment. Undefined when unknown, of another purpose or expired.
 */
export async function takeSignInState(db: Db, id: string, purpose: string, now: Date): Promise<unknown> {
  const row = await db
    .deleteFrom("admin_sign_in_states")
    .where("id", "=", id)
    .where("purpose", "=", purpose)
    .returning(["payload", "expires_at"])
    .executeTakeFirst();
  if (!row || toIso(row.expires_at) <= now.toISOString()) return undefined;
  return typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload;
}

export async function deleteExpiredSignInStates(db: Db, now: Date): Promise<void> {
  await db.deleteFrom("admin_sign_in_states").where("expires_at", "<=", now.toISOString()).execute();
}

/** How many sessions are live right now (for the overview). */
export async function countLiveSessions(db: Db, now: Date, idleCutoff: Date): Promise<number> {
  const row = await db
    .selectFrom("admin_sessions")
    .select(sql<number>`count(*)`.as("count"))
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", idleCutoff.toISOString())
    .executeTakeFirst();
  return toCount(row?.count);
}
