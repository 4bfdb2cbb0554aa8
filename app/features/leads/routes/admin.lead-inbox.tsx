import type { Route } from "./+types/admin.lead-inbox";
import { LeadInbox } from "~/features/leads/admin/lead-inbox";
import { site } from "~/config/site";
import { loadInbox } from "~/features/leads/pages.server";

// One module for both lead desks' inboxes (routes.ts mounts it at /admin/leads and
// /admin/applications): the desk, its role and its forms come from the address.

export async function loader({ request }: Route.LoaderArgs) {
  return loadInbox(request);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `${loaderData.form.label} | ` : ""}${site.company} back office` },
];

export default function LeadInboxPage({ loaderData }: Route.ComponentProps) {
  return <LeadInbox {...loaderData} />;
}
