import { randomUUID } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { site } from "~/config/site";
import { saveSignInState, takeSignInState } from "~/features/auth/db/admin-sessions.server";
import { findPasskey, recordPasskeyUse, type StoredPasskey } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";

// Passkeys (WebAuthn) through SimpleWebAuthn: the options a browser needs to make or use a
// passkey, and the verification of what it sends back. The relying party is SITE_URL's host, and
// only SITE_URL's origin is accepted. A ceremony's challenge is kept in the database for five
// minutes and used once, so the two halves may reach different servers. Signing in and confirming
// who is signed in are separate ceremonies: a confirmation's challenge belongs to one session and
// accepts only its person's passkeys.

const CEREMONY_MS = 5 * 60_000;

/** Who the passkeys are for: SITE_URL's host name (never an IP address: browsers refuse that). */
export function relyingParty() {
  const url = new URL(getEnv().SITE_URL);
  return { id: url.hostname, name: `${site.company} back office`, origin: url.origin };
}

/** A problem the person can act on, phrased for them; nothing was stored. */
export class PasskeyError extends Error {
  override name = "PasskeyError";
}

type RegistrationState = { challenge: string; userId: string; context: Record<string, string> };
type AuthenticationState = { challenge: string };
type ConfirmationState = { challenge: string; userId: string; sessionId: string };

// Each ceremony's state is kept under its own purpose: a challenge made for one is never taken by another.
const SIGN_IN_PURPOSE = "passkey-authentication";
const CONFIRMATION_PURPOSE = "passkey-confirmation";

/**
 * Options for making a passkey for `user` (who may not exist yet: an invitation fixes the id the
 * account will have). `context` comes back with the verified result (the invitation it is for).
 */
export async function beginRegistration(
  user: { id: string; email: string },
  existing: readonly StoredPasskey[],
  context: Record<string, string> = {},
): Promise<{ stateId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const party = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.email,
    userDisplayName: user.email,
    userID: isoUint8Array.fromUTF8String(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const stateId = randomUUID();
  const state: RegistrationState = { challenge: options.challenge, userId: user.id, context };
  await saveSignInState(getDb(), {
    id: stateId,
    purpose: "passkey-registration",
    payload: state,
    expiresAt: new Date(Date.now() + CEREMONY_MS),
  });
  return { stateId, options };
}

export type NewPasskey = Omit<StoredPasskey, "createdAt" | "lastUsedAt" | "name">;

/** Checks a new passkey against its ceremony; returns it with the ceremony's user and context. */
export async function finishRegistration(
  stateId: string,
  response: unknown,
): Promise<{ passkey: NewPasskey; userId: string; context: Record<string, string> }> {
  const state = (await takeSignInState(getDb(), stateId, "passkey-registration", new Date())) as RegistrationState | undefined;
  if (!state) throw new PasskeyError("This request has expired. Try again.");
  const party = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: state.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
  } catch {
    throw new PasskeyError("The passkey could not be verified. Try again.");
  }
  if (!verification.verified) throw new PasskeyError("The passkey could not be verified. Try again.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  return {
    userId: state.userId,
    context: state.context,
    passkey: {
      id: credential.id,
      userId: state.userId,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    },
  };
}

/** Options for signing in with a passkey: any of the site's (the browser offers what it has). */
export async function beginAuthentication(): Promise<{ stateId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({ rpID: relyingParty().id, userVerification: "required" });
  const stateId = randomUUID();
  const state: AuthenticationState = { challenge: options.challenge };
  await saveSignInState(getDb(), {
    id: stateId,
    purpose: SIGN_IN_PURPOSE,
    payload: state,
    expiresAt: new Date(Date.now() + CEREMONY_MS),
  });
  return { stateId, options };
}

/**
 * The stored passkey a sign-in response names, once its signature and counter check out; its use
 * is recorded. A challenge made for a confirmation is not one of sign-in's.
 */
export async function finishAuthentication(stateId: string, response: unknown): Promise<StoredPasskey> {
  const state = (await takeSignInState(getDb(), stateId, SIGN_IN_PURPOSE, new Date())) as AuthenticationState | undefined;
  if (!state) throw new PasskeyError("This request has expired. Try again.");
  const passkey = await findPasskey(getDb(), credentialIdOf(response));
  if (!passkey) throw new PasskeyError("This passkey is not registered here.");
  return verifyAssertion(state.challenge, response, passkey);
}

/**
 * Options for confirming who is signed in (a destructive action or a change to how they sign in
 * asked): a challenge of its own, kept for this session and person only, and only their passkeys
 * allowed.
 */
export async function beginConfirmation(signedIn: {
  userId: string;
  sessionId: string;
  passkeys: readonly StoredPasskey[];
}): Promise<{ stateId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    userVerification: "required",
    allowCredentials: signedIn.passkeys.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
  });
  const stateId = randomUUID();
  const state: ConfirmationState = { challenge: options.challenge, userId: signedIn.userId, sessionId: signedIn.sessionId };
  await saveSignInState(getDb(), {
    id: stateId,
    purpose: CONFIRMATION_PURPOSE,
    payload: state,
    expiresAt: new Date(Date.now() + CEREMONY_MS),
  });
  return { stateId, options };
}

/**
 * The signed-in person's own passkey that answered their session's confirmation challenge. A
 * sign-in challenge, another session's challenge or anyone else's passkey is refused, whatever
 * the signature.
 */
export async function finishConfirmation(
  stateId: string,
  response: unknown,
  signedIn: { userId: string; sessionId: string },
): Promise<StoredPasskey> {
  const state = (await takeSignInState(getDb(), stateId, CONFIRMATION_PURPOSE, new Date())) as ConfirmationState | undefined;
  if (!state || state.userId !== signedIn.userId || state.sessionId !== signedIn.sessionId) {
    throw new PasskeyError("This request has expired. Try again.");
  }
  const passkey = await findPasskey(getDb(), credentialIdOf(response));
  if (!passkey || passkey.userId !== signedIn.userId) throw new PasskeyError("This passkey is not one of yours.");
  return verifyAssertion(state.challenge, response, passkey);
}

function credentialIdOf(response: unknown): string {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id.slice(0, 1024) : "";
}

/** SimpleWebAuthn's check of an assertion by `passkey` over `challenge`; its use is recorded. */
async function verifyAssertion(challenge: string, response: unknown, passkey: StoredPasskey): Promise<StoredPasskey> {
  const party = relyingParty();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
  } catch {
    throw new PasskeyError("The passkey could not be verified. Try again.");
  }
  if (!verification.verified) throw new PasskeyError("The passkey could not be verified. Try again.");
  await recordPasskeyUse(getDb(), passkey.id, verification.authenticationInfo.newCounter);
  return passkey;
}

/** A passkey's default name: when it was added, which the person can recognise later. */
export function defaultPasskeyName(now = new Date()): string {
  return `Passkey added ${now.toISOString().slice(0, 10)}`;
}
