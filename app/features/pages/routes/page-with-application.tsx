import type { Route } from "./+types/page-with-application";
import { CareerApplication } from "~/features/leads/components/career-application";
import { NotFound } from "~/ui/not-found";
import { GonePage } from "~/features/redirects/components/gone-page";
import { pageRouteMeta, pageShouldRevalidate } from "~/features/pages/page-meta";
import { loadPage } from "~/features/pages/page-loader.server";
import { PageView } from "~/features/pages/page-view";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { submitForm } from "~/features/leads/forms/submit.server";

// The careers page: a page of blocks like the others (~/features/pages/routes/page), whose hero
// holds the "Join Our Team" application. A module of its own so that the form's code (Conform,
// Zod) reaches this page only, never the first load of the other pages.

export async function loader(args: Route.LoaderArgs) {
  return loadPage(args);
}

/** The form posts to the page's own URL (so its utm_* parameters are recorded) → career_applications. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("career-application", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches, data }) => pageRouteMeta(matches, data);

export const shouldRevalidate = pageShouldRevalidate;

export default function PageWithApplication({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "not-found") return <NotFound />;
  if (loaderData.state === "gone") return <GonePage />;
  return <PageView segments={loaderData.segments} insights={loaderData.insights} application={<CareerApplication />} />;
}
