import { redirect } from "react-router";
import type { Route } from "./+types/admin.sign-in.sso-callback";
import { getSignedIn, safeRedirect, startSession } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { allowSignInAttempt, countFailedSignIn } from "~/features/auth/sign-in-limits.server";
import { admitSsoIdentity, finishSso, SsoError } from "~/features/auth/sso.server";
import { markSessionAuthenticated } from "~/features/auth/db/admin-sessions.server";
import { getDb } from "~/db/index.server";
import { signInRefusals, signIns } from "~/platform/metrics.server";

// Where the identity provider sends the browser back. A sign-in starts a session; a confirmation
// (the person was already signed in and a destructive action asked) marks their session fresh,
// provided the provider signed in the same person. Refusals go back to the sign-in page with the
// reason's code, and are audited.

export async function loader({ request, context }: Route.LoaderArgs) {
  let finished: Awaited<ReturnType<typeof finishSso>>;
  try {
    finished = await finishSso(request);
  } catch (error) {
    if (!(error instanceof SsoError)) throw error;
    signInRefusals.labels("sso", error.problem).inc();
    await recordAudit(getDb(), {
      actor: null,
      action: "sign-in.failed",
      details: { method: "sso", reason: error.problem },
      ip: context.clientIp,
    });
    return redirect(`/admin/sign-in?problem=${error.problem}`);
  }
  const { identity, roundTrip, clearCookie } = finished;
  const headers = new Headers({ "Set-Cookie": clearCookie });
  // Failures count against the subject the provider signed in, not the address it claims: anyone
  // can claim an address, and counting by it would let another subject lock its owner out.
  const account = `sso:${identity.issuer}#${identity.subject}`;
  const limit = await allowSignInAttempt(context, account);
  if (!limit.allowed) {
    signInRefusals.labels("sso", "rate-limited").inc();
    return redirect("/admin/sign-in?problem=too-many", { headers });
  }

  let user;
  try {
    user = await admitSsoIdentity(identity, context.clientIp);
  } catch (error) {
    if (!(error instanceof SsoError)) throw error;
    signInRefusals.labels("sso", error.problem).inc();
    await countFailedSignIn(context, account);
    await recordAudit(getDb(), {
      actor: null,
      action: "sign-in.failed",
      details: {
        method: "sso",
        reason: error.problem,
        email: identity.email,
        issuer: identity.issuer,
        subject: identity.subject,
      },
      ip: context.clientIp,
    });
    return redirect(`/admin/sign-in?problem=${error.problem}`, { headers });
  }

  if (roundTrip.confirmingUserId) {
    const signedIn = await getSignedIn(request);
    if (signedIn && signedIn.user.id === roundTrip.confirmingUserId && user.id === signedIn.user.id) {
      await markSessionAuthenticated(getDb(), signedIn.session.recordId, new Date());
      await recordAudit(getDb(), {
        actor: user,
        action: "reauthenticated",
        target: { type: "user", id: user.id },
        details: { method: "sso" },
        ip: context.clientIp,
      });
      return redirect(safeRedirect(roundTrip.redirectTo), { headers });
    }
    // Someone else signed in at the provider: this browser's session is not theirs to confirm.
  }
  headers.append("Set-Cookie", await startSession(request, context, user, "sso"));
  signIns.labels("sso").inc();
  return redirect(safeRedirect(roundTrip.redirectTo), { headers });
}
