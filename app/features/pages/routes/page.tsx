import type { Route } from "./+types/page";
import { NotFound } from "~/ui/not-found";
import { pageRouteMeta, pageShouldRevalidate } from "~/features/pages/page-meta";
import { loadPage } from "~/features/pages/page-loader.server";
import { PageView } from "~/features/pages/page-view";

// The pages made of blocks (content/pages/*.yaml): one module for every such path, each mounted
// with its own id in app/routes.ts. The careers page adds its application form:
// ~/features/pages/routes/page-with-application.

export async function loader(args: Route.LoaderArgs) {
  return loadPage(args);
}

export const meta: Route.MetaFunction = ({ matches, data }) => pageRouteMeta(matches, data);

export const shouldRevalidate = pageShouldRevalidate;

export default function Page({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "not-found") return <NotFound />;
  return <PageView segments={loaderData.segments} insights={loaderData.insights} />;
}
