import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin.user";
import { PasskeyTable, RemovePasskeyForm, SessionTable, SignOutEverywhereForm } from "~/features/auth/admin/account-lists";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { RoleCheckboxes } from "~/features/auth/admin/role-checkboxes";
import { LanguageCheckboxes } from "~/features/auth/admin/language-checkboxes";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { accountLists } from "~/features/auth/account-view.server";
import { requireAdminForm, requireRecentAuthentication, requireRole } from "~/features/auth/auth.server";
import { AUDIT_ACTIONS, isAuditAction } from "~/features/audit/admin/audit-actions";
import { recordAudit } from "~/features/audit/audit.server";
import { demotesLastOwner } from "~/features/auth/invitations.server";
import { isRole, sortRoles } from "~/config/roles";
import { notifySignInChange } from "~/features/auth/sign-in-change-mail.server";
import { deleteUserSessions } from "~/features/auth/db/admin-sessions.server";
import {
  deletePasskey,
  findUserById,
  listPasskeys,
  setDisabled,
  setLocales,
  setRoles,
  setRolesSource,
  type AdminUser,
} from "~/features/auth/db/admin-users.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { getDb } from "~/db/index.server";
import { formatDateTime } from "~/ui/admin/format";
import { isUuid } from "~/db/normalize";
import { limitableLocales } from "~/features/auth/locales.server";
import { languageName } from "~/features/content/document-locale";

// One person (owners only): their roles, passkeys, sessions and latest actions; changing their
// roles, ending their sessions, disabling them (their sessions end at once, on every server).
// At least one active owner always remains. When the site has more than one language: the
// languages whose content they may edit (none chosen: every language).

async function loadPerson(userId: string): Promise<AdminUser> {
  const person = isUuid(userId) ? await findUserById(getDb(), userId.toLowerCase()) : undefined;
  if (!person) throw data({ message: "There is no such person." }, { status: 404 });
  return person;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "owner");
  const person = await loadPerson(params.userId);
  const [lists, recent] = await Promise.all([
    accountLists(person.id),
    listAuditEntries(getDb(), { actorId: person.id }, { limit: 10 }),
  ]);
  return {
    person: {
      id: person.id,
      email: person.email,
      roles: sortRoles(person.roles),
      isOwner: person.roles.includes("owner"),
      locales: person.locales,
      rolesFromProvider: person.rolesSource === "identity-provider",
      disabled: Boolean(person.disabledAt),
      lastSignInAt: person.lastSignInAt,
      createdAt: person.createdAt,
    },
    isYou: person.id === user.id,
    languages: limitableLocales().map((tag) => ({ tag, name: languageName(tag) })),
    ...lists,
    recent: recent.entries.map((entry) => ({
      id: entry.id,
      createdAt: entry.createdAt,
      action: isAuditAction(entry.action) ? AUDIT_ACTIONS[entry.action] : entry.action,
    })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request, "owner");
  const { user, form } = signedIn;
  const person = await loadPerson(params.userId);
  const target = { type: "user", id: person.id };
  const here = `/admin/users/${person.id}`;
  const ip = context.clientIp;

  switch (form.get("intent")) {
    case "roles": {
      const roles = form.getAll("roles").map(String);
      if (roles.length === 0 || !roles.every(isRole))
        return data({ problem: "Choose at least one role from the list." }, { status: 400 });
      if (await demotesLastOwner(getDb(), person, roles)) {
        return data({ problem: "This is the last active owner: make someone else an owner first." }, { status: 400 });
      }
      await getDb()
        .transaction()
        .execute(async (trx) => {
          await setRoles(trx, person.id, roles);
          // Roles set here are the back office's from now on, not the identity provider's groups.
          await setRolesSource(trx, person.id, "back-office");
          await recordAudit(trx, {
            actor: user,
            action: "user.roles-changed",
            target,
            details: { from: person.roles, to: sortRoles(roles) },
            ip,
          });
        });
      return { done: "Roles saved." };
    }
    case "locales": {
      const offered = limitableLocales();
      const chosen = offered.filter((tag) => form.getAll("locales").map(String).includes(tag));
      if (offered.length === 0) return data({ problem: "The site has one language." }, { status: 400 });
      if (person.roles.includes("owner")) return data({ problem: "Owners edit every language." }, { status: 400 });
      if (chosen.length === 0) return data({ problem: "Choose at least one language." }, { status: 400 });
      // Every language chosen is no limit: a language added later is theirs too.
      const locales = chosen.length === offered.length ? [] : chosen;
      await getDb()
        .transaction()
        .execute(async (trx) => {
          await setLocales(trx, person.id, locales);
          await recordAudit(trx, {
            actor: user,
            action: "user.locales-changed",
            target,
            details: { from: person.locales.length ? person.locales : "every", to: locales.length ? locales : "every" },
            ip,
          });
        });
      return { done: "Languages saved." };
    }
    case "end-sessions": {
      const ended = await deleteUserSessions(getDb(), person.id);
      await recordAudit(getDb(), { actor: user, action: "sessions.ended", target, details: { sessions: ended }, ip });
      return { done: `Signed out of every device (${ended} session${ended === 1 ? "" : "s"}).` };
    }
    case "disable": {
      requireRecentAuthentication(signedIn, here);
      if (person.id === user.id) return data({ problem: "You cannot disable yourself." }, { status: 400 });
      if (await demotesLastOwner(getDb(), person, []))
        return data({ problem: "This is the last active owner." }, { status: 400 });
      const ended = await getDb()
        .transaction()
        .execute(async (trx) => {
          await setDisabled(trx, person.id, true);
          const count = await deleteUserSessions(trx, person.id);
          await recordAudit(trx, { actor: user, action: "user.disabled", target, details: { sessionsEnded: count }, ip });
          return count;
        });
      return { done: `${person.email} is disabled; ${ended} session${ended === 1 ? "" : "s"} ended.` };
    }
    case "enable": {
      await getDb()
        .transaction()
        .execute(async (trx) => {
          await setDisabled(trx, person.id, false);
          await recordAudit(trx, { actor: user, action: "user.enabled", target, ip });
        });
      return { done: `${person.email} can sign in again.` };
    }
    case "remove-passkey": {
      requireRecentAuthentication(signedIn, here);
      const passkeyId = String(form.get("passkey") ?? "");
      const passkey = (await listPasskeys(getDb(), person.id)).find((candidate) => candidate.id === passkeyId);
      const removed = await getDb()
        .transaction()
        .execute(async (trx) => {
          if (!(await deletePasskey(trx, person.id, passkeyId))) return false;
          await recordAudit(trx, { actor: user, action: "passkey.removed", target, details: { passkey: passkeyId }, ip });
          return true;
        });
      if (!removed) return data({ problem: "That passkey is not theirs." }, { status: 404 });
      // How they sign in changed: they hear of it, whoever did it.
      notifySignInChange({
        to: person.email,
        change: "passkey-removed",
        passkeyName: passkey?.name ?? "",
        by: user.email,
        at: new Date(),
        ip,
      });
      return { done: "The passkey was removed." };
    }
    default:
      return data({ problem: "Unknown action." }, { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `${loaded?.person.email ?? "Person"} | ${site.company} back office` },
];

export default function User({ loaderData, actionData }: Route.ComponentProps) {
  const { person, isYou, languages, passkeys, sessions, recent } = loaderData;
  const result = actionData as { problem?: string; done?: string } | undefined;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/users" className="text-brand-700 underline">
          People
        </Link>
      </p>
      <PageHeading title={person.email}>
        {person.disabled ? "Disabled" : "Active"}. Added {formatDateTime(person.createdAt)}; last sign-in{" "}
        {person.lastSignInAt ? formatDateTime(person.lastSignInAt) : "never"}.
      </PageHeading>
      {result?.problem ? <Notice tone="error">{result.problem}</Notice> : null}
      {result?.done ? <Notice tone="success">{result.done}</Notice> : null}

      <Panel title="Roles" id="roles">
        {person.rolesFromProvider ? (
          <p className="mb-3 text-sm text-muted">
            These roles come from their groups at the identity provider. Saving roles here takes them over.
          </p>
        ) : null}
        <Form method="post" className="space-y-4">
          <CsrfField />
          <input type="hidden" name="intent" value="roles" />
          <RoleCheckboxes name="roles" legend={`Roles of ${person.email}`} checked={person.roles} />
          <button type="submit" className={buttonClasses()}>
            Save roles
          </button>
        </Form>
      </Panel>

      {languages.length ? (
        <Panel title="Languages" id="languages">
          {person.isOwner ? (
            <p className="text-sm text-muted">Owners edit every language.</p>
          ) : (
            <Form method="post" className="space-y-4">
              <CsrfField />
              <input type="hidden" name="intent" value="locales" />
              <LanguageCheckboxes
                id="person-locales"
                name="locales"
                legend={`Languages ${person.email} may edit`}
                languages={languages}
                checked={person.locales.length ? person.locales : languages.map((language) => language.tag)}
                hint="Pages, posts, positions, legal documents and menus in the other languages answer that they have no access. Choosing every language also gives them languages added later."
              />
              <button type="submit" className={buttonClasses()}>
                Save languages
              </button>
            </Form>
          )}
        </Panel>
      ) : null}

      <Panel title="Passkeys" id="passkeys">
        <PasskeyTable passkeys={passkeys} action={(passkey) => <RemovePasskeyForm passkey={passkey} />} />
      </Panel>

      <Panel title="Sessions" id="sessions">
        <SessionTable sessions={sessions} />
        <SignOutEverywhereForm intent="end-sessions" />
      </Panel>

      <Panel title="Access" id="access">
        {isYou ? (
          <p className="text-sm text-muted">You cannot disable yourself.</p>
        ) : (
          <Form method="post">
            <CsrfField />
            <input type="hidden" name="intent" value={person.disabled ? "enable" : "disable"} />
            <p className="mb-3 text-sm text-muted">
              {person.disabled
                ? "They cannot sign in. Enabling lets them sign in again with their passkeys."
                : "Disabling ends their sessions at once and keeps them from signing in."}
            </p>
            <button type="submit" className={buttonClasses(person.disabled ? "secondary" : "danger")}>
              {person.disabled ? "Enable" : "Disable"} {person.email}
            </button>
          </Form>
        )}
      </Panel>

      <Panel title="Latest actions" id="recent">
        {recent.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {recent.map((entry) => (
              <li key={entry.id}>
                {formatDateTime(entry.createdAt)}: {entry.action}
              </li>
            ))}
          </ul>
        )}
        <Link to={`/admin/audit?person=${person.id}`} className="mt-3 inline-block text-sm text-brand-700 underline">
          Everything {person.email} did
        </Link>
      </Panel>
    </>
  );
}
