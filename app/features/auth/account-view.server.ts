import { idleCutoff } from "~/features/auth/session.server";
import { listUserSessions } from "~/features/auth/db/admin-sessions.server";
import { listPasskeys } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";

/** A person's passkeys and live sessions as their pages show them (never a session's token or record id). */
export async function accountLists(userId: string, currentRecordId?: string) {
  const now = new Date();
  const [passkeys, sessions] = await Promise.all([
    listPasskeys(getDb(), userId),
    listUserSessions(getDb(), userId, now, idleCutoff(now)),
  ]);
  return {
    passkeys: passkeys.map(({ id, name, createdAt, lastUsedAt, backedUp }) => ({ id, name, createdAt, lastUsedAt, backedUp })),
    sessions: sessions.map((session, index) => ({
      id: String(index),
      authMethod: session.authMethod,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      ip: session.ip,
      userAgent: session.userAgent,
      current: session.id === currentRecordId,
    })),
  };
}
