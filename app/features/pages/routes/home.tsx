import type { Route } from "./+types/home";
import { DocumentVisual } from "~/features/pages/components/document-visual";
import { LatestInsights } from "~/features/blog/components/latest-insights";
import { ButtonLink } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { visuals } from "~/features/pages/components/visuals.server";
import { site } from "~/config/site";
import { homeFeatures, productFeatures } from "~/features/pages/content/home";
import { loadLatestInsights } from "~/features/blog/posts.server";
import { inlineIfQuick } from "~/platform/streaming.server";
import { pageMeta } from "~/features/site/seo";

export async function loader({ context }: Route.LoaderArgs) {
  // Slow posts stream: the rest of the page never waits for the Latest Insights block.
  const { data: insights } = await inlineIfQuick(loadLatestInsights(context.requestId));
  return { insights, visuals: visuals(context, "sentinel-console", "proof-points") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: site.headline, description: site.description, path: "/", feeds: {} });

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        eyebrow={`${site.company} ${site.product.name}`}
        title={site.headline}
        aside={<DocumentVisual name="sentinel-console" html={loaderData.visuals["sentinel-console"]} />}
      >
        <p>{site.tagline}</p>
        <div className="mt-8 flex flex-wrap gap-4">
          <ButtonLink to={site.product.path}>Explore</ButtonLink>
          <ButtonLink to="/contact-sales" variant="secondary">
            Contact Sales
          </ButtonLink>
        </div>
      </PageHero>

      <DocumentVisual name="proof-points" html={loaderData.visuals["proof-points"]} />

      <Section id="features" title="Built for regulated, AI-first teams">
        <ItemGrid items={homeFeatures} />
      </Section>

      <section aria-labelledby="products-heading" className="bg-brand-900 text-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-16">
          <p className="text-sm font-semibold tracking-wider text-brand-100 uppercase">Our product</p>
          <h2 id="products-heading" className="mt-2 text-3xl font-bold tracking-tight">
            {site.product.name}
          </h2>
          <p className="mt-3 max-w-2xl text-lg text-brand-100">{site.product.summary}</p>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2">
            {productFeatures.map((feature) => (
              <li key={feature.title} className="flex gap-4 rounded-2xl bg-white/5 p-5">
                {feature.icon ? <Icon name={feature.icon} className="size-6 shrink-0 text-brand-100" /> : null}
                <div>
                  <h3 className="font-semibold">{feature.title}</h3>
                  <p className="mt-1 text-brand-100">{feature.description}</p>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-10 flex flex-wrap gap-4">
            <ButtonLink to={site.product.path} variant="inverse">
              Learn More<span className="sr-only"> about {site.product.name}</span>
            </ButtonLink>
            <ButtonLink to="/request-demo" className="border border-white/40 bg-transparent hover:bg-white/10">
              Request Demo
            </ButtonLink>
          </div>
        </div>
      </section>

      <LatestInsights insights={loaderData.insights} />
    </>
  );
}
