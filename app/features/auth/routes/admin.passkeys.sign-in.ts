import type { Route } from "./+types/admin.passkeys.sign-in";
import { safeRedirect, startSession } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { ceremonyAnswer, readCeremonyPost } from "~/features/auth/ceremony.server";
import { beginAuthentication, finishAuthentication, PasskeyError } from "~/features/auth/passkeys.server";
import { allowSignInAttempt, tooManyAttempts } from "~/features/auth/sign-in-limits.server";
import { findUserById } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import { signInRefusals, signIns } from "~/platform/metrics.server";

// Signing in with a passkey: the options (any passkey of this site), then the verification, which
// starts a session. Every attempt counts against the client's budget (never against the account
// the response names: see sign-in-limits.server.ts); a failure is audited.

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readCeremonyPost(request);
  if (post instanceof Response) return post;

  if (post.step === "options") {
    const limit = await allowSignInAttempt(context);
    if (!limit.allowed) return ceremonyAnswer({ error: tooManyAttempts(limit) }, { status: 429 });
    const { stateId, options } = await beginAuthentication();
    return ceremonyAnswer({ stateId, options });
  }

  // Every attempt counts against the client's budget. Nothing counts against the account a
  // response names: anyone can name a credential, and only a verified one proves an account.
  const limit = await allowSignInAttempt(context);
  if (!limit.allowed) {
    signInRefusals.labels("passkey", "rate-limited").inc();
    return ceremonyAnswer({ error: tooManyAttempts(limit) }, { status: 429 });
  }
  const refuse = async (reason: string, message: string, userId?: string) => {
    // The reason's own words may vary; the metric's reason is one of two fixed codes.
    signInRefusals.labels("passkey", reason === "disabled" ? "disabled" : "passkey-rejected").inc();
    await recordAudit(getDb(), {
      actor: null,
      action: "sign-in.failed",
      target: userId ? { type: "user", id: userId } : undefined,
      details: { method: "passkey", reason },
      ip: context.clientIp,
    });
    return ceremonyAnswer({ error: message }, { status: 400 });
  };
  let passkeyUserId: string;
  try {
    passkeyUserId = (await finishAuthentication(post.stateId, post.response)).userId;
  } catch (error) {
    if (error instanceof PasskeyError) return refuse(error.message, error.message);
    throw error;
  }
  const user = await findUserById(getDb(), passkeyUserId);
  if (!user || user.disabledAt) return refuse("disabled", "Your access to the back office has been disabled.", passkeyUserId);
  const cookie = await startSession(request, context, user, "passkey");
  signIns.labels("passkey").inc();
  return ceremonyAnswer({ redirectTo: safeRedirect(String(post.fields.get("redirectTo") ?? "")) }, { cookie });
}
