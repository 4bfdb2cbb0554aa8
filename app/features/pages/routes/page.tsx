import type { Route } from "./+types/page";
import { NotFound } from "~/ui/not-found";
import { GonePage } from "~/features/redirects/components/gone-page";
import { pageRouteMeta, pageShouldRevalidate } from "~/features/pages/page-meta";
import { loadPage } from "~/features/pages/page-loader.server";
import { PageView } from "~/features/pages/page-view";

// The pages made of blocks, at any path no other route answers (app/routes.ts mounts this module
// last): the published page there, else a redirect or 410 an editor set up, else 404. The careers
// page adds its application form: ~/features/pages/routes/page-with-application.

export async function loader(args: Route.LoaderArgs) {
  return loadPage(args);
}

export const meta: Route.MetaFunction = ({ matches, data }) => pageRouteMeta(matches, data);

export const shouldRevalidate = pageShouldRevalidate;

export default function Page({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "not-found") return <NotFound />;
  if (loaderData.state === "gone") return <GonePage />;
  return <PageView segments={loaderData.segments} insights={loaderData.insights} />;
}
