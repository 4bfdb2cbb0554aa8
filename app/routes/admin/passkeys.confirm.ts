import type { Route } from "./+types/passkeys.confirm";
import { safeRedirect } from "~/lib/admin/auth.server";
import { recordAudit } from "~/lib/admin/audit.server";
import { ceremonyAnswer, ceremonySignedIn, readCeremonyPost } from "~/lib/admin/ceremony.server";
import { beginAuthentication, finishAuthentication, PasskeyError } from "~/lib/admin/passkeys.server";
import { markSessionAuthenticated } from "~/lib/db/admin-sessions.server";
import { listPasskeys } from "~/lib/db/admin-users.server";
import { getDb } from "~/lib/db/index.server";

// Someone signed in proves again that it is them (a destructive action asked): only their own
// passkeys are offered and accepted, and their session counts as freshly authenticated.

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readCeremonyPost(request);
  if (post instanceof Response) return post;
  const signedIn = await ceremonySignedIn(request, post);
  if (signedIn instanceof Response) return signedIn;
  const { user, session } = signedIn;

  if (post.step === "options") {
    const passkeys = await listPasskeys(getDb(), user.id);
    if (passkeys.length === 0) return ceremonyAnswer({ error: "You have no passkey here." }, { status: 400 });
    return ceremonyAnswer(await beginAuthentication({ userId: user.id, passkeys }));
  }

  try {
    await finishAuthentication(post.stateId, post.response);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    return ceremonyAnswer({ error: error.message }, { status: 400 });
  }
  await markSessionAuthenticated(getDb(), session.recordId, new Date());
  await recordAudit(getDb(), {
    actor: user,
    action: "reauthenticated",
    target: { type: "user", id: user.id },
    details: { method: "passkey" },
    ip: context.clientIp,
  });
  return ceremonyAnswer({ redirectTo: safeRedirect(String(post.fields.get("redirectTo") ?? "")) });
}
