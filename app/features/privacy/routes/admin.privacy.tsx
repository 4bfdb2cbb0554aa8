import { data, Form } from "react-router";
import type { Route } from "./+types/admin.privacy";
import { CsrfField } from "~/ui/admin/csrf-field";
import { LabelledControl } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRecentAuthentication, requireRole } from "~/features/auth/auth.server";
import { formatDateTime } from "~/ui/admin/format";
import {
  eraseFromThisServersSpool,
  findInThisServersSpool,
  privacyView,
  type PrivacyView,
} from "~/features/privacy/privacy.server";
import {
  correctSubjectField,
  eraseSubject,
  findSubjectData,
  lookUpSubject,
  normalizeAddress,
  subjectAddress,
} from "~/features/privacy/db/data-subject.server";
import { getDb } from "~/db/index.server";

// Privacy requests (owners only): look up what the site holds about an email address, download
// it as JSON, correct a field, or erase all of it after typing the address again. The address
// travels in the forms' bodies, never in a URL (which logs would keep); the audit log gets only a
// hash of it. Besides the database, a look-up shows what this server's lead spool keeps; an erasure
// clears this server's spool at once and every other server's on its replay job's next pass.

const ROLE = "owner";
const PATH = "/admin/privacy";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, ROLE);
  return null;
}

type ActionResult =
  | { view: PrivacyView; done?: string; fieldErrors?: { field?: string; value?: string; lead?: string; confirm?: string } }
  | { fieldErrors: { email: string }; email: string }
  | { erased: { email: string; total: number; counts: Record<string, number> } }
  | { problem: string };

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request, ROLE);
  const { user, form } = signedIn;
  const by = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const intent = form.get("intent");
  const typed = String(form.get("email") ?? "");
  const address = subjectAddress.safeParse(typed);
  if (!address.success) {
    return data<ActionResult>({ fieldErrors: { email: address.error.issues[0]!.message }, email: typed }, { status: 400 });
  }
  const email = address.data;

  const spooled = await findInThisServersSpool(email);
  if (intent === "lookup")
    return data<ActionResult>({ view: privacyView(await lookUpSubject(getDb(), email, by, spooled), spooled) });

  if (intent === "correct") {
    const [table = "", id = ""] = String(form.get("lead") ?? "").split(":");
    const result = await correctSubjectField(
      getDb(),
      { email, table, id, field: String(form.get("field") ?? ""), value: String(form.get("value") ?? "") },
      by,
    );
    const view = privacyView(await findSubjectData(getDb(), email), spooled);
    if (!result.ok) {
      const fieldErrors: Partial<Record<typeof result.field, string>> = { [result.field]: result.message };
      return data<ActionResult>({ view, fieldErrors }, { status: 400 });
    }
    return data<ActionResult>({ view, done: "The field was corrected." });
  }

  if (intent === "erase") {
    requireRecentAuthentication(signedIn, PATH);
    if (normalizeAddress(String(form.get("confirm") ?? "")) !== normalizeAddress(email)) {
      const view = privacyView(await findSubjectData(getDb(), email), spooled);
      return data<ActionResult>(
        { view, fieldErrors: { confirm: "Type the address exactly as above to confirm; nothing was erased." } },
        { status: 400 },
      );
    }
    const counts: Record<string, number> = { ...(await eraseSubject(getDb(), email, by)) };
    counts.lead_spool = await eraseFromThisServersSpool(getDb());
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return data<ActionResult>({ erased: { email, total, counts } });
  }
  return data<ActionResult>({ problem: "Unknown action." }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: `Privacy requests | ${site.company} back office` }];

export default function Privacy({ actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  const view = result && "view" in result ? result.view : undefined;
  const lookupError = result && "fieldErrors" in result && "email" in result ? result : undefined;
  const erased = result && "erased" in result ? result.erased : undefined;
  return (
    <>
      <PageHeading title="Privacy requests">
        What the site holds about a person, found by their email address: export it, correct it, or erase it.
      </PageHeading>
      {result && "problem" in result ? <Notice tone="error">{result.problem}</Notice> : null}
      {result && "done" in result && result.done ? <Notice tone="success">{result.done}</Notice> : null}
      {erased ? (
        <Notice tone="success">
          Erased everything held about {erased.email}: {erased.total === 0 ? "nothing was held." : describeCounts(erased.counts)}
        </Notice>
      ) : null}

      <Panel title="Look up an address" id="lookup">
        <Form method="post" className="space-y-4">
          <CsrfField />
          <input type="hidden" name="intent" value="lookup" />
          <LabelledControl id="privacy-email" label="Email address" error={lookupError?.fieldErrors.email}>
            {(control) => (
              <input
                {...control}
                name="email"
                type="email"
                required
                maxLength={254}
                autoComplete="off"
                defaultValue={view?.email ?? lookupError?.email ?? ""}
              />
            )}
          </LabelledControl>
          <button type="submit" className={buttonClasses("primary")}>
            Look up
          </button>
        </Form>
      </Panel>

      {view ? <Held view={view} fieldErrors={result && "view" in result ? result.fieldErrors : undefined} /> : null}
    </>
  );
}

function describeCounts(counts: Record<string, number>): string {
  return `${Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${count} from ${table}`)
    .join(", ")}.`;
}

function Held({
  view,
  fieldErrors,
}: {
  view: PrivacyView;
  fieldErrors?: { field?: string; value?: string; lead?: string; confirm?: string };
}) {
  if (view.leads.length === 0 && view.spooled.length === 0) {
    return (
      <Panel title={`Held about ${view.email}`} id="held">
        <p className="text-sm">
          Nothing: no lead in any table has this address. This server&apos;s lead spool holds none either.
        </p>
      </Panel>
    );
  }
  return (
    <>
      <Panel title={`Held about ${view.email}`} id="held">
        <ul className="space-y-6">
          {view.leads.map((lead) => (
            <li key={lead.key} aria-label={`${lead.noun} ${lead.id}`}>
              <h3 className="font-semibold">
                A {lead.noun} ({lead.table}), received {formatDateTime(lead.createdAt)}
              </h3>
              <p className="text-sm text-muted">
                {lead.deliveries} {lead.deliveries === 1 ? "delivery" : "deliveries"}, {lead.activity} activity{" "}
                {lead.activity === 1 ? "entry" : "entries"}
              </p>
              <HeldFields fields={lead.fields} />
            </li>
          ))}
          {view.spooled.map((lead) => (
            <li key={lead.file} aria-label={`${lead.noun} in the lead spool`}>
              <h3 className="font-semibold">
                A {lead.noun} in this server&apos;s lead spool ({lead.state === "waiting" ? "waiting to be stored" : "set aside"}
                ), received {formatDateTime(lead.createdAt)}
              </h3>
              <p className="text-sm text-muted">
                Posted while the database could not be reached; not in the tables yet. Erasing deletes it on every server.
              </p>
              <HeldFields fields={lead.fields} />
            </li>
          ))}
        </ul>
        <Form method="post" action={`${PATH}/export`} reloadDocument className="mt-6">
          <CsrfField />
          <input type="hidden" name="email" value={view.email} />
          <button type="submit" className={buttonClasses("secondary")}>
            Download export
          </button>
        </Form>
      </Panel>

      {view.leads.length > 0 ? <Correct view={view} fieldErrors={fieldErrors} /> : null}

      <Panel title="Erase everything" id="erase">
        <Form method="post" className="space-y-4">
          <CsrfField />
          <input type="hidden" name="intent" value="erase" />
          <input type="hidden" name="email" value={view.email} />
          <p className="text-sm">
            Deletes every lead above with its deliveries and activity, for good, and the address&apos;s leads in the lead spool of
            every server (this one at once, the others within seconds). The audit log keeps only a one-way hash of the address.
          </p>
          <LabelledControl id="erase-confirm" label="Type the address to confirm" error={fieldErrors?.confirm}>
            {(control) => <input {...control} name="confirm" type="email" required autoComplete="off" />}
          </LabelledControl>
          <button type="submit" className={buttonClasses("danger")}>
            Erase everything
          </button>
        </Form>
      </Panel>
    </>
  );
}

function Correct({
  view,
  fieldErrors,
}: {
  view: PrivacyView;
  fieldErrors?: { field?: string; value?: string; lead?: string; confirm?: string };
}) {
  return (
    <Panel title="Correct a field" id="correct">
      <Form method="post" className="space-y-4">
        <CsrfField />
        <input type="hidden" name="intent" value="correct" />
        <input type="hidden" name="email" value={view.email} />
        <LabelledControl id="correct-lead" label="Lead" error={fieldErrors?.lead}>
          {(control) => (
            <select {...control} name="lead">
              {view.leads.map((lead) => (
                <option key={lead.key} value={lead.key}>
                  {lead.noun}, {formatDateTime(lead.createdAt)}
                </option>
              ))}
            </select>
          )}
        </LabelledControl>
        <LabelledControl id="correct-field" label="Field" error={fieldErrors?.field}>
          {(control) => (
            <select {...control} name="field">
              {view.correctable.map((form) => (
                <optgroup key={form.label} label={form.label}>
                  {form.fields.map((field) => (
                    <option key={field.value} value={field.value}>
                      {field.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </LabelledControl>
        <LabelledControl id="correct-value" label="New value" error={fieldErrors?.value}>
          {(control) => <textarea {...control} name="value" rows={2} maxLength={5000} />}
        </LabelledControl>
        <button type="submit" className={buttonClasses("primary")}>
          Correct the field
        </button>
      </Form>
    </Panel>
  );
}

/** A lead's fields, as stored or as spooled: label, then value (a dash when empty). */
function HeldFields({ fields }: { fields: { column: string; label: string; value: string }[] }) {
  return (
    <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
      {fields.map((field) => (
        <div key={field.column} className="contents">
          <dt className="font-medium">{field.label}</dt>
          <dd className="break-words whitespace-pre-wrap">{field.value || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}
