import { useEffect, useRef } from "react";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/admin.users";
import { CopyField } from "~/ui/admin/copy-field";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { RoleCheckboxes } from "~/features/auth/admin/role-checkboxes";
import { LanguageCheckboxes } from "~/features/auth/admin/language-checkboxes";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRecentAuthentication, requireRole } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { mailInvitation } from "~/features/auth/invitation-mail.server";
import { invite, LastOwnerError } from "~/features/auth/invitations.server";
import { isRole, roleDescriptions, sortRoles, type Role } from "~/config/roles";
import { limitableLocales } from "~/features/auth/locales.server";
import { languageName } from "~/features/content/document-locale";
import { findUserByEmail, listOpenInvitations, listUsers, revokeInvitation } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import { formatDateTime } from "~/ui/admin/format";

// People (owners only): everyone who can sign in, with their roles and status; inviting someone
// (the link is shown to copy, and mailed when the site has a mail server), limited to some
// languages when the site has more than one; open invitations.

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "owner");
  const [users, invitations] = await Promise.all([listUsers(getDb()), listOpenInvitations(getDb())]);
  return {
    users: users.map((user) => ({
      id: user.id,
      email: user.email,
      roles: sortRoles(user.roles).map((role) => roleDescriptions[role].label),
      // Only a limited person's languages are named: everyone else edits every language.
      languages: user.roles.includes("owner") ? [] : user.locales.map(languageName),
      disabled: Boolean(user.disabledAt),
      passkeys: user.passkeys,
      lastSignInAt: user.lastSignInAt,
    })),
    invitations: invitations.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      roles: sortRoles(invitation.roles).map((role) => roleDescriptions[role].label),
      languages: invitation.locales.map(languageName),
      expiresAt: invitation.expiresAt,
    })),
    languages: limitableLocales().map((tag) => ({ tag, name: languageName(tag) })),
  };
}

/**
 * An invitation as the form submits it: one address, at least one known role, and the languages
 * it limits the person to among `offered` (none, or every one: no limit; an owner has none).
 */
const invitationInput = (offered: readonly string[]) =>
  z
    .object({
      email: z
        .email("Enter an email address, such as name@quorvant.com.")
        .max(254, "An email address has at most 254 characters."),
      roles: z
        .array(z.string())
        .min(1, "Choose at least one role.")
        .refine((roles) => roles.every(isRole), "Choose roles from the list.")
        .transform((roles) => roles as Role[]),
      locales: z
        .array(z.string())
        .refine((tags) => tags.every((tag) => offered.includes(tag)), "Choose languages from the list.")
        .transform((tags) => {
          const chosen = offered.filter((tag) => tags.includes(tag));
          return chosen.length === offered.length ? [] : chosen;
        }),
    })
    .refine((input) => !input.roles.includes("owner") || input.locales.length === 0, {
      path: ["locales"],
      message: "Owners edit every language: leave the languages unticked for an owner.",
    });

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request, "owner");
  const { user, form } = signedIn;
  const intent = form.get("intent");

  if (intent === "revoke-invitation") {
    const id = String(form.get("invitation") ?? "");
    if (!/^[0-9a-f-]{36}$/.test(id) || !(await revokeInvitation(getDb(), id))) {
      return data({ problem: "That invitation is no longer open." }, { status: 404 });
    }
    await recordAudit(getDb(), {
      actor: user,
      action: "invitation.revoked",
      target: { type: "invitation", id },
      ip: context.clientIp,
    });
    return { done: "The invitation was withdrawn." };
  }

  if (intent === "invite") {
    const parsed = invitationInput(limitableLocales()).safeParse({
      email: String(form.get("email") ?? "").trim(),
      roles: form.getAll("roles"),
      locales: form.getAll("locales"),
    });
    if (!parsed.success) {
      const errors = z.flattenError(parsed.error).fieldErrors;
      return data(
        { fieldErrors: { email: errors.email?.[0], roles: errors.roles?.[0], locales: errors.locales?.[0] } },
        { status: 400 },
      );
    }
    const { email, roles, locales } = parsed.data;
    const existing = await findUserByEmail(getDb(), email);
    // An invitation to someone who has an account lets its link add a passkey to that account: a
    // change to how they sign in, which needs a recent proof of who is asking, as adding one does.
    if (existing) requireRecentAuthentication(signedIn, "/admin/users");
    let link: string;
    try {
      ({ link } = await invite(getDb(), { email, roles, locales, invitedBy: user, ip: context.clientIp }));
    } catch (error) {
      if (error instanceof LastOwnerError) return data({ problem: error.message }, { status: 400 });
      throw error;
    }
    const mail = await mailInvitation({ to: email, link, roles, invitedBy: user.email });
    return { invited: { email, link, mail, existing: Boolean(existing) } };
  }
  return data({ problem: "Unknown action." }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: `People | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { users, invitations, languages } = loaderData;
  const result = actionData as
    | {
        problem?: string;
        done?: string;
        fieldErrors?: { email?: string; roles?: string; locales?: string };
        invited?: { email: string; link: string; mail: string; existing: boolean };
      }
    | undefined;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result?.invited) formRef.current?.reset();
  }, [result?.invited]);
  return (
    <>
      <PageHeading title="People">Everyone who can sign in to the back office, and what they may do.</PageHeading>
      {result?.problem ? <Notice tone="error">{result.problem}</Notice> : null}
      {result?.done ? <Notice tone="success">{result.done}</Notice> : null}
      {result?.invited ? (
        <Notice tone="success">
          <p>
            Invitation for {result.invited.email} created.{" "}
            {result.invited.mail === "sent"
              ? "It was mailed to them; you can also send the link yourself."
              : result.invited.mail === "failed"
                ? "The mail could not be sent: send them the link yourself."
                : "Send them this link (it is shown only now):"}
            {result.invited.existing
              ? " They already have an account: the link lets them add a passkey and sets their roles."
              : ""}
          </p>
          <CopyField label="Invitation link" value={result.invited.link} />
        </Notice>
      ) : null}

      <Panel title="Everyone" id="people">
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-muted">
                <th scope="col" className={cell}>
                  Email
                </th>
                <th scope="col" className={cell}>
                  Roles
                </th>
                <th scope="col" className={cell}>
                  Status
                </th>
                <th scope="col" className={cell}>
                  Passkeys
                </th>
                <th scope="col" className={cell}>
                  Last sign-in
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((person) => (
                <tr key={person.id}>
                  <td className={cell}>
                    <Link to={`/admin/users/${person.id}`} className="font-medium text-brand-700 underline">
                      {person.email}
                    </Link>
                  </td>
                  <td className={cell}>
                    {person.roles.join(", ")}
                    {person.languages.length ? (
                      <span className="block text-xs text-muted">{person.languages.join(", ")} only</span>
                    ) : null}
                  </td>
                  <td className={cell}>{person.disabled ? "Disabled" : "Active"}</td>
                  <td className={cell}>{person.passkeys}</td>
                  <td className={cell}>{person.lastSignInAt ? formatDateTime(person.lastSignInAt) : "Never"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>

      <Panel title="Invite someone" id="invite">
        <Form method="post" ref={formRef} className="space-y-4" noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="invite" />
          <div>
            <label htmlFor="invite-email" className="block text-sm font-medium">
              Email address
            </label>
            <input
              id="invite-email"
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              aria-invalid={result?.fieldErrors?.email ? true : undefined}
              aria-describedby={result?.fieldErrors?.email ? "invite-email-error" : undefined}
              className="mt-1.5 block w-full max-w-md rounded-lg border border-slate-300 px-3 py-2 aria-invalid:border-red-700"
            />
            {result?.fieldErrors?.email ? (
              <p id="invite-email-error" className="mt-1 text-sm text-red-700">
                {result.fieldErrors.email}
              </p>
            ) : null}
          </div>
          <RoleCheckboxes name="roles" legend="Roles" error={result?.fieldErrors?.roles} />
          {languages.length ? (
            <LanguageCheckboxes
              id="invite-locales"
              name="locales"
              legend="Languages"
              languages={languages}
              hint="The languages whose pages, posts, positions, legal documents and menus they may edit. None ticked: every language. Owners edit every language."
              error={result?.fieldErrors?.locales}
            />
          ) : null}
          <button type="submit" className={buttonClasses()}>
            Create invitation
          </button>
        </Form>
      </Panel>

      <Panel title="Open invitations" id="invitations">
        {invitations.length === 0 ? (
          <p className="text-sm text-muted">None.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {invitation.email} ({invitation.roles.join(", ")}
                  {invitation.languages.length ? `; ${invitation.languages.join(", ")} only` : ""}), until{" "}
                  {formatDateTime(invitation.expiresAt)}
                </span>
                <Form method="post">
                  <CsrfField />
                  <input type="hidden" name="intent" value="revoke-invitation" />
                  <input type="hidden" name="invitation" value={invitation.id} />
                  <button type="submit" className="font-semibold text-red-700 underline">
                    Withdraw<span className="sr-only"> the invitation for {invitation.email}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
