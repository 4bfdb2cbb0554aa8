import { randomUUID } from "node:crypto";
import type { Route } from "./+types/admin.passkeys.register";
import { confirmationPath, isRecentlyAuthenticated, startSession, type SignedIn } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { ceremonyAnswer, ceremonySignedIn, readCeremonyPost, type CeremonyPost } from "~/features/auth/ceremony.server";
import { admitInvited, invitationProblems, InvitationUsedError, lookUpInvitation } from "~/features/auth/invitations.server";
import { beginRegistration, defaultPasskeyName, finishRegistration, PasskeyError } from "~/features/auth/passkeys.server";
import { notifySignInChange } from "~/features/auth/sign-in-change-mail.server";
import { allowSignInAttempt, countFailedSignIn, tooManyAttempts } from "~/features/auth/sign-in-limits.server";
import { addPasskey, findUserByEmail, listPasskeys } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";

// Making a passkey: for the holder of an invitation link (which then lets them in), or for someone
// signed in who adds another device to their account (with their session's CSRF token, and only
// within ten minutes of signing in or confirming who they are: a session alone, perhaps a stolen
// one, must not be able to add a way in that outlives it). The person is told by mail.

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readCeremonyPost(request);
  if (post instanceof Response) return post;
  const token = post.fields.get("invitation");
  if (typeof token === "string") return registerInvited(request, context, post, token);

  const signedIn = await ceremonySignedIn(request, post);
  if (signedIn instanceof Response) return signedIn;
  return addOwnPasskey(context, post, signedIn);
}

async function registerInvited(request: Request, context: Route.ActionArgs["context"], post: CeremonyPost, token: string) {
  const account = `invitation:${token.slice(0, 64)}`;
  const limit = await allowSignInAttempt(context, account);
  if (!limit.allowed) return ceremonyAnswer({ error: tooManyAttempts(limit) }, { status: 429 });
  const found = await lookUpInvitation(getDb(), token);
  if (found.status !== "open") return ceremonyAnswer({ error: invitationProblems[found.status] }, { status: 410 });
  const { invitation } = found;

  if (post.step === "options") {
    const existing = await findUserByEmail(getDb(), invitation.email);
    const passkeys = existing ? await listPasskeys(getDb(), existing.id) : [];
    const ceremony = await beginRegistration({ id: existing?.id ?? randomUUID(), email: invitation.email }, passkeys, {
      invitationId: invitation.id,
    });
    return ceremonyAnswer(ceremony);
  }

  let result;
  try {
    result = await finishRegistration(post.stateId, post.response);
    if (result.context.invitationId !== invitation.id) throw new PasskeyError("This request has expired. Try again.");
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    await countFailedSignIn(context, account);
    return ceremonyAnswer({ error: error.message }, { status: 400 });
  }
  const { passkey, userId } = result;
  const passkeyName = defaultPasskeyName();
  let user;
  try {
    user = await getDb()
      .transaction()
      .execute(async (trx) => {
        const admitted = await admitInvited(trx, invitation, { newUserId: userId, ip: context.clientIp });
        // Someone else made this person's account meanwhile: the passkey was made for another id.
        if (admitted.id !== userId) throw new PasskeyError("This request has expired. Try again.");
        await addPasskey(trx, { ...passkey, name: passkeyName });
        await recordAudit(trx, {
          actor: admitted,
          action: "passkey.added",
          target: { type: "user", id: admitted.id },
          details: { passkey: passkey.id },
          ip: context.clientIp,
        });
        return admitted;
      });
  } catch (error) {
    if (error instanceof InvitationUsedError || error instanceof PasskeyError) {
      return ceremonyAnswer({ error: error.message }, { status: 409 });
    }
    throw error;
  }
  notifySignInChange({
    to: user.email,
    change: "passkey-added",
    passkeyName,
    by: user.email,
    at: new Date(),
    ip: context.clientIp,
  });
  const cookie = await startSession(request, context, user, "passkey");
  return ceremonyAnswer({ redirectTo: "/admin" }, { cookie });
}

async function addOwnPasskey(context: Route.ActionArgs["context"], post: CeremonyPost, signedIn: SignedIn) {
  const { user } = signedIn;
  // Asked at both steps: the options lead the page to "confirm it's you", the verification is the check.
  if (!isRecentlyAuthenticated(signedIn)) {
    return ceremonyAnswer(
      { error: "Confirm it's you before adding a passkey.", confirmTo: confirmationPath("/admin/account#passkeys") },
      { status: 403 },
    );
  }
  if (post.step === "options") {
    return ceremonyAnswer(await beginRegistration(user, await listPasskeys(getDb(), user.id)));
  }
  let result;
  try {
    result = await finishRegistration(post.stateId, post.response);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    return ceremonyAnswer({ error: error.message }, { status: 400 });
  }
  if (result.userId !== user.id || result.context.invitationId) {
    return ceremonyAnswer({ error: "This request has expired. Try again." }, { status: 400 });
  }
  const name =
    String(post.fields.get("name") ?? "")
      .trim()
      .slice(0, 60) || defaultPasskeyName();
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await addPasskey(trx, { ...result.passkey, name });
      await recordAudit(trx, {
        actor: user,
        action: "passkey.added",
        target: { type: "user", id: user.id },
        details: { passkey: result.passkey.id, name },
        ip: context.clientIp,
      });
    });
  notifySignInChange({
    to: user.email,
    change: "passkey-added",
    passkeyName: name,
    by: user.email,
    at: new Date(),
    ip: context.clientIp,
  });
  return ceremonyAnswer({ done: true });
}
