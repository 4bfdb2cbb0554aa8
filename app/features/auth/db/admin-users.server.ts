import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { toBool, toCount, toIso } from "~/db/normalize";
import type { Database, RolesSource } from "~/db/schema";

// The people who run the site: their accounts and roles, their passkeys, and the invitations that
// let someone new in. Emails are stored lower-case; roles and languages are plain names checked by
// the caller.

type Db = Kysely<Database> | Transaction<Database>;

export type AdminUser = {
  id: string;
  email: string;
  displayName: string;
  roles: string[];
  /** The languages (locale tags) whose content they may edit; empty: every language. */
  locales: string[];
  rolesSource: RolesSource;
  disabledAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
};

const nullableIso = (value: unknown) => (value === null || value === undefined ? null : toIso(value));

/** The one spelling of an address: trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function withRoles(
  db: Db,
  rows: {
    id: string;
    email: string;
    display_name: string;
    roles_source: RolesSource;
    disabled_at: unknown;
    last_sign_in_at: unknown;
    created_at: unknown;
  }[],
): Promise<AdminUser[]> {
  if (rows.length === 0) return [];
  const roles = await db
    .selectFrom("admin_user_roles")
    .select(["user_id", "role"])
    .where(
      "user_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("role")
    .execute();
  const locales = await db
    .selectFrom("admin_user_locales")
    .select(["user_id", "locale"])
    .where(
      "user_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("locale")
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    email: row.email,
    displayName: row.display_name,
    roles: roles.filter((role) => String(role.user_id) === String(row.id)).map((role) => role.role),
    locales: locales.filter((locale) => String(locale.user_id) === String(row.id)).map((locale) => locale.locale),
    rolesSource: row.roles_source,
    disabledAt: nullableIso(row.disabled_at),
    lastSignInAt: nullableIso(row.last_sign_in_at),
    createdAt: toIso(row.created_at),
  }));
}

const userColumns = ["id", "email", "display_name", "roles_source", "disabled_at", "last_sign_in_at", "created_at"] as const;

export async function findUserById(db: Db, id: string): Promise<AdminUser | undefined> {
  const row = await db.selectFrom("admin_users").select(userColumns).where("id", "=", id).executeTakeFirst();
  return row ? (await withRoles(db, [row]))[0] : undefined;
}

export async function findUserByEmail(db: Db, email: string): Promise<AdminUser | undefined> {
  const row = await db
    .selectFrom("admin_users")
    .select(userColumns)
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row ? (await withRoles(db, [row]))[0] : undefined;
}

export type AdminUserSummary = AdminUser & { passkeys: number };

/** Everyone, by email, with how many passkeys each has. */
export async function listUsers(db: Db): Promise<AdminUserSummary[]> {
  const rows = await db.selectFrom("admin_users").select(userColumns).orderBy("email").execute();
  const counts = await db
    .selectFrom("admin_passkeys")
    .select(["user_id", (eb) => eb.fn.countAll().as("count")])
    .groupBy("user_id")
    .execute();
  const users = await withRoles(db, rows);
  return users.map((user) => ({
    ...user,
    passkeys: toCount(counts.find((count) => String(count.user_id) === user.id)?.count),
  }));
}

/** A new person with these roles. */
export async function createUser(
  db: Db,
  input: { id?: string; email: string; roles: readonly string[]; rolesSource?: RolesSource },
): Promise<AdminUser> {
  const id = input.id ?? randomUUID();
  await db
    .insertInto("admin_users")
    .values({
      id,
      email: normalizeEmail(input.email),
      roles_source: input.rolesSource ?? "back-office",
      created_at: new Date().toISOString(),
    })
    .execute();
  await setRoles(db, id, input.roles);
  return (await findUserById(db, id))!;
}

/** Replaces a person's roles. */
export async function setRoles(db: Db, userId: string, roles: readonly string[]): Promise<void> {
  await db.deleteFrom("admin_user_roles").where("user_id", "=", userId).execute();
  const unique = [...new Set(roles)];
  if (unique.length) {
    await db
      .insertInto("admin_user_roles")
      .values(unique.map((role) => ({ user_id: userId, role })))
      .execute();
  }
}

/** Replaces the languages a person may edit; none: every language. */
export async function setLocales(db: Db, userId: string, locales: readonly string[]): Promise<void> {
  await db.deleteFrom("admin_user_locales").where("user_id", "=", userId).execute();
  const unique = [...new Set(locales)];
  if (unique.length) {
    await db
      .insertInto("admin_user_locales")
      .values(unique.map((locale) => ({ user_id: userId, locale })))
      .execute();
  }
}

export async function setRolesSource(db: Db, userId: string, source: RolesSource): Promise<void> {
  await db.updateTable("admin_users").set({ roles_source: source }).where("id", "=", userId).execute();
}

/** Disables (with the time) or re-enables a person. Their sessions are the caller's to end. */
export async function setDisabled(db: Db, userId: string, disabled: boolean): Promise<void> {
  await db
    .updateTable("admin_users")
    .set({ disabled_at: disabled ? new Date().toISOString() : null })
    .where("id", "=", userId)
    .execute();
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.updateTable("admin_users").set({ last_sign_in_at: new Date().toISOString() }).where("id", "=", userId).execute();
}

/** People who hold `role` and are not disabled. */
export async function countActiveWithRole(db: Db, role: string): Promise<number> {
  const row = await db
    .selectFrom("admin_user_roles")
    .innerJoin("admin_users", "admin_users.id", "admin_user_roles.user_id")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("admin_user_roles.role", "=", role)
    .where("admin_users.disabled_at", "is", null)
    .executeTakeFirst();
  return toCount(row?.count);
}

// Passkeys

export type StoredPasskey = {
  id: string;
  userId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

const passkeyColumns = [
  "id",
  "user_id",
  "public_key",
  "counter",
  "transports",
  "device_type",
  "backed_up",
  "name",
  "created_at",
  "last_used_at",
] as const;

function toPasskey(row: {
  id: string;
  user_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  device_type: string;
  backed_up: boolean | number;
  name: string;
  created_at: unknown;
  last_used_at: unknown;
}): StoredPasskey {
  return {
    id: row.id,
    userId: String(row.user_id),
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports ? row.transports.split(",") : [],
    deviceType: row.device_type,
    backedUp: toBool(row.backed_up),
    name: row.name,
    createdAt: toIso(row.created_at),
    lastUsedAt: nullableIso(row.last_used_at),
  };
}

export async function listPasskeys(db: Db, userId: string): Promise<StoredPasskey[]> {
  const rows = await db
    .selectFrom("admin_passkeys")
    .select(passkeyColumns)
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map(toPasskey);
}

export async function findPasskey(db: Db, credentialId: string): Promise<StoredPasskey | undefined> {
  const row = await db.selectFrom("admin_passkeys").select(passkeyColumns).where("id", "=", credentialId).executeTakeFirst();
  return row && toPasskey(row);
}

export async function addPasskey(db: Db, passkey: Omit<StoredPasskey, "createdAt" | "lastUsedAt">): Promise<void> {
  await db
    .insertInto("admin_passkeys")
    .values({
      id: passkey.id,
      user_id: passkey.userId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.join(","),
      device_type: passkey.deviceType,
      backed_up: passkey.backedUp,
      name: passkey.name,
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function recordPasskeyUse(db: Db, credentialId: string, counter: number): Promise<void> {
  await db
    .updateTable("admin_passkeys")
    .set({ counter, last_used_at: new Date().toISOString() })
    .where("id", "=", credentialId)
    .execute();
}

/** Removes one of a person's passkeys; false when they have no such passkey. */
export async function deletePasskey(db: Db, userId: string, credentialId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("admin_passkeys")
    .where("id", "=", credentialId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// Invitations

export type Invitation = {
  id: string;
  email: string;
  roles: string[];
  /** The languages the person will be limited to; empty: every language. */
  locales: string[];
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
};

const invitationColumns = [
  "id",
  "email",
  "roles",
  "locales",
  "created_by",
  "created_at",
  "expires_at",
  "accepted_at",
  "revoked_at",
] as const;

function toInvitation(row: {
  id: string;
  email: string;
  roles: string;
  locales: string;
  created_by: string | null;
  created_at: unknown;
  expires_at: unknown;
  accepted_at: unknown;
  revoked_at: unknown;
}): Invitation {
  return {
    id: String(row.id),
    email: row.email,
    roles: row.roles ? row.roles.split(",") : [],
    locales: row.locales ? row.locales.split(",") : [],
    createdBy: row.created_by === null ? null : String(row.created_by),
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    acceptedAt: nullableIso(row.accepted_at),
    revokedAt: nullableIso(row.revoked_at),
  };
}

export async function createInvitation(
  db: Db,
  input: {
    tokenHash: string;
    email: string;
    roles: readonly string[];
    /** None (or omitted): every language. */
    locales?: readonly string[];
    createdBy: string | null;
    expiresAt: Date;
  },
): Promise<Invitation> {
  const id = randomUUID();
  await db
    .insertInto("admin_invitations")
    .values({
      id,
      token_hash: input.tokenHash,
      email: normalizeEmail(input.email),
      roles: [...new Set(input.roles)].join(","),
      locales: [...new Set(input.locales ?? [])].join(","),
      created_by: input.createdBy,
      created_at: new Date().toISOString(),
      expires_at: input.expiresAt.toISOString(),
    })
    .execute();
  return toInvitation(
    await db.selectFrom("admin_invitations").select(invitationColumns).where("id", "=", id).executeTakeFirstOrThrow(),
  );
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<Invitation | undefined> {
  const row = await db
    .selectFrom("admin_invitations")
    .select(invitationColumns)
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** Invitations nobody has used, revoked or let expire, newest first. */
export async function listOpenInvitations(db: Db): Promise<Invitation[]> {
  const rows = await db
    .selectFrom("admin_invitations")
    .select(invitationColumns)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map(toInvitation);
}

/** The newest invitation for this address that can still be used. */
export async function findOpenInvitationForEmail(db: Db, email: string): Promise<Invitation | undefined> {
  const row = await db
    .selectFrom("admin_invitations")
    .select(invitationColumns)
    .where("email", "=", normalizeEmail(email))
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row && toInvitation(row);
}

/**
 * Marks an open invitation used. One statement, so of two browsers accepting the same link at
 * once exactly one gets true.
 */
export async function markInvitationAccepted(db: Db, id: string): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .updateTable("admin_invitations")
    .set({ accepted_at: now })
    .where("id", "=", id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeInvitation(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable("admin_invitations")
    .set({ revoked_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
