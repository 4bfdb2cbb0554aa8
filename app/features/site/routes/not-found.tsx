import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "~/ui/not-found";
import { notFoundMeta } from "~/features/site/seo";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => notFoundMeta;

export default function NotFoundRoute() {
  return <NotFound />;
}
