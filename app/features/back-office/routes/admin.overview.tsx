import { Link } from "react-router";
import type { Route } from "./+types/admin.overview";
import { PageHeading } from "~/ui/admin/page-heading";
import { site } from "~/config/site";
import { requireUser } from "~/features/auth/auth.server";
import { mayAct, roleDescriptions, sortRoles } from "~/config/roles";
import { adminSections } from "~/features/back-office/admin/sections";
import { CampaignDashboard, type DashboardData } from "~/features/visits/admin/campaign-dashboard";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { leadFormList } from "~/features/leads/registry";
import { campaignReport, rate, reportPeriodFrom } from "~/features/visits/campaign-report.server";

// The start page after sign-in: who you are here, the sections your roles open and, for sales,
// where visitors and leads come from.

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return {
    email: user.email,
    roles: sortRoles(user.roles).map((role) => roleDescriptions[role]),
    sections: adminSections.filter((section) => mayAct(user.roles, section.roles)),
    report: mayAct(user.roles, "sales") ? await dashboard(new URL(request.url)) : undefined,
  };
}

async function dashboard(url: URL): Promise<DashboardData> {
  const { period, problem } = reportPeriodFrom(url);
  const report = await campaignReport(getDb(), period, new URL(getEnv().SITE_URL).host);
  return {
    period,
    problem,
    forms: leadFormList.map((form) => ({ id: form.id, label: form.label })),
    weeks: report.weeks,
    campaigns: report.campaigns.map((row) => ({
      ...row,
      visitToLead: rate(row.leads, row.visits),
      leadToWon: rate(row.won, row.leads),
    })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: `Overview | ${site.company} back office` }];

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { email, roles, sections, report } = loaderData;
  return (
    <>
      <PageHeading title="Overview">Signed in as {email}.</PageHeading>
      {report ? <CampaignDashboard report={report} /> : null}
      <section aria-labelledby="roles-heading" className="mb-8">
        <h2 id="roles-heading" className="text-lg font-semibold">
          Your roles
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2">
          {roles.map((role) => (
            <li key={role.label} className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm">
              <span className="font-semibold">{role.label}</span>: {role.description}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="sections-heading">
        <h2 id="sections-heading" className="text-lg font-semibold">
          What you can do here
        </h2>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.path}>
              <Link
                to={section.path}
                className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600"
              >
                <span className="font-semibold text-brand-700">{section.label}</span>
                <span className="mt-1 block text-sm text-muted">{section.description}</span>
              </Link>
            </li>
          ))}
          <li>
            <Link
              to="/admin/account"
              className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600"
            >
              <span className="font-semibold text-brand-700">Your account</span>
              <span className="mt-1 block text-sm text-muted">Your passkeys and where you are signed in.</span>
            </Link>
          </li>
        </ul>
      </section>
    </>
  );
}
