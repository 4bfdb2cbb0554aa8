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
import { saveSignInState, takeSignInState } from "~/lib/db/admin-sessions.server";
import { findPasskey, recordPasskeyUse, type StoredPasskey } from "~/lib/db/admin-users.server";
import { getDb } from "~/lib/db/index.server";
import { getEnv } from "~/lib/env.server";

// Passkeys (WebAuthn) through SimpleWebAuthn: the options a browser needs to make or use a
// passkey, and the verification of what it sends back. The relying party is SITE_URL's host, and
// only SITE_URL's origin is accepted. A ceremony's challenge is kept in the database for five
// minutes and used once, so the two halves may reach different servers.

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
type AuthenticationState = { challenge: string; userId?: string };

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

/**
 * Options for signing in with a passkey: any of the site's (the browser offers what it has), or,
 * for `userId`, only that person's (confirming who is already signed in).
 */
export async function beginAuthentication(only?: {
  userId: string;
  passkeys: readonly StoredPasskey[];
}): Promise<{ stateId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    userVerification: "required",
    allowCredentials: only?.passkeys.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
  });
  const stateId = randomUUID();
  const state: AuthenticationState = { challenge: options.challenge, userId: only?.userId };
  await saveSignInState(getDb(), {
    id: stateId,
    purpose: "passkey-authentication",
    payload: state,
    expiresAt: new Date(Date.now() + CEREMONY_MS),
  });
  return { stateId, options };
}

/** The stored passkey a response names, once its signature and counter check out; its use is recorded. */
export async function finishAuthentication(stateId: string, response: unknown): Promise<StoredPasskey> {
  const state = (await takeSignInState(getDb(), stateId, "passkey-authentication", new Date())) as
    AuthenticationState | undefined;
  if (!state) throw new PasskeyError("This request has expired. Try again.");
  const credentialId = typeof (response as { id?: unknown })?.id === "string" ? (response as { id: string }).id : "";
  const passkey = credentialId ? await findPasskey(getDb(), credentialId) : undefined;
  if (!passkey || (state.userId && passkey.userId !== state.userId)) {
    throw new PasskeyError("This passkey is not registered here.");
  }
  const party = relyingParty();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: state.challenge,
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
