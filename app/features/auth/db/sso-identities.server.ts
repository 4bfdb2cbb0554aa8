import type { Kysely, Transaction } from "kysely";
import { toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";

// Links between back-office accounts and people at an identity provider, by the provider's issuer
// and subject (`sub`). Once linked, single sign-on finds the account by these, never by email.

type Db = Kysely<Database> | Transaction<Database>;

export type SsoIdentityLink = {
  issuer: string;
  subject: string;
  userId: string;
  /** The address the provider gave when the link was made. */
  email: string;
  createdAt: string;
  lastUsedAt: string | null;
};

const columns = ["issuer", "subject", "user_id", "email", "created_at", "last_used_at"] as const;

function toLink(row: {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: unknown;
  last_used_at: unknown;
}): SsoIdentityLink {
  return {
    issuer: row.issuer,
    subject: row.subject,
    userId: String(row.user_id),
    email: row.email,
    createdAt: toIso(row.created_at),
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : toIso(row.last_used_at),
  };
}

/** The link of this subject at this issuer, if any. */
export async function findSsoIdentity(db: Db, issuer: string, subject: string): Promise<SsoIdentityLink | undefined> {
  const row = await db
    .selectFrom("admin_sso_identities")
    .select(columns)
    .where("issuer", "=", issuer)
    .where("subject", "=", subject)
    .executeTakeFirst();
  return row && toLink(row);
}

/** The account's link at this issuer, if any (there is at most one). */
export async function findUserSsoIdentity(db: Db, userId: string, issuer: string): Promise<SsoIdentityLink | undefined> {
  const row = await db
    .selectFrom("admin_sso_identities")
    .select(columns)
    .where("user_id", "=", userId)
    .where("issuer", "=", issuer)
    .executeTakeFirst();
  return row && toLink(row);
}

/**
 * Links the subject to the account. False, and nothing changed, when the subject is already
 * linked or the account already has a subject at this issuer (someone else got there first).
 */
export async function linkSsoIdentity(
  db: Db,
  input: { issuer: string; subject: string; userId: string; email: string },
): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .insertInto("admin_sso_identities")
    .values({
      issuer: input.issuer,
      subject: input.subject,
      user_id: input.userId,
      email: input.email,
      created_at: now,
      last_used_at: now,
    })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function recordSsoIdentityUse(db: Db, issuer: string, subject: string): Promise<void> {
  await db
    .updateTable("admin_sso_identities")
    .set({ last_used_at: new Date().toISOString() })
    .where("issuer", "=", issuer)
    .where("subject", "=", subject)
    .execute();
}
