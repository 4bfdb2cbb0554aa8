import { data, Link, redirect, useRevalidator } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/admin.account";
import { PasskeyTable, RemovePasskeyForm, SessionTable, SignOutEverywhereForm } from "~/features/auth/admin/account-lists";
import { useCsrfToken } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { PasskeyButton } from "~/features/auth/admin/passkey-button";
import { site } from "~/config/site";
import { accountLists } from "~/features/auth/account-view.server";
import {
  confirmationPath,
  endSession,
  isRecentlyAuthenticated,
  requireAdminForm,
  requireRecentAuthentication,
  requireUser,
} from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { roleDescriptions, sortRoles } from "~/config/roles";
import { notifySignInChange } from "~/features/auth/sign-in-change-mail.server";
import { ssoProviderName } from "~/features/auth/sso.server";
import { deleteUserSessions } from "~/features/auth/db/admin-sessions.server";
import { deletePasskey, listPasskeys } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";

// Your own account: your roles, your passkeys (add one for another device, remove a lost one) and
// where you are signed in, with "sign out of every device". Adding or removing a passkey changes
// how you sign in: it needs a recent sign-in or confirmation, and you are told by mail.

export async function loader({ request }: Route.LoaderArgs) {
  const signedIn = await requireUser(request);
  const { user, session } = signedIn;
  return {
    // Otherwise the page offers "confirm it's you" first (the server asks again when a passkey is added).
    confirmToChange: isRecentlyAuthenticated(signedIn) ? undefined : confirmationPath("/admin/account#passkeys"),
    email: user.email,
    roles: sortRoles(user.roles).map((role) => roleDescriptions[role].label),
    rolesFromProvider: user.rolesSource === "identity-provider",
    ...(await accountLists(user.id, session.recordId)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request);
  const { user, form } = signedIn;
  const intent = form.get("intent");

  if (intent === "sign-out-everywhere") {
    const ended = await deleteUserSessions(getDb(), user.id);
    await recordAudit(getDb(), {
      actor: user,
      action: "sessions.ended",
      target: { type: "user", id: user.id },
      details: { sessions: ended, by: "themselves" },
      ip: context.clientIp,
    });
    return redirect("/admin/sign-in?signed-out", { headers: { "Set-Cookie": await endSession(request) } });
  }

  if (intent === "remove-passkey") {
    requireRecentAuthentication(signedIn, "/admin/account");
    const passkeyId = String(form.get("passkey") ?? "");
    const passkeys = await listPasskeys(getDb(), user.id);
    const removed = passkeys.find((passkey) => passkey.id === passkeyId);
    if (!removed) return data({ problem: "That passkey is not yours." }, { status: 404 });
    if (passkeys.length === 1 && !ssoProviderName()) {
      return data(
        { problem: "This is your only passkey: add another one first, or you could not sign in again." },
        { status: 400 },
      );
    }
    await getDb()
      .transaction()
      .execute(async (trx) => {
        await deletePasskey(trx, user.id, passkeyId);
        await recordAudit(trx, {
          actor: user,
          action: "passkey.removed",
          target: { type: "user", id: user.id },
          details: { passkey: passkeyId },
          ip: context.clientIp,
        });
      });
    notifySignInChange({
      to: user.email,
      change: "passkey-removed",
      passkeyName: removed.name,
      by: user.email,
      at: new Date(),
      ip: context.clientIp,
    });
    return { done: "The passkey was removed." };
  }
  return data({ problem: "Unknown action." }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: `Your account | ${site.company} back office` }];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const csrf = useCsrfToken();
  const revalidator = useRevalidator();
  const [added, setAdded] = useState(false);
  const { email, roles, rolesFromProvider, passkeys, sessions, confirmToChange } = loaderData;
  const problem = actionData && "problem" in actionData ? actionData.problem : undefined;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  return (
    <>
      <PageHeading title="Your account">
        {email}: {roles.join(", ")}
        {rolesFromProvider ? " (given by your groups at the identity provider)" : ""}.
      </PageHeading>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {done ? <Notice tone="success">{done}</Notice> : null}
      {added ? <Notice tone="success">Your new passkey was added.</Notice> : null}
      <Panel title="Your passkeys" id="passkeys">
        <PasskeyTable passkeys={passkeys} action={(passkey) => <RemovePasskeyForm passkey={passkey} />} />
        <div className="mt-4">
          {confirmToChange ? (
            <p className="text-sm">
              Adding a passkey changes how you sign in, and your last sign-in was a while ago.{" "}
              <Link to={confirmToChange} className="font-semibold text-brand-700 underline">
                Confirm it's you to add a passkey
              </Link>
            </p>
          ) : (
            <PasskeyButton
              kind="register"
              endpoint="/admin/passkeys/register"
              fields={{ csrf }}
              label="Add a passkey"
              variant="secondary"
              onDone={() => {
                setAdded(true);
                void revalidator.revalidate();
              }}
            />
          )}
        </div>
      </Panel>
      <Panel title="Where you are signed in" id="sessions">
        <SessionTable sessions={sessions} />
        <SignOutEverywhereForm intent="sign-out-everywhere" />
      </Panel>
    </>
  );
}
