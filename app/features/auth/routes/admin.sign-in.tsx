import { isIP } from "node:net";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/admin.sign-in";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { PasskeyButton } from "~/features/auth/admin/passkey-button";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { getSignedIn, safeRedirect } from "~/features/auth/auth.server";
import { signInProblemMessage, SIGN_IN_PROBLEMS } from "~/features/auth/admin/sign-in-problems";
import { allowSignInAttempt } from "~/features/auth/sign-in-limits.server";
import { beginSso, SsoError, ssoProviderName } from "~/features/auth/sso.server";
import { getEnv } from "~/env.server";
import { readFormBody } from "~/features/leads/forms/body.server";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getSignedIn(request)) throw redirect(redirectTo);
  const siteUrl = new URL(getEnv().SITE_URL);
  // Passkeys belong to SITE_URL's host name: a page opened another way (an IP address above all,
  // where browsers refuse passkeys) must send people there.
  const elsewhere = url.origin !== siteUrl.origin;
  return {
    redirectTo,
    sso: ssoProviderName(),
    problem: signInProblemMessage(url.searchParams.get("problem")),
    signedOut: url.searchParams.has("signed-out"),
    passkeysElsewhere: elsewhere
      ? {
          url: `${siteUrl.origin}/admin/sign-in`,
          host: siteUrl.host,
          ipAddress: isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0,
        }
      : null,
  };
}

/** Single sign-on starts with a plain form post (no JavaScript needed). */
export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) throw data({ message: "The form could not be read." }, { status: body.status });
  if (!ssoProviderName()) throw data({ message: "Single sign-on is not set up." }, { status: 404 });
  const limit = await allowSignInAttempt(context);
  if (!limit.allowed) return data({ problem: SIGN_IN_PROBLEMS["too-many"] }, { status: 429 });
  try {
    return await beginSso({ redirectTo: safeRedirect(String(body.payload.get("redirectTo") ?? "")) });
  } catch (error) {
    if (error instanceof SsoError) return data({ problem: error.message }, { status: 503 });
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [
  { title: `Sign in | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, sso, passkeysElsewhere } = loaderData;
  const problem = actionData?.problem ?? loaderData.problem;
  return (
    <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <PageHeading title="Sign in to the back office">For the people who run the {site.company} website.</PageHeading>
      {loaderData.signedOut ? <Notice tone="success">You have signed out.</Notice> : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {passkeysElsewhere ? (
        <Notice>
          {passkeysElsewhere.ipAddress
            ? "Browsers do not offer passkeys on a page opened by its IP address. "
            : `Passkeys here belong to ${passkeysElsewhere.host}. `}
          Open{" "}
          <a href={passkeysElsewhere.url} className="font-semibold underline">
            {passkeysElsewhere.url}
          </a>{" "}
          to sign in with a passkey.
        </Notice>
      ) : null}
      <div className="space-y-6">
        <section aria-labelledby="passkey-heading">
          <h2 id="passkey-heading" className="mb-2 font-semibold">
            With a passkey
          </h2>
          <PasskeyButton
            kind="authenticate"
            endpoint="/admin/passkeys/sign-in"
            fields={{ redirectTo }}
            label="Sign in with a passkey"
          />
        </section>
        {sso ? (
          <section aria-labelledby="sso-heading">
            <h2 id="sso-heading" className="mb-2 font-semibold">
              With your company account
            </h2>
            <Form method="post">
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button type="submit" className={buttonClasses("secondary")}>
                Sign in with {sso}
              </button>
            </Form>
          </section>
        ) : null}
        <p className="text-sm text-muted">
          New here? Open the invitation link an owner sent you. Lost your passkey? Ask an owner for a new invitation.
        </p>
      </div>
    </div>
  );
}
