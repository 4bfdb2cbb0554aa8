import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/admin.confirm";
import { CsrfField, useCsrfToken } from "~/ui/admin/csrf-field";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { PasskeyButton } from "~/features/auth/admin/passkey-button";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { RECENT_AUTHENTICATION_MS, requireAdminForm, requireUser, safeRedirect } from "~/features/auth/auth.server";
import { beginSso, SsoError, ssoProviderName } from "~/features/auth/sso.server";
import { listPasskeys } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";

// Before a destructive action or a change to how they sign in, someone whose last sign-in is older
// than ten minutes proves again that it is them: with one of their own passkeys (a ceremony of its
// own, see passkeys.confirm.ts), or at the identity provider. Then back to the page.

export async function loader({ request }: Route.LoaderArgs) {
  const { user, session } = await requireUser(request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (Date.now() - Date.parse(session.authenticatedAt) < RECENT_AUTHENTICATION_MS / 2) throw redirect(redirectTo);
  const passkeys = await listPasskeys(getDb(), user.id);
  return { redirectTo, hasPasskeys: passkeys.length > 0, sso: ssoProviderName() };
}

export async function action({ request }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request);
  if (!ssoProviderName()) throw data({ message: "Single sign-on is not set up." }, { status: 404 });
  try {
    return await beginSso({ redirectTo: safeRedirect(String(form.get("redirectTo") ?? "")), confirmingUserId: user.id });
  } catch (error) {
    if (error instanceof SsoError) return data({ problem: error.message }, { status: 503 });
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [{ title: `Confirm it's you | ${site.company} back office` }];

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, hasPasskeys, sso } = loaderData;
  const csrf = useCsrfToken();
  return (
    <div className="max-w-lg">
      <PageHeading title="Confirm it's you">
        What you are doing cannot be undone lightly or changes how you sign in, and your last sign-in was a while ago. Confirm who
        you are, then do it again.
      </PageHeading>
      {actionData?.problem ? <Notice tone="error">{actionData.problem}</Notice> : null}
      <div className="space-y-4">
        {hasPasskeys ? (
          <PasskeyButton
            kind="authenticate"
            endpoint="/admin/passkeys/confirm"
            fields={{ csrf, redirectTo }}
            label="Confirm with your passkey"
          />
        ) : null}
        {sso ? (
          <Form method="post">
            <CsrfField />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" className={buttonClasses(hasPasskeys ? "secondary" : "primary")}>
              Confirm with {sso}
            </button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}
