import { data, Form } from "react-router";
import type { Route } from "./+types/admin.invitation";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { PasskeyButton } from "~/features/auth/admin/passkey-button";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { getSignedIn } from "~/features/auth/auth.server";
import { invitationProblems, lookUpInvitation } from "~/features/auth/invitations.server";
import { roleDescriptions, sortRoles } from "~/config/roles";
import { ssoProviderName } from "~/features/auth/sso.server";
import { getDb } from "~/db/index.server";
import { formatDateTime } from "~/ui/admin/format";

// An invitation link: who it is for and with which roles, and the button that makes their passkey
// (which lets them in). A used, expired, withdrawn or unknown link says so and offers nothing.

export async function loader({ request, params }: Route.LoaderArgs) {
  const found = await lookUpInvitation(getDb(), params.token);
  if (found.status !== "open") {
    throw data({ message: invitationProblems[found.status] }, { status: found.status === "unknown" ? 404 : 410 });
  }
  const signedIn = await getSignedIn(request);
  return {
    email: found.invitation.email,
    roles: sortRoles(found.invitation.roles).map((role) => roleDescriptions[role].label),
    expiresAt: found.invitation.expiresAt,
    signedInAs: signedIn && signedIn.user.email !== found.invitation.email ? signedIn.user.email : undefined,
    sso: ssoProviderName(),
  };
}

export const meta: Route.MetaFunction = () => [
  { title: `Your invitation | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function Invitation({ loaderData, params }: Route.ComponentProps) {
  const { email, roles, expiresAt, signedInAs, sso } = loaderData;
  return (
    <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <PageHeading title={`Welcome to the ${site.company} back office`}>
        This invitation is for <strong>{email}</strong>, as {roles.join(", ")}. It works once, until {formatDateTime(expiresAt)}.
      </PageHeading>
      {signedInAs ? (
        <Notice>
          You are signed in as {signedInAs}. Going on signs you in as {email} instead.
        </Notice>
      ) : null}
      <section aria-labelledby="passkey-heading" className="space-y-3">
        <h2 id="passkey-heading" className="font-semibold">
          Create your passkey
        </h2>
        <p className="text-sm text-muted">
          A passkey replaces a password: your device (phone, laptop, security key) proves it is you with your fingerprint, face or
          PIN. You will use it every time you sign in.
        </p>
        <PasskeyButton
          kind="register"
          endpoint="/admin/passkeys/register"
          fields={{ invitation: params.token }}
          label="Create a passkey"
        />
      </section>
      {sso ? (
        <section aria-labelledby="sso-heading" className="mt-6 space-y-3">
          <h2 id="sso-heading" className="font-semibold">
            Or use your company account
          </h2>
          <Form method="post" action="/admin/sign-in">
            <input type="hidden" name="redirectTo" value="/admin" />
            <button type="submit" className={buttonClasses("secondary")}>
              Sign in with {sso}
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
