import type { Route } from "./+types/resources.api";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { apiBasics, apiEndpoints, type Endpoint } from "~/features/pages/content/api";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "API Reference",
    description: `The ${site.product.name} REST API: scan content, manage policies and respond to incidents programmatically. Endpoints, authentication and rate limits.`,
    path: "/resources/api",
  });

const methodColours: Record<Endpoint["method"], string> = {
  GET: "bg-emerald-100 text-emerald-900",
  POST: "bg-brand-100 text-brand-900",
  PUT: "bg-amber-100 text-amber-900",
  DELETE: "bg-red-100 text-red-900",
};

export default function ApiReference() {
  return (
    <>
      <PageHero eyebrow="Resources" title="API reference">
        <p>
          A JSON REST API over HTTPS. Every path below is relative to{" "}
          <code className="rounded bg-white px-1.5 py-0.5 font-mono text-base break-all">{site.apiBaseUrl}</code>.
        </p>
      </PageHero>

      <Section id="basics" title="Basics">
        <dl className="grid gap-6 md:grid-cols-3">
          {apiBasics.map((basic) => (
            <div key={basic.title} className="rounded-2xl border border-slate-200 bg-white p-6">
              <dt className="text-lg font-semibold">{basic.title}</dt>
              <dd className="mt-2 text-muted">{basic.description}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section id="endpoints" title="Endpoints">
        <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {apiEndpoints.map((endpoint) => (
            <li
              key={`${endpoint.method} ${endpoint.path}`}
              className="flex flex-col gap-2 p-5 md:flex-row md:items-baseline md:gap-6"
            >
              <p className="flex min-w-0 items-baseline gap-3 md:w-96 md:shrink-0">
                <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${methodColours[endpoint.method]}`}>
                  {endpoint.method}
                </span>
                <code className="font-mono text-sm font-semibold break-all">{endpoint.path}</code>
              </p>
              <p className="text-muted">{endpoint.description}</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
