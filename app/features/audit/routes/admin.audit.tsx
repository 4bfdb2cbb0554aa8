import { Form, Link } from "react-router";
import type { Route } from "./+types/admin.audit";
import { PageHeading } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireRole } from "~/features/auth/auth.server";
import { AUDIT_ACTIONS, isAuditAction } from "~/features/audit/admin/audit-actions";
import { cursorParam, readAuditQuery } from "~/features/audit/audit-filter.server";
import { formatDateTime } from "~/ui/admin/format";
import { listUsers } from "~/features/auth/db/admin-users.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { getDb } from "~/db/index.server";

// The audit log (owners only): newest first, filtered by person, action and days, 50 entries a
// page, and the same view as CSV. It is read-only: the application has no way to change an entry.

const PAGE_SIZE = 50;

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "owner");
  const url = new URL(request.url);
  const { filter, after, values } = readAuditQuery(url);
  const [page, people] = await Promise.all([listAuditEntries(getDb(), filter, { after, limit: PAGE_SIZE }), listUsers(getDb())]);
  const query = new URLSearchParams(Object.entries(values).filter(([, value]) => value !== ""));
  const next = page.next ? new URLSearchParams([...query, ["after", cursorParam(page.next)]]) : undefined;
  return {
    entries: page.entries.map((entry) => ({
      ...entry,
      actionLabel: isAuditAction(entry.action) ? AUDIT_ACTIONS[entry.action] : entry.action,
      details: Object.keys(entry.details).length ? JSON.stringify(entry.details) : "",
    })),
    people: people.map((person) => ({ id: person.id, email: person.email })),
    values,
    exportQuery: query.toString(),
    nextQuery: next?.toString(),
    firstPage: !after,
  };
}

export const meta: Route.MetaFunction = () => [{ title: `Audit log | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm";

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { entries, people, values, exportQuery, nextQuery, firstPage } = loaderData;
  return (
    <>
      <PageHeading
        title="Audit log"
        actions={
          <a href={`/admin/audit/export${exportQuery ? `?${exportQuery}` : ""}`} className={buttonClasses("secondary")} download>
            Export as CSV
          </a>
        }
      >
        Every sign-in and every change in the back office. Entries cannot be changed or deleted.
      </PageHeading>
      <Form method="get" className="mb-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-5">
        <div className="sm:col-span-2">
          <label htmlFor="audit-person" className="text-sm font-medium">
            Person
          </label>
          <select id="audit-person" name="person" defaultValue={values.person} className={control}>
            <option value="">Anyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-action" className="text-sm font-medium">
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={values.action} className={control}>
            <option value="">Any</option>
            {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-from" className="text-sm font-medium">
            From (UTC)
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={values.from} className={control} />
        </div>
        <div>
          <label htmlFor="audit-to" className="text-sm font-medium">
            To (UTC)
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={values.to} className={control} />
        </div>
        <div className="flex gap-2 sm:col-span-5">
          <button type="submit" className={buttonClasses()}>
            Filter
          </button>
          <Link to="/admin/audit" className={buttonClasses("ghost")}>
            Clear
          </Link>
        </div>
      </Form>
      {entries.length === 0 ? (
        <p className="text-muted">{firstPage ? "No entries match." : "No older entries."}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <caption className="sr-only">Audit log entries, newest first</caption>
            <thead>
              <tr className="text-muted">
                <th scope="col" className={cell}>
                  When
                </th>
                <th scope="col" className={cell}>
                  Who
                </th>
                <th scope="col" className={cell}>
                  Action
                </th>
                <th scope="col" className={cell}>
                  On
                </th>
                <th scope="col" className={cell}>
                  Details
                </th>
                <th scope="col" className={cell}>
                  From
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className={`${cell} whitespace-nowrap`}>{formatDateTime(entry.createdAt)}</td>
                  <td className={cell}>{entry.actorEmail || "Nobody signed in"}</td>
                  <td className={cell}>{entry.actionLabel}</td>
                  <td className={cell}>{entry.targetType ? `${entry.targetType} ${entry.targetId}` : ""}</td>
                  <td className={`${cell} font-mono text-xs break-all`}>{entry.details}</td>
                  <td className={cell}>{entry.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextQuery ? (
        <p className="mt-4">
          <Link to={`/admin/audit?${nextQuery}`} className="text-brand-700 underline">
            Older entries
          </Link>
        </p>
      ) : null}
    </>
  );
}
