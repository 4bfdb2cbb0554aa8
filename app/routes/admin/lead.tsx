import type { Route } from "./+types/lead";
import { LeadPage } from "~/components/admin/lead-page";
import { site } from "~/config/site";
import { leadPageAction, loadLeadPage, type LeadActionData } from "~/lib/leads/pages.server";

// A lead's page, for both desks (routes.ts mounts it at /admin/leads/:form/:leadId and
// /admin/applications/:leadId). Opening it is audited: it shows a person's data.

type Params = { form?: string; leadId?: string };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadLeadPage(request, context, params as Params);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return leadPageAction(request, context, params as Params);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `${loaderData.lead.name || loaderData.form.noun} | ` : ""}${site.company} back office` },
];

export default function LeadRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadPage {...loaderData} result={actionData as LeadActionData | undefined} />;
}
