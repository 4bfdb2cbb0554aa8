import { randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { createCookie, redirect } from "react-router";
import { recordAudit } from "~/lib/admin/audit.server";
import { admitInvited } from "~/lib/admin/invitations.server";
import { sortRoles, type Role } from "~/lib/admin/roles";
import { saveSignInState, takeSignInState } from "~/lib/db/admin-sessions.server";
import {
  createUser,
  findOpenInvitationForEmail,
  findUserByEmail,
  normalizeEmail,
  setRoles,
  type AdminUser,
} from "~/lib/db/admin-users.server";
import { getDb } from "~/lib/db/index.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { SIGN_IN_PROBLEMS, type SignInProblem } from "~/lib/admin/sign-in-problems";

// Single sign-on with the company's identity provider: OpenID Connect's authorization code flow
// with PKCE, through openid-client. Switched on by OIDC_ISSUER, OIDC_CLIENT_ID and
// OIDC_CLIENT_SECRET. The round trip's state, nonce and code verifier wait in the database (the
// browser may come back to another server) under a random id kept in a short-lived cookie.
//
// Who may enter: someone who already has an account (unless disabled), someone with an open
// invitation, or, when OIDC_ALLOWED_DOMAINS and OIDC_GROUP_ROLES are set, anyone whose verified
// email is in an allowed domain and whose groups map to at least one role. People admitted by their
// groups keep the roles their groups give, read again at every sign-in.

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

export type SsoIdentity = { email: string; emailVerified: boolean | undefined; groups: string[] };

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
  const rawGroups = claims[env.OIDC_GROUPS_CLAIM];
  const groups = Array.isArray(rawGroups) ? rawGroups.filter((group): group is string => typeof group === "string") : [];
  return {
    identity: {
      email: typeof claims.email === "string" ? normalizeEmail(claims.email) : "",
      emailVerified: typeof claims.email_verified === "boolean" ? claims.email_verified : undefined,
      groups: typeof rawGroups === "string" ? [rawGroups] : groups,
    },
    roundTrip,
    clearCookie,
  };
}

/** The roles the provider's groups give someone of an allowed domain (none outside them). */
function rolesFromGroups(identity: SsoIdentity): Role[] {
  const env = getEnv();
  const domain = identity.email.split("@")[1] ?? "";
  if (!env.OIDC_ALLOWED_DOMAINS?.includes(domain)) return [];
  const roles = (env.OIDC_GROUP_ROLES ?? []).filter((entry) => identity.groups.includes(entry.group)).map((entry) => entry.role);
  return sortRoles(roles);
}

/**
 * The account an identity may enter with, by the rules above; the account is made or updated on
 * the way (in one transaction, with its audit entries). An SsoError says why someone may not.
 */
export async function admitSsoIdentity(identity: SsoIdentity, ip: string): Promise<AdminUser> {
  if (!identity.email) throw new SsoError("no-email");
  if (identity.emailVerified === false) throw new SsoError("unverified");
  const mapped = rolesFromGroups(identity);
  return getDb()
    .transaction()
    .execute(async (trx) => {
      const existing = await findUserByEmail(trx, identity.email);
      if (existing) {
        if (existing.disabledAt) throw new SsoError("disabled");
        if (existing.rolesSource !== "identity-provider") return existing;
        if (mapped.length === 0) throw new SsoError("no-groups");
        if (mapped.join() !== sortRoles(existing.roles).join()) {
          await setRoles(trx, existing.id, mapped);
          await recordAudit(trx, {
            actor: null,
            action: "user.roles-changed",
            target: { type: "user", id: existing.id },
            details: { email: existing.email, from: existing.roles, to: mapped, by: "identity provider groups" },
            ip,
          });
        }
        return { ...existing, roles: mapped };
      }
      const invitation = await findOpenInvitationForEmail(trx, identity.email);
      if (invitation) return admitInvited(trx, invitation, { ip });
      if (mapped.length === 0) {
        throw new SsoError("not-allowed");
      }
      const user = await createUser(trx, { email: identity.email, roles: mapped, rolesSource: "identity-provider" });
      await recordAudit(trx, {
        actor: null,
        action: "user.created",
        target: { type: "user", id: user.id },
        details: { email: user.email, roles: mapped, by: "identity provider groups" },
        ip,
      });
      return user;
    });
}
