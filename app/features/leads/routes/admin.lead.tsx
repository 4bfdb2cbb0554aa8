import { Link } from "react-router";
import type { Route } from "./+types/admin.lead";
import { PageHeading, Panel } from "~/ui/admin/page-heading";
import { LeadPage } from "~/features/leads/admin/lead-page";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { leadPageAction, loadLeadPage, type LeadActionData, type LeadArrivalData } from "~/features/leads/pages.server";

// A lead's page, for both desks (routes.ts mounts it at /admin/leads/:form/:leadId and
// /admin/applications/:leadId). Opening it is audited: it shows a person's data. Followed from
// another site, it first asks the person to open it from here (see loadLeadPage).

type Params = { form?: string; leadId?: string };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadLeadPage(request, context, params as Params);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return leadPageAction(request, context, params as Params);
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const name = loaderData && !("arrival" in loaderData) ? loaderData.lead.name || loaderData.form.noun : loaderData?.form.noun;
  return [{ title: `${name ? `${name} | ` : ""}${site.company} back office` }];
};

export default function LeadRoute({ loaderData, actionData }: Route.ComponentProps) {
  if ("arrival" in loaderData) return <LeadArrival {...loaderData} />;
  return <LeadPage {...loaderData} result={actionData as LeadActionData | undefined} />;
}

/** A link from another site: the lead opens with one more click, made here, so its audit entry is a look the person chose. */
function LeadArrival({ form, href, inboxHref }: LeadArrivalData) {
  const noun = form.noun.charAt(0).toUpperCase() + form.noun.slice(1);
  return (
    <>
      <PageHeading title={noun}>You followed a link to this {form.noun} from another site.</PageHeading>
      <Panel title="Open it from here" id="arrival">
        <p className="text-sm">
          Opening a lead shows a person&apos;s data, and each look is recorded in the audit log in your name. So that a link
          elsewhere cannot do that for you, a lead opened from another site waits for you to open it here.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Link to={href} className={buttonClasses("primary")}>
            Open this {form.noun}
          </Link>
          <Link to={inboxHref} className={buttonClasses("secondary")}>
            Back to {form.label.toLowerCase()}
          </Link>
        </div>
      </Panel>
    </>
  );
}
