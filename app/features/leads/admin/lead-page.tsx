import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { formatDateTime } from "~/ui/admin/format";
import { attributionGroups, columnLabel, statusLabel } from "~/features/leads/labels";

// One lead, whichever form it came from: what was submitted, when and from where, its deliveries
// (with "Deliver again" for a failing one), its workflow (status, owner, notes, replies) and its
// activity, newest first. Every change is a plain POST form with the session's CSRF token.

export type LeadPageProps = {
  desk: { path: string; title: string };
  inboxHref: string;
  form: { id: string; label: string; noun: string };
  me: string;
  zone: string;
  lead: {
    id: string;
    name: string;
    createdAt: string;
    status: string;
    ownerId: string | null;
    ownerEmail: string;
    lastInteractionAt: string | null;
    decidedAt: string | null;
    attribution: Record<string, string>;
    submitted: [string, string][];
  };
  statuses: { value: string; decided: boolean }[];
  assignees: { id: string; email: string }[];
  deliveries: {
    id: string;
    destination: string;
    status: string;
    attempts: number;
    lastError: string | null;
    createdAt: string;
    sentAt: string | null;
    retry: boolean;
  }[];
  activity: {
    id: string;
    kind: string;
    actorEmail: string;
    fromValue: string;
    toValue: string;
    body: string;
    createdAt: string;
  }[];
  result?: { done?: string; intent?: string; problem?: string; field?: string };
};

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-700";

export function LeadPage(props: LeadPageProps) {
  const { lead, form, result, zone } = props;
  const when = (value: string | null) => (value ? formatDateTime(value, zone) : "");
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={props.inboxHref} className="text-brand-700 underline">
          {form.label}
        </Link>
      </p>
      <PageHeading title={lead.name || "(no name)"}>
        {form.noun[0]!.toUpperCase() + form.noun.slice(1)}, submitted {when(lead.createdAt)}. Status: {statusLabel(lead.status)}
        {lead.decidedAt ? ` (decided ${when(lead.decidedAt)})` : ""}. Owner: {lead.ownerEmail || "nobody"}.
      </PageHeading>
      {result?.done ? <Notice tone="success">{result.done}</Notice> : null}
      {result?.problem && !result.field ? <Notice tone="error">{result.problem}</Notice> : null}

      <Panel title="Work on it" id="workflow">
        <div className="grid gap-6 md:grid-cols-2">
          <Form method="post" className="space-y-2">
            <CsrfField />
            <input type="hidden" name="intent" value="status" />
            <FieldProblem result={result} field="status" id="lead-status">
              {(invalid) => (
                <>
                  <label htmlFor="lead-status" className="block text-sm font-medium">
                    Status
                  </label>
                  <select id="lead-status" name="status" defaultValue={lead.status} className={control} {...invalid}>
                    {props.statuses.map((status) => (
                      <option key={status.value} value={status.value}>
                        {statusLabel(status.value)}
                        {status.decided ? " (final)" : ""}
                      </option>
                    ))}
                  </select>
                </>
              )}
            </FieldProblem>
            <button type="submit" className={buttonClasses("secondary")}>
              Change status
            </button>
          </Form>
          <Form method="post" className="space-y-2">
            <CsrfField />
            <input type="hidden" name="intent" value="owner" />
            <FieldProblem result={result} field="owner" id="lead-owner">
              {(invalid) => (
                <>
                  <label htmlFor="lead-owner" className="block text-sm font-medium">
                    Owner
                  </label>
                  <select id="lead-owner" name="owner" defaultValue={lead.ownerId ?? ""} className={control} {...invalid}>
                    <option value="">Nobody</option>
                    {props.assignees.map((person) => (
                      <option key={person.id} value={person.id}>
                        {person.email}
                        {person.id === props.me ? " (you)" : ""}
                      </option>
                    ))}
                  </select>
                </>
              )}
            </FieldProblem>
            <button type="submit" className={buttonClasses("secondary")}>
              Assign
            </button>
          </Form>
          <NoteForm kind="note" result={result} />
          <NoteForm kind="reply" result={result} />
        </div>
        <p className="mt-4 text-sm text-muted">
          Last interaction: {lead.lastInteractionAt ? when(lead.lastInteractionAt) : "none yet"}.
        </p>
      </Panel>

      <Panel title="What they sent" id="submitted">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">Submitted</dt>
          <dd>{when(lead.createdAt)}</dd>
          {lead.submitted.map(([column, value]) => (
            <Entry key={column} label={columnLabel(column)} value={value} />
          ))}
        </dl>
      </Panel>

      <Panel title="Where it came from" id="attribution">
        <div className="grid gap-6 md:grid-cols-2">
          {attributionGroups.map((group, index) => (
            <section key={group.title} aria-labelledby={`attribution-${index}-heading`}>
              <h3 id={`attribution-${index}-heading`} className="mb-3 font-semibold">
                {group.title}
              </h3>
              <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
                {group.columns.map(([column, label]) => (
                  <Entry key={column} label={label} value={lead.attribution[column] ?? ""} />
                ))}
              </dl>
            </section>
          ))}
        </div>
      </Panel>

      <Panel title="Deliveries" id="deliveries">
        {props.deliveries.length === 0 ? (
          <p className="text-sm text-muted">None: no destination was configured when it arrived.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-muted">
                  {["Destination", "Status", "Attempts", "Last error", "Sent", ""].map((heading, index) => (
                    <th key={index} scope="col" className={cell}>
                      {heading || <span className="sr-only">Action</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {props.deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td className={cell}>{delivery.destination === "email" ? "Email" : "Webhook"}</td>
                    <td className={cell}>{delivery.status}</td>
                    <td className={cell}>{delivery.attempts}</td>
                    <td className={`${cell} break-all`}>{delivery.lastError ?? ""}</td>
                    <td className={`${cell} whitespace-nowrap`}>{when(delivery.sentAt)}</td>
                    <td className={cell}>
                      {delivery.retry ? (
                        <Form method="post">
                          <CsrfField />
                          <input type="hidden" name="intent" value="deliver-again" />
                          <input type="hidden" name="delivery" value={delivery.id} />
                          <button type="submit" className="font-semibold text-brand-700 underline">
                            Deliver again<span className="sr-only"> by {delivery.destination}</span>
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {result?.field === "delivery" ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {result.problem}
          </p>
        ) : null}
      </Panel>

      <Panel title="Activity" id="activity">
        {props.activity.length === 0 ? (
          <p className="text-sm text-muted">Nothing yet.</p>
        ) : (
          <ol className="space-y-3 text-sm">
            {props.activity.map((entry) => (
              <li key={entry.id} className="border-b border-slate-100 pb-3">
                <p>
                  <span className="font-medium">{activityTitle(entry)}</span>{" "}
                  <span className="text-muted">
                    by {entry.actorEmail || "the site"}, {when(entry.createdAt)}
                  </span>
                </p>
                {entry.body ? <p className="mt-1 whitespace-pre-wrap">{entry.body}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </>
  );
}

function activityTitle(entry: LeadPageProps["activity"][number]): string {
  switch (entry.kind) {
    case "status":
      return `Status: ${statusLabel(entry.fromValue)} → ${statusLabel(entry.toValue)}`;
    case "owner":
      return `Owner: ${entry.fromValue} → ${entry.toValue}`;
    case "note":
      return "Note";
    case "reply":
      return "Reply sent";
    case "delivery":
      return `Delivery by ${entry.toValue} queued again (was ${entry.fromValue})`;
    case "correction":
      return `Corrected ${columnLabel(entry.fromValue)}`;
    default:
      return entry.kind;
  }
}

function Entry({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="font-medium">{label}</dt>
      <dd className="break-words whitespace-pre-wrap">{value || <span className="text-muted">(empty)</span>}</dd>
    </>
  );
}

type Invalid = { "aria-invalid"?: true; "aria-describedby"?: string };

/** A field with its problem, when the last post was refused because of it. */
function FieldProblem({
  result,
  field,
  id,
  children,
}: {
  result: LeadPageProps["result"];
  field: string;
  id: string;
  children: (invalid: Invalid) => ReactNode;
}) {
  const problem = result?.field === field ? result.problem : undefined;
  return (
    <div>
      {children(problem ? { "aria-invalid": true, "aria-describedby": `${id}-problem` } : {})}
      {problem ? (
        <p id={`${id}-problem`} className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function NoteForm({ kind, result }: { kind: "note" | "reply"; result: LeadPageProps["result"] }) {
  const id = `lead-${kind}`;
  const formRef = useRef<HTMLFormElement>(null);
  // A note that was added leaves an empty box; a refused one keeps its text.
  useEffect(() => {
    if (result?.done && result.intent === kind) formRef.current?.reset();
  }, [result, kind]);
  return (
    <Form method="post" ref={formRef} className="space-y-2">
      <CsrfField />
      <input type="hidden" name="intent" value={kind} />
      <FieldProblem result={result} field={kind} id={id}>
        {(invalid) => (
          <>
            <label htmlFor={id} className="block text-sm font-medium">
              {kind === "note" ? "Internal note" : "Reply sent (what you wrote them)"}
            </label>
            <textarea id={id} name="body" rows={3} maxLength={5000} required className={control} {...invalid} />
          </>
        )}
      </FieldProblem>
      <button type="submit" className={buttonClasses("secondary")}>
        {kind === "note" ? "Add note" : "Record reply"}
      </button>
    </Form>
  );
}
