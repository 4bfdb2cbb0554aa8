import type { Route } from "./+types/resources.support";
import { InertButton } from "~/ui/inert-button";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { popularArticles, supportChannels, systemStatus } from "~/features/pages/content/support";
import { pageMeta } from "~/features/site/seo";
import { Icon } from "~/ui/icon";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Support Centre",
    description: `Get help with ${site.product.name}: live chat in under 2 minutes, email in under 4 hours, popular help articles and current system status.`,
    path: "/resources/support",
  });

export default function Support() {
  return (
    <>
      <PageHero eyebrow="Resources" title="How can we help?">
        {/* Deliberately not a form: the search does nothing, with or without JavaScript. */}
        <div className="mt-2 max-w-2xl">
          <label htmlFor="support-search" className="block text-base font-semibold text-ink">
            Search the help centre
          </label>
          <div className="mt-2 flex gap-3">
            <input
              id="support-search"
              type="search"
              name="q"
              placeholder="e.g. single sign-on"
              className="min-w-0 flex-1 rounded-lg border border-slate-400 bg-white px-4 py-2.5 text-base text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            />
            <InertButton variant="primary">
              <Icon name="search" className="size-4" />
              Search
            </InertButton>
          </div>
        </div>
      </PageHero>

      <Section id="channels" title="Contact support">
        <ItemGrid items={supportChannels} columns={4} />
      </Section>

      <Section id="articles" title="Popular articles">
        <ul className="grid gap-3 md:grid-cols-2">
          {popularArticles.map((title) => (
            <li key={title} className="rounded-xl border border-slate-200 bg-white p-4 font-medium">
              {title}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="status" title="System status">
        <div className="rounded-2xl border border-emerald-200 bg-emerald-50 p-6">
          <p className="flex items-center gap-2 text-lg font-semibold text-emerald-900">
            <Icon name="circle-check" className="size-6" />
            {systemStatus.summary}
          </p>
          <ul className="mt-4 grid gap-2 sm:grid-cols-2">
            {systemStatus.figures.map((figure) => (
              <li key={figure} className="font-medium text-emerald-900">
                {figure}
              </li>
            ))}
          </ul>
          <h3 className="mt-6 text-base font-semibold text-emerald-900">Components</h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-2">
            {systemStatus.components.map((component) => (
              <li key={component} className="flex justify-between gap-4 rounded-lg bg-white px-4 py-2">
                <span>{component}</span>
                <span className="font-medium text-emerald-800">Operational</span>
              </li>
            ))}
          </ul>
        </div>
      </Section>
    </>
  );
}
