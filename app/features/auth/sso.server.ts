import { randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { createCookie, redirect } from "react-router";
import { recordAudit } from "~/features/audit/audit.server";
import { admitInvited, demotesLastOwner } from "~/features/auth/invitations.server";
import { sortRoles, type Role } from "~/config/roles";
import { saveSignInState, takeSignInState } from "~/features/auth/db/admin-sessions.server";
import type { Transaction } from "kysely";
import { isInDomains, parseEmailAddress, type EmailAddress } from "~/features/auth/admin/email-address";
import {
  createUser,
  findOpenInvitationForEmail,
  findUserByEmail,
  findUserById,
  normalizeEmail,
  setRoles,
  type AdminUser,
} from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import type { Database } from "~/db/schema";
import {
  findSsoIdentity,
  findUserSsoIdentity,
  linkSsoIdentity,
  recordSsoIdentityUse,
} from "~/features/auth/db/sso-identities.server";
import { getEnv } from "~/env.server";
import { logger } from "~/platform/logger.server";
import { SIGN_IN_PROBLEMS, type SignInProblem } from "~/features/auth/admin/sign-in-problems";

// Single sign-on with the company's identity provider: OpenID Connect's authorization code flow
// with PKCE, through openid-client. Switched on by OIDC_ISSUER, OIDC_CLIENT_ID and
// OIDC_CLIENT_SECRET. The round trip's state, nonce and code verifier wait in the database (the
// browser may come back to another server) under a random id kept in a short-lived cookie.
//
// Who may enter, always with an email the provider says (with the boolean `true`) it verified:
// someone who already has an account (unless disabled), someone with an open invitation, or, when
// OIDC_ALLOWED_DOMAINS and OIDC_GROUP_ROLES are set, anyone whose email is in an allowed domain and
// whose groups map to at least one role. People admitted by their groups keep the roles their
// groups give, read again at every sign-in. An account is tied to the provider's subject on its
// first single sign-on and found by it from then on.

const ROUND_TRIP_MS = 10 * 60_000;
/** A confirmation of identity must come from a sign-in at the provider within this many seconds. */
const REAUTHENTICATION_MAX_AGE_S = 300;

export const SSO_CALLBACK_PATH = "/admin/sign-in/sso/callback";

export function ssoProviderName(): string | undefined {
  const env = getEnv();
  return env.OIDC_ISSUER ? env.OIDC_PROVIDER_NAME : undefined;
}

/** A sign-in that cannot go on, named by the problem the sign-in page explains; nothing was stored. */
export class SsoError extends Error {
  override name = "SsoError";
  constructor(readonly problem: SignInProblem) {
    super(SIGN_IN_PROBLEMS[problem]);
  }
}

let configuration: Promise<oidc.Configuration> | undefined;

/** The provider's configuration, discovered once per server (again after a failure). */
function providerConfiguration(): Promise<oidc.Configuration> {
  configuration ??= (async () => {
    const env = getEnv();
    if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) throw new SsoError("sso-unavailable");
    const issuer = new URL(env.OIDC_ISSUER);
    // Plain http is accepted only for a provider on this machine (the configuration refuses any other).
    const options = issuer.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : undefined;
    return oidc.discovery(issuer, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET, undefined, options);
  })().catch((error: unknown) => {
    configuration = undefined;
    throw error;
  });
  return configuration;
}

function stateCookie() {
  const secure = new URL(getEnv().SITE_URL).protocol === "https:";
  return createCookie(secure ? "__Host-quorvant_sso" : "quorvant_sso", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: ROUND_TRIP_MS / 1000,
  });
}

type RoundTrip = {
  codeVerifier: string;
  state: string;
  nonce: string;
  redirectTo: string;
  /** Set when a signed-in person is confirming who they are. */
  confirmingUserId?: string;
};

/** Sends the browser to the provider; `confirmingUserId` asks it to sign the person in again. */
export async function beginSso(input: { redirectTo: string; confirmingUserId?: string }): Promise<Response> {
  let config: oidc.Configuration;
  try {
    config = await providerConfiguration();
  } catch (error) {
    logger.error({ err: error }, "single sign-on: the identity provider could not be reached");
    throw new SsoError("sso-unavailable");
  }
  const roundTrip: RoundTrip = {
    codeVerifier: oidc.randomPKCECodeVerifier(),
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    redirectTo: input.redirectTo,
    confirmingUserId: input.confirmingUserId,
  };
  const parameters: Record<string, string> = {
    redirect_uri: `${getEnv().SITE_URL}${SSO_CALLBACK_PATH}`,
    scope: "openid email profile",
    code_challenge: await oidc.calculatePKCECodeChallenge(roundTrip.codeVerifier),
    code_challenge_method: "S256",
    state: roundTrip.state,
    nonce: roundTrip.nonce,
  };
  if (input.confirmingUserId) Object.assign(parameters, { prompt: "login", max_age: String(REAUTHENTICATION_MAX_AGE_S) });
  const id = randomUUID();
  await saveSignInState(getDb(), { id, purpose: "sso", payload: roundTrip, expiresAt: new Date(Date.now() + ROUND_TRIP_MS) });
  return redirect(oidc.buildAuthorizationUrl(config, parameters).href, {
    headers: { "Set-Cookie": await stateCookie().serialize(id) },
  });
}

export type SsoIdentity = {
  /** The provider (the ID token's `iss`) and its own, never reassigned, name for the person (`sub`). */
  issuer: string;
  subject: string;
  /** The `email` claim as sent, trimmed and lower-cased; "" when there is none. */
  email: string;
  /** True only when the provider said so with the boolean `true`. */
  emailVerified: boolean;
  groups: string[];
};

/**
 * Finishes the round trip on the callback: the state must be the one this browser started, the
 * code is exchanged with its PKCE verifier, and the ID token's signature, issuer, audience and
 * nonce are checked by openid-client. Returns who the provider says signed in.
 */
export async function finishSso(request: Request): Promise<{ identity: SsoIdentity; roundTrip: RoundTrip; clearCookie: string }> {
  const cookie = stateCookie();
  const clearCookie = await cookie.serialize("", { maxAge: 0 });
  const id = (await cookie.parse(request.headers.get("Cookie"))) as unknown;
  const roundTrip =
    typeof id === "string" && /^[0-9a-f-]{36}$/.test(id)
      ? ((await takeSignInState(getDb(), id, "sso", new Date())) as RoundTrip | undefined)
      : undefined;
  if (!roundTrip) throw new SsoError("sso-expired");
  const env = getEnv();
  const current = new URL(`${env.SITE_URL}${SSO_CALLBACK_PATH}`);
  current.search = new URL(request.url).search;
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(await providerConfiguration(), current, {
      pkceCodeVerifier: roundTrip.codeVerifier,
      expectedState: roundTrip.state,
      expectedNonce: roundTrip.nonce,
      idTokenExpected: true,
      ...(roundTrip.confirmingUserId ? { maxAge: REAUTHENTICATION_MAX_AGE_S } : {}),
    });
    claims = tokens.claims();
  } catch (error) {
    // The provider's own refusal (the person cancelled, say) is not our failure.
    const refused = error instanceof oidc.AuthorizationResponseError;
    if (!refused)
      logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, "single sign-on failed");
    throw new SsoError(refused ? "sso-refused" : "sso-failed");
  }
  if (!claims) throw new SsoError("sso-failed");
  return { identity: identityFromClaims(claims, env.OIDC_GROUPS_CLAIM), roundTrip, clearCookie };
}

/** Who the ID token's claims (already checked by openid-client) say signed in. */
export function identityFromClaims(claims: oidc.IDToken, groupsClaim: string): SsoIdentity {
  const rawGroups = claims[groupsClaim];
  const groups = Array.isArray(rawGroups) ? rawGroups.filter((group): group is string => typeof group === "string") : [];
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof claims.email === "string" ? normalizeEmail(claims.email) : "",
    // Only the boolean: a missing claim or the string "false" (or "true") is no verification.
    emailVerified: claims.email_verified === true,
    groups: typeof rawGroups === "string" ? [rawGroups] : groups,
  };
}

/** Who single sign-on lets in by their groups: OIDC_ALLOWED_DOMAINS and OIDC_GROUP_ROLES. */
export type SsoPolicy = { allowedDomains: readonly string[]; groupRoles: readonly { group: string; role: Role }[] };

function policyFromEnv(): SsoPolicy {
  const env = getEnv();
  return { allowedDomains: env.OIDC_ALLOWED_DOMAINS ?? [], groupRoles: env.OIDC_GROUP_ROLES ?? [] };
}

/** The roles the provider's groups give someone of an allowed domain (none outside them). */
function rolesFromGroups(email: EmailAddress, groups: readonly string[], policy: SsoPolicy): Role[] {
  if (!isInDomains(email, policy.allowedDomains)) return [];
  return sortRoles(policy.groupRoles.filter((entry) => groups.includes(entry.group)).map((entry) => entry.role));
}

/**
 * The account an identity may enter with, by the rules above; the account is made, updated or
 * linked on the way (in one transaction, with its audit entries). An SsoError says why someone
 * may not, and then nothing was stored.
 *
 * An account is found by the provider's issuer and subject once it is linked to them, never by
 * email again: an address can change hands at the provider, a subject cannot. An account not yet
 * linked (made by an invitation or before links existed) is found by its address, provided the
 * provider verified it, and linked then, unless it is already linked to someone else there.
 */
export async function admitSsoIdentity(identity: SsoIdentity, ip: string, policy = policyFromEnv()): Promise<AdminUser> {
  if (!identity.email) throw new SsoError("no-email");
  const email = parseEmailAddress(identity.email);
  if (!email) throw new SsoError("invalid-email");
  // Anyone can type any address into a profile: only one the provider checked says who this is.
  if (!identity.emailVerified) throw new SsoError("unverified");
  const mapped = rolesFromGroups(email, identity.groups, policy);
  return getDb()
    .transaction()
    .execute(async (trx) => {
      const link = await findSsoIdentity(trx, identity.issuer, identity.subject);
      if (link) {
        const linked = (await findUserById(trx, link.userId))!;
        const user = await enterExisting(trx, linked, mapped, ip);
        await recordSsoIdentityUse(trx, identity.issuer, identity.subject);
        return user;
      }
      const existing = await findUserByEmail(trx, email.address);
      if (existing) {
        if (await findUserSsoIdentity(trx, existing.id, identity.issuer)) throw new SsoError("linked-elsewhere");
        const user = await enterExisting(trx, existing, mapped, ip);
        await linkAccount(trx, user, identity, email, ip);
        return user;
      }
      const invitation = await findOpenInvitationForEmail(trx, email.address);
      if (invitation) {
        const user = await admitInvited(trx, invitation, { ip });
        await linkAccount(trx, user, identity, email, ip);
        return user;
      }
      if (mapped.length === 0) throw new SsoError("not-allowed");
      const user = await createUser(trx, { email: email.address, roles: mapped, rolesSource: "identity-provider" });
      await recordAudit(trx, {
        actor: null,
        action: "user.created",
        target: { type: "user", id: user.id },
        details: { email: user.email, roles: mapped, by: "identity provider groups" },
        ip,
      });
      await linkAccount(trx, user, identity, email, ip);
      return user;
    });
}

/** An existing account comes in unless disabled; roles from the provider's groups are read again. */
async function enterExisting(trx: Transaction<Database>, user: AdminUser, mapped: Role[], ip: string): Promise<AdminUser> {
  if (user.disabledAt) throw new SsoError("disabled");
  if (user.rolesSource !== "identity-provider") return user;
  if (mapped.length === 0) throw new SsoError("no-groups");
  // The last active owner keeps the owner role whatever the groups say: without it nobody could
  // invite anyone or change anyone's roles again.
  const ownerKept = await demotesLastOwner(trx, user, mapped);
  const roles = ownerKept ? sortRoles([...mapped, "owner"]) : mapped;
  if (roles.join() !== sortRoles(user.roles).join()) {
    await setRoles(trx, user.id, roles);
    await recordAudit(trx, {
      actor: null,
      action: "user.roles-changed",
      target: { type: "user", id: user.id },
      details: {
        email: user.email,
        from: user.roles,
        to: roles,
        by: "identity provider groups",
        ...(ownerKept ? { ownerKept } : {}),
      },
      ip,
    });
  }
  return { ...user, roles };
}

/** Links the account to the identity's subject, audited; refused when someone linked it first. */
async function linkAccount(
  trx: Transaction<Database>,
  user: AdminUser,
  identity: SsoIdentity,
  email: EmailAddress,
  ip: string,
): Promise<void> {
  const linked = await linkSsoIdentity(trx, {
    issuer: identity.issuer,
    subject: identity.subject,
    userId: user.id,
    email: email.address,
  });
  if (!linked) {
    // Another sign-in linked one of the two at the same moment: fine only if it made this same link.
    const link = await findSsoIdentity(trx, identity.issuer, identity.subject);
    if (link?.userId === user.id) return;
    throw new SsoError("linked-elsewhere");
  }
  await recordAudit(trx, {
    actor: user,
    action: "user.sso-linked",
    target: { type: "user", id: user.id },
    details: { email: email.address, issuer: identity.issuer, subject: identity.subject },
    ip,
  });
}
