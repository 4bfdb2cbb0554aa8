import { createHash, randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { recordAudit, type Actor } from "~/features/audit/audit.server";
import type { Role } from "~/config/roles";
import {
  countActiveWithRole,
  createInvitation,
  createUser,
  findInvitationByTokenHash,
  findUserByEmail,
  findUserById,
  markInvitationAccepted,
  normalizeEmail,
  setDisabled,
  setLocales,
  setRoles,
  setRolesSource,
  type AdminUser,
  type Invitation,
} from "~/features/auth/db/admin-users.server";
import type { Database } from "~/db/schema";
import { getEnv } from "~/env.server";

// Invitations: a single-use link, valid 24 hours, that lets one person (by email) register a
// passkey and come in with the roles it names, limited to the languages it names (none: every
// language). The link's token is shown once; the database keeps only its hash. Accepting an
// invitation for someone who already has an account gives them a new passkey (a lost device), sets
// their roles and languages to the invitation's and enables them again: inviting is an owner's (or
// the operator's) deliberate act. Like every change of roles, it never takes
// the owner role from the last active owner: nobody could then run the site's people.

export const INVITATION_HOURS = 24;

export function invitationTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function invitationPath(token: string): string {
  return `/admin/invitations/${token}`;
}

/** An invitation that would take the owner role from the last active owner. */
export class LastOwnerError extends Error {
  override name = "LastOwnerError";
}

export const LAST_OWNER_PROBLEM =
  "This is the last active owner: an invitation without the owner role would leave nobody to manage people. Make someone else an owner first, or include the owner role.";

/**
 * Whether giving `person` exactly `roles` would leave no active owner: the guard of every path
 * that sets someone's roles (call it inside the transaction that sets them).
 */
export async function demotesLastOwner(
  db: Kysely<Database>,
  person: AdminUser | undefined,
  roles: readonly string[],
): Promise<boolean> {
  if (!person || person.disabledAt || !person.roles.includes("owner") || roles.includes("owner")) return false;
  return (await countActiveWithRole(db, "owner")) <= 1;
}

/**
 * Makes an invitation and returns its link (the only time the token is seen). An invitation that
 * would take the owner role from the last active owner is refused (LastOwnerError), nothing made.
 */
export async function invite(
  db: Kysely<Database>,
  input: { email: string; roles: readonly Role[]; locales?: readonly string[]; invitedBy: Actor; ip: string },
): Promise<{ link: string; invitation: Invitation }> {
  const token = randomBytes(32).toString("hex");
  const invitation = await db.transaction().execute(async (trx) => {
    if (await demotesLastOwner(trx, await findUserByEmail(trx, normalizeEmail(input.email)), input.roles)) {
      throw new LastOwnerError(LAST_OWNER_PROBLEM);
    }
    const created = await createInvitation(trx, {
      tokenHash: invitationTokenHash(token),
      email: input.email,
      roles: input.roles,
      locales: input.locales ?? [],
      createdBy: input.invitedBy?.id ?? null,
      expiresAt: new Date(Date.now() + INVITATION_HOURS * 3_600_000),
    });
    await recordAudit(trx, {
      actor: input.invitedBy,
      action: "invitation.created",
      target: { type: "invitation", id: created.id },
      details: {
        email: created.email,
        roles: created.roles,
        locales: created.locales.length ? created.locales : "every",
        expiresAt: created.expiresAt,
      },
      ip: input.ip,
    });
    return created;
  });
  return { link: `${getEnv().SITE_URL}${invitationPath(token)}`, invitation };
}

export type InvitationLookup =
  { status: "open"; invitation: Invitation } | { status: "unknown" | "used" | "expired" | "revoked" };

/** What a link's token leads to. */
export async function lookUpInvitation(db: Kysely<Database>, token: string): Promise<InvitationLookup> {
  if (!/^[0-9a-f]{64}$/.test(token)) return { status: "unknown" };
  const invitation = await findInvitationByTokenHash(db, invitationTokenHash(token));
  if (!invitation) return { status: "unknown" };
  if (invitation.acceptedAt) return { status: "used" };
  if (invitation.revokedAt) return { status: "revoked" };
  if (Date.parse(invitation.expiresAt) <= Date.now()) return { status: "expired" };
  return { status: "open", invitation };
}

/** Why a link no longer works, in the words its holder sees. */
export const invitationProblems: Record<Exclude<InvitationLookup["status"], "open">, string> = {
  unknown: "This invitation link is not valid. Check that you copied all of it, or ask for a new one.",
  used: "This invitation has already been used. Sign in with your passkey, or ask an owner for a new invitation.",
  expired: "This invitation has expired. Ask an owner for a new one.",
  revoked: "This invitation was withdrawn. Ask an owner for a new one.",
};

/** Someone accepting this invitation at this moment lost the race to someone else. */
export class InvitationUsedError extends Error {
  override name = "InvitationUsedError";
}

/**
 * Lets the invited person in, inside the caller's transaction: marks the invitation used (once,
 * whoever else tries at the same moment), creates their account (with `newUserId`, the id their
 * passkey was made for) or updates an existing one, sets their roles and languages, and audits it.
 */
export async function admitInvited(
  trx: Transaction<Database>,
  invitation: Invitation,
  input: { newUserId?: string; ip: string },
): Promise<AdminUser> {
  if (!(await markInvitationAccepted(trx, invitation.id))) throw new InvitationUsedError(invitationProblems.used);
  let user = await findUserByEmail(trx, normalizeEmail(invitation.email));
  // The last active owner keeps the owner role even when the invitation (made while there were
  // others) leaves it out: refusing would lock out the one person who can still invite anyone.
  const ownerKept = await demotesLastOwner(trx, user, invitation.roles);
  const roles: readonly string[] = ownerKept ? [...invitation.roles, "owner"] : invitation.roles;
  if (user) {
    await setRoles(trx, user.id, roles);
    await setRolesSource(trx, user.id, "back-office");
    if (user.disabledAt) await setDisabled(trx, user.id, false);
  } else {
    user = await createUser(trx, { id: input.newUserId, email: invitation.email, roles });
  }
  // The invitation's languages, as its roles, replace any the account had; an owner is never limited.
  const locales = roles.includes("owner") ? [] : invitation.locales;
  await setLocales(trx, user.id, locales);
  await recordAudit(trx, {
    actor: user,
    action: "invitation.accepted",
    target: { type: "invitation", id: invitation.id },
    details: {
      roles: invitation.roles,
      locales: locales.length ? locales : "every",
      reenabled: Boolean(user.disabledAt),
      ...(ownerKept ? { ownerKept } : {}),
    },
    ip: input.ip,
  });
  return (await findUserById(trx, user.id))!;
}
