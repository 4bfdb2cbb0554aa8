import type { ReactNode } from "react";
import { Form } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { buttonClasses } from "~/ui/button";
import { formatDateTime } from "~/ui/admin/format";

// A person's passkeys and sessions, as their account page and an owner's view of them show them.

export type PasskeyRow = { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean };
export type SessionRow = {
  id: string;
  authMethod: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string;
  userAgent: string;
  current: boolean;
};

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export function PasskeyTable({ passkeys, action }: { passkeys: PasskeyRow[]; action?: (passkey: PasskeyRow) => ReactNode }) {
  if (passkeys.length === 0) return <p className="text-sm text-muted">No passkeys.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-muted">
            <th scope="col" className={cell}>
              Passkey
            </th>
            <th scope="col" className={cell}>
              Added
            </th>
            <th scope="col" className={cell}>
              Last used
            </th>
            <th scope="col" className={cell}>
              Synced
            </th>
            {action ? (
              <th scope="col" className={cell}>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {passkeys.map((passkey) => (
            <tr key={passkey.id}>
              <td className={cell}>{passkey.name}</td>
              <td className={cell}>{formatDateTime(passkey.createdAt)}</td>
              <td className={cell}>{passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : "Never"}</td>
              <td className={cell}>{passkey.backedUp ? "Yes" : "No"}</td>
              {action ? <td className={cell}>{action(passkey)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SessionTable({ sessions }: { sessions: SessionRow[] }) {
  if (sessions.length === 0) return <p className="text-sm text-muted">Not signed in anywhere.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-muted">
            <th scope="col" className={cell}>
              Signed in
            </th>
            <th scope="col" className={cell}>
              Last active
            </th>
            <th scope="col" className={cell}>
              From
            </th>
            <th scope="col" className={cell}>
              Browser
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td className={cell}>
                {formatDateTime(session.createdAt)} ({session.authMethod === "sso" ? "single sign-on" : "passkey"})
                {session.current ? <strong className="ml-1">(this browser)</strong> : null}
              </td>
              <td className={cell}>{formatDateTime(session.lastSeenAt)}</td>
              <td className={cell}>{session.ip}</td>
              <td className={`${cell} max-w-xs truncate`} title={session.userAgent}>
                {session.userAgent}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The form that removes one passkey (intent "remove-passkey"), for PasskeyTable's action column. */
export function RemovePasskeyForm({ passkey }: { passkey: PasskeyRow }) {
  return (
    <Form method="post">
      <CsrfField />
      <input type="hidden" name="intent" value="remove-passkey" />
      <input type="hidden" name="passkey" value={passkey.id} />
      <button type="submit" className="text-sm font-semibold text-red-700 underline">
        Remove<span className="sr-only"> {passkey.name}</span>
      </button>
    </Form>
  );
}

/** Ends every session of the person the page is about, under the page's own `intent`. */
export function SignOutEverywhereForm({ intent }: { intent: string }) {
  return (
    <Form method="post" className="mt-4">
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={buttonClasses("secondary")}>
        Sign out of every device
      </button>
    </Form>
  );
}
