import type { Route } from "./+types/admin.passkeys.confirm";
import { safeRedirect } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { ceremonyAnswer, ceremonySignedIn, readCeremonyPost } from "~/features/auth/ceremony.server";
import { beginConfirmation, finishConfirmation, PasskeyError } from "~/features/auth/passkeys.server";
import { markSessionAuthenticated } from "~/features/auth/db/admin-sessions.server";
import { listPasskeys } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";

// Someone signed in proves again that it is them (a destructive action or a change to how they
// sign in asked): a ceremony of its own, for this session, where only their own passkeys are
// offered and accepted; their session then counts as freshly authenticated.

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readCeremonyPost(request);
  if (post instanceof Response) return post;
  const signedIn = await ceremonySignedIn(request, post);
  if (signedIn instanceof Response) return signedIn;
  const { user, session } = signedIn;
  const whose = { userId: user.id, sessionId: session.recordId };

  if (post.step === "options") {
    const passkeys = await listPasskeys(getDb(), user.id);
    if (passkeys.length === 0) return ceremonyAnswer({ error: "You have no passkey here." }, { status: 400 });
    return ceremonyAnswer(await beginConfirmation({ ...whose, passkeys }));
  }

  let passkey;
  try {
    passkey = await finishConfirmation(post.stateId, post.response, whose);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    return ceremonyAnswer({ error: error.message }, { status: 400 });
  }
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await markSessionAuthenticated(trx, session.recordId, new Date());
      await recordAudit(trx, {
        actor: user,
        action: "reauthenticated",
        target: { type: "user", id: user.id },
        details: { method: "passkey", passkey: passkey.id, name: passkey.name },
        ip: context.clientIp,
      });
    });
  return ceremonyAnswer({ redirectTo: safeRedirect(String(post.fields.get("redirectTo") ?? "")) });
}
