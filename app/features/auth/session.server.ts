import { createHash, randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type Session, type SessionStorage } from "react-router";
import {
  deleteDeadSessions,
  deleteSession,
  findLiveSession,
  insertSession,
  updateSessionData,
} from "~/features/auth/db/admin-sessions.server";
import { sharedSecret } from "~/db/app-secrets.server";
import { getDb } from "~/db/index.server";
import type { AuthMethod } from "~/db/schema";
import { getEnv } from "~/env.server";

// Back-office sessions: React Router's session storage with the records in the database, so every
// server knows every session. The cookie holds a random token (signed); the table keeps only its
// SHA-256. A session ends after SESSION_IDLE_MINUTES without a request, SESSION_MAX_HOURS after it
// began, when its person signs out or is disabled, or when an owner ends it.

/** What a session knows of its person, fixed when it is made. */
export type SessionValues = {
  userId: string;
  authMethod: AuthMethod;
  csrfSecret: string;
  createdAt: string;
  lastSeenAt: string;
  authenticatedAt: string;
  /** The stored record's id (the token's hash). */
  recordId: string;
};

/** What a new session is made from; the rest is set by the store. */
type NewSessionValues = Pick<SessionValues, "userId" | "authMethod" | "csrfSecret"> & { ip: string; userAgent: string };

/** The record id of a cookie token. */
export function sessionRecordId(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function idleCutoff(now: Date): Date {
  return new Date(now.getTime() - getEnv().SESSION_IDLE_MINUTES * 60_000);
}

/**
 * The cookie: `__Host-` prefixed and Secure when the site is served over https (SITE_URL), so no
 * other host or path can set or read it; HttpOnly; SameSite=Lax so the return from the identity
 * provider (a top-level navigation from another site) still carries it. No expiry: the browser
 * forgets it when it closes, and the server's limits apply whatever the browser keeps.
 */
function cookieName(secure: boolean) {
  return secure ? "__Host-quorvant_admin" : "quorvant_admin";
}

/** The values kept in the session record's own columns, set once. */
const FIXED_KEYS = new Set([
  "userId",
  "authMethod",
  "csrfSecret",
  "createdAt",
  "lastSeenAt",
  "authenticatedAt",
  "recordId",
  "ip",
  "userAgent",
]);

let storage: Promise<SessionStorage<SessionValues>> | undefined;

function createStorage(): Promise<SessionStorage<SessionValues>> {
  return (async () => {
    const env = getEnv();
    const secure = new URL(env.SITE_URL).protocol === "https:";
    const secret = env.SESSION_SECRET ?? (await sharedSecret(getDb(), "session-cookie", () => randomBytes(32).toString("hex")));
    const cookie = createCookie(cookieName(secure), { httpOnly: true, sameSite: "lax", secure, path: "/", secrets: [secret] });
    return createSessionStorage<SessionValues>({
      cookie,
      async createData(data) {
        const values = data as unknown as NewSessionValues;
        const token = randomBytes(32).toString("base64url");
        const now = new Date();
        await insertSession(getDb(), {
          id: sessionRecordId(token),
          userId: values.userId,
          authMethod: values.authMethod,
          csrfSecret: values.csrfSecret,
          ip: values.ip,
          userAgent: values.userAgent,
          expiresAt: new Date(now.getTime() + env.SESSION_MAX_HOURS * 3_600_000).toISOString(),
          data: {},
          now,
        });
        // Sessions nobody can use any more go when a new one is made: the table stays small without a job.
        await deleteDeadSessions(getDb(), now, idleCutoff(now));
        return token;
      },
      async readData(token) {
        const now = new Date();
        const record = await findLiveSession(getDb(), sessionRecordId(token), now, idleCutoff(now));
        if (!record) return null;
        return {
          ...record.data,
          userId: record.userId,
          authMethod: record.authMethod,
          csrfSecret: record.csrfSecret,
          createdAt: record.createdAt,
          lastSeenAt: record.lastSeenAt,
          authenticatedAt: record.authenticatedAt,
          recordId: record.id,
        };
      },
      // Only flash values change after a session is made; what identifies the person never does.
      async updateData(token, data) {
        const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !FIXED_KEYS.has(key)));
        await updateSessionData(getDb(), sessionRecordId(token), rest);
      },
      async deleteData(token) {
        await deleteSession(getDb(), sessionRecordId(token));
      },
    });
  })().catch((error: unknown) => {
    storage = undefined;
    throw error;
  });
}

export function sessionStorage(): Promise<SessionStorage<SessionValues>> {
  storage ??= createStorage();
  return storage;
}

export async function readSession(request: Request): Promise<Session<SessionValues>> {
  return (await sessionStorage()).getSession(request.headers.get("Cookie"));
}

/** A new session for a person who just proved who they are; returns the Set-Cookie value. */
export async function createSignedInSession(values: NewSessionValues): Promise<string> {
  const store = await sessionStorage();
  const session = await store.getSession();
  for (const [key, value] of Object.entries(values)) session.set(key as keyof SessionValues, value as never);
  return store.commitSession(session);
}

/** Ends the request's session (if any); returns the Set-Cookie value that clears the cookie. */
export async function destroyRequestSession(request: Request): Promise<string> {
  const store = await sessionStorage();
  return store.destroySession(await store.getSession(request.headers.get("Cookie")));
}
