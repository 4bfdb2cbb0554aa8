import { Form } from "react-router";
import { BarChart } from "~/ui/admin/bar-chart";

// The sales report on the start page: a period, visits and leads per week (chart and table), and
// per source and campaign the way from visit to lead to won deal.

export type DashboardData = {
  period: { from: string; to: string };
  problem?: string;
  forms: { id: string; label: string }[];
  weeks: { week: string; visits: number; leads: Record<string, number> }[];
  campaigns: {
    source: string;
    campaign: string;
    visits: number;
    leads: number;
    won: number;
    visitToLead: string;
    leadToWon: string;
  }[];
};

const SERIES_CLASSES = ["fill-brand-600", "fill-emerald-600", "fill-amber-500"];
const cell = "border-b border-slate-100 px-3 py-2";
const numeric = `${cell} text-right tabular-nums`;

export function CampaignDashboard({ report }: { report: DashboardData }) {
  const { period, problem, forms, weeks, campaigns } = report;
  const categories = weeks.map((week) => week.week);
  return (
    <section aria-labelledby="report-heading" className="mb-10">
      <h2 id="report-heading" className="text-lg font-semibold">
        Visits and leads
      </h2>
      <p className="mt-1 text-sm text-muted">
        Counted on this site without cookies: a visit is a page view that arrived from outside the site. Weeks start on Monday
        (UTC).
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-4" aria-label="Report period">
        <label className="text-sm font-medium">
          From
          <input
            type="date"
            name="from"
            defaultValue={period.from}
            className="mt-1 block rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="text-sm font-medium">
          To
          <input
            type="date"
            name="to"
            defaultValue={period.to}
            className="mt-1 block rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          Show
        </button>
      </Form>
      {problem ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <BarChart
          title="Visits per week"
          categories={categories}
          series={[{ label: "Visits", values: weeks.map((week) => week.visits), className: SERIES_CLASSES[0]! }]}
        />
        <BarChart
          title="Leads per week, by form"
          categories={categories}
          series={forms.map((form, index) => ({
            label: form.label,
            values: weeks.map((week) => week.leads[form.id] ?? 0),
            className: SERIES_CLASSES[index % SERIES_CLASSES.length]!,
          }))}
        />
      </div>
      <div className="mt-6 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="mb-2 text-left font-semibold">Visits and leads per week</caption>
          <thead>
            <tr className="text-left">
              <th scope="col" className={cell}>
                Week of
              </th>
              <th scope="col" className={`${cell} text-right`}>
                Visits
              </th>
              {forms.map((form) => (
                <th key={form.id} scope="col" className={`${cell} text-right`}>
                  {form.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.week}>
                <th scope="row" className={`${cell} font-normal`}>
                  {week.week}
                </th>
                <td className={numeric}>{week.visits}</td>
                {forms.map((form) => (
                  <td key={form.id} className={numeric}>
                    {week.leads[form.id] ?? 0}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-6 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="mb-2 text-left font-semibold">By source and campaign (contact and demo requests)</caption>
          <thead>
            <tr className="text-left">
              {["Source", "Campaign"].map((name) => (
                <th key={name} scope="col" className={cell}>
                  {name}
                </th>
              ))}
              {["Visits", "Leads", "Won", "Visit to lead", "Lead to won"].map((name) => (
                <th key={name} scope="col" className={`${cell} text-right`}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {campaigns.length === 0 ? (
              <tr>
                <td colSpan={7} className={cell}>
                  No visits or leads in this period.
                </td>
              </tr>
            ) : (
              campaigns.map((row) => (
                <tr key={`${row.source}\u0000${row.campaign}`}>
                  <th scope="row" className={`${cell} font-normal`}>
                    {row.source}
                  </th>
                  <td className={cell}>{row.campaign || "(none)"}</td>
                  <td className={numeric}>{row.visits}</td>
                  <td className={numeric}>{row.leads}</td>
                  <td className={numeric}>{row.won}</td>
                  <td className={numeric}>{row.visitToLead}</td>
                  <td className={numeric}>{row.leadToWon}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
        <p className="mt-2 text-sm text-muted">
          A lead counts under the first page of its visit, as its visit does, whatever its form page's address said.
        </p>
      </div>
    </section>
  );
}
