import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "~/ui/not-found";
import { notFoundMeta } from "~/features/site/seo";
import { GonePage } from "~/features/redirects/components/gone-page";
import { goneMeta } from "~/features/redirects/gone-meta";
import { redirectForMissingPage } from "~/features/redirects/redirects.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // No route matched: an old address an editor redirected (or marked gone) answers that instead.
  const redirected = await redirectForMissingPage(request, context.requestId);
  if (redirected instanceof Response) throw redirected;
  if (redirected) return data({ gone: true }, { status: 410 });
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData?.gone ? goneMeta : notFoundMeta);

export default function NotFoundRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData?.gone) return <GonePage />;
  return <NotFound />;
}
