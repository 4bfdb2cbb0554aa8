import { Form, Link } from "react-router";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { formatDateTime } from "~/ui/admin/format";
import { statusLabel } from "~/features/leads/labels";

// One inbox of a lead desk (contact requests, demo requests or job applications): newest first,
// filtered by a GET form (so a filtered view is a link, and works without JavaScript), paged by
// Older/Newer links that carry a cursor, exported as CSV with the same filters. Applications also
// show each position's pipeline (how many applications in each status) and filter by position.

type InboxField = "q" | "status" | "owner" | "from" | "to" | "source" | "campaign" | "position" | "locale";

export type InboxProps = {
  desk: { path: string; title: string };
  tabs: { id: string; label: string; href: string }[];
  form: { id: string; label: string; noun: string; hasCompany: boolean; hasPosition: boolean };
  statuses: { value: string; decided: boolean }[];
  assignees: { id: string; email: string }[];
  values: Record<InboxField, string>;
  problems: Partial<Record<InboxField | "form" | "page", string>>;
  filtered: boolean;
  paged: boolean;
  zone: string;
  leads: {
    id: string;
    href: string;
    name: string;
    email: string;
    company: string;
    status: string;
    owner: string;
    createdAt: string;
    /** The campaign of the visit's first page. */
    campaign: string;
    /** An application's position title; "" for an open application, with what it asked for if anything. */
    position?: { title: string; requested: string };
    /** The language of the form's page (a tag of SITE_LOCALES). */
    language: string;
  }[];
  /** Applications: "Open applications" and each position with applications, with its counts per status (in `statuses` order). */
  positions: { value: string; label: string; href: string; counts: number[]; total: number }[];
  /** The site's languages when it has more than one: the inbox then shows and filters by a lead's. */
  languages: { value: string; label: string }[];
  olderHref?: string;
  newerHref?: string;
  clearHref: string;
  newestHref: string;
  exportHref: string;
};

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-700";

export function LeadInbox(props: InboxProps) {
  const { desk, tabs, form, statuses, assignees, values, problems, leads } = props;
  const field = (name: keyof InboxProps["values"]) => ({
    id: `inbox-${name}`,
    name,
    defaultValue: values[name],
    "aria-invalid": problems[name] ? true : undefined,
    "aria-describedby": problems[name] ? `inbox-${name}-problem` : undefined,
    className: control,
  });
  const problem = (name: keyof InboxProps["values"]) =>
    problems[name] ? (
      <p id={`inbox-${name}-problem`} className="mt-1 text-sm text-red-700">
        {problems[name]}
      </p>
    ) : null;
  const columns = [
    "Name",
    "Email",
    ...(form.hasCompany ? ["Company"] : []),
    ...(form.hasPosition ? ["Position"] : []),
    "Status",
    "Owner",
    "Submitted",
    "First visit's campaign",
    ...(props.languages.length ? ["Language"] : []),
  ];
  return (
    <>
      <PageHeading
        title={desk.title}
        actions={
          <a href={props.exportHref} className={buttonClasses("secondary")} download>
            Export as CSV
          </a>
        }
      >
        Newest first. Times are in your time zone; the day filters are UTC days. The export holds every lead of this view.
      </PageHeading>
      {tabs.length ? (
        <nav aria-label="Inboxes" className="mb-4">
          <ul className="flex flex-wrap gap-2">
            {tabs.map((tab) => (
              <li key={tab.id}>
                <Link
                  to={tab.href}
                  aria-current={tab.id === form.id ? "page" : undefined}
                  className={`block rounded-lg border px-4 py-2 text-sm font-semibold ${
                    tab.id === form.id ? "border-brand-700 bg-brand-50 text-brand-800" : "border-slate-300 bg-white text-ink"
                  }`}
                >
                  {tab.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <h2 className="mb-4 text-lg font-semibold">{form.label}</h2>
      {problems.form ? <Notice tone="error">{problems.form}</Notice> : null}
      {problems.page ? <Notice tone="error">{problems.page}</Notice> : null}
      {form.hasPosition && props.positions.some((position) => position.total > 0) ? (
        <PositionPipelines positions={props.positions} statuses={statuses} />
      ) : null}
      <Form
        method="get"
        role="search"
        aria-label={form.label}
        className="mb-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-4"
      >
        {tabs.length ? <input type="hidden" name="form" value={form.id} /> : null}
        <div className="sm:col-span-2">
          <label htmlFor="inbox-q" className="text-sm font-medium">
            {form.hasCompany ? "Name, email or company starts with" : "Name or email starts with"}
          </label>
          <input {...field("q")} type="search" maxLength={200} />
          {problem("q")}
        </div>
        <div>
          <label htmlFor="inbox-status" className="text-sm font-medium">
            Status
          </label>
          <select {...field("status")}>
            <option value="">Any status</option>
            {statuses.map((status) => (
              <option key={status.value} value={status.value}>
                {statusLabel(status.value)}
              </option>
            ))}
          </select>
          {problem("status")}
        </div>
        <div>
          <label htmlFor="inbox-owner" className="text-sm font-medium">
            Owner
          </label>
          <select {...field("owner")}>
            <option value="">Anyone</option>
            <option value="none">Nobody (unassigned)</option>
            {assignees.map((person) => (
              <option key={person.id} value={person.id}>
                {person.email}
              </option>
            ))}
          </select>
          {problem("owner")}
        </div>
        <div>
          <label htmlFor="inbox-from" className="text-sm font-medium">
            Submitted from (UTC)
          </label>
          <input {...field("from")} type="date" />
          {problem("from")}
        </div>
        <div>
          <label htmlFor="inbox-to" className="text-sm font-medium">
            Submitted until (UTC)
          </label>
          <input {...field("to")} type="date" />
          {problem("to")}
        </div>
        <div>
          <label htmlFor="inbox-source" className="text-sm font-medium">
            Form page
          </label>
          <input {...field("source")} type="text" maxLength={200} placeholder="/request-demo" />
          {problem("source")}
        </div>
        <div>
          <label htmlFor="inbox-campaign" className="text-sm font-medium">
            First visit's campaign
          </label>
          <input {...field("campaign")} type="text" maxLength={200} />
          {problem("campaign")}
        </div>
        {form.hasPosition ? (
          <div>
            <label htmlFor="inbox-position" className="text-sm font-medium">
              Position
            </label>
            <select {...field("position")}>
              <option value="">Any position</option>
              {props.positions.map((position) => (
                <option key={position.value} value={position.value}>
                  {position.label}
                </option>
              ))}
              {values.position && !props.positions.some((position) => position.value === values.position) ? (
                <option value={values.position}>A position without applications</option>
              ) : null}
            </select>
            {problem("position")}
          </div>
        ) : null}
        {props.languages.length ? (
          <div>
            <label htmlFor="inbox-locale" className="text-sm font-medium">
              Language
            </label>
            <select {...field("locale")}>
              <option value="">Any language</option>
              {props.languages.map((language) => (
                <option key={language.value} value={language.value}>
                  {language.label}
                </option>
              ))}
            </select>
            {problem("locale")}
          </div>
        ) : null}
        <div className="flex gap-2 sm:col-span-4">
          <button type="submit" className={buttonClasses("secondary")}>
            Filter
          </button>
          {props.filtered ? (
            <Link to={props.clearHref} className={buttonClasses("ghost")}>
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      {leads.length === 0 ? (
        <p className="text-muted" role="status">
          {props.paged ? "No more leads this way." : props.filtered ? "No leads match." : `No ${form.noun}s yet.`}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <caption className="sr-only">{form.label}, newest first</caption>
            <thead>
              <tr className="text-muted">
                {columns.map((heading) => (
                  <th key={heading} scope="col" className={cell}>
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => (
                <tr key={lead.id}>
                  <td className={cell}>
                    <Link to={lead.href} className="font-medium text-brand-700 underline">
                      {lead.name || "(no name)"}
                    </Link>
                  </td>
                  <td className={`${cell} break-all`}>{lead.email}</td>
                  {form.hasCompany ? <td className={cell}>{lead.company}</td> : null}
                  {form.hasPosition ? (
                    <td className={cell}>
                      {lead.position?.title || "Open application"}
                      {lead.position?.requested ? (
                        <span className="block text-xs text-muted">Asked for {lead.position.requested}, not open</span>
                      ) : null}
                    </td>
                  ) : null}
                  <td className={cell}>{statusLabel(lead.status)}</td>
                  <td className={cell}>{lead.owner || "Nobody"}</td>
                  <td className={`${cell} whitespace-nowrap`}>{formatDateTime(lead.createdAt, props.zone)}</td>
                  <td className={cell}>{lead.campaign}</td>
                  {props.languages.length ? (
                    <td className={cell}>
                      {props.languages.find((language) => language.value === lead.language)?.label ?? lead.language}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.newerHref || props.olderHref || props.paged ? (
        <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-4">
          {props.newerHref ? (
            <Link to={props.newerHref} className="text-brand-700 underline">
              Newer
            </Link>
          ) : props.paged ? (
            <Link to={props.newestHref} className="text-brand-700 underline">
              Newest
            </Link>
          ) : null}
          {props.olderHref ? (
            <Link to={props.olderHref} className="text-brand-700 underline">
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

/** Each position's applications per status of the workflow; a position's name filters the inbox to it. */
function PositionPipelines({ positions, statuses }: Pick<InboxProps, "positions" | "statuses">) {
  return (
    <section aria-labelledby="inbox-pipelines" className="mb-6">
      <h3 id="inbox-pipelines" className="mb-2 font-semibold">
        Pipeline by position
      </h3>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-sm">
          <caption className="sr-only">Applications per position and status</caption>
          <thead>
            <tr className="text-muted">
              <th scope="col" className={cell}>
                Position
              </th>
              {statuses.map((status) => (
                <th key={status.value} scope="col" className={`${cell} text-right`}>
                  {statusLabel(status.value)}
                </th>
              ))}
              <th scope="col" className={`${cell} text-right`}>
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {positions.map((position) => (
              <tr key={position.value}>
                <th scope="row" className={`${cell} font-medium`}>
                  <Link to={position.href} className="text-brand-700 underline">
                    {position.label}
                  </Link>
                </th>
                {position.counts.map((count, index) => (
                  <td key={statuses[index]?.value ?? index} className={`${cell} text-right tabular-nums`}>
                    {count}
                  </td>
                ))}
                <td className={`${cell} text-right font-semibold tabular-nums`}>{position.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
