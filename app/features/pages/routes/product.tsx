import type { Route } from "./+types/product";
import { DocumentVisual } from "~/features/pages/components/document-visual";
import { ButtonLink } from "~/ui/button";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { visuals } from "~/features/pages/components/visuals.server";
import { site } from "~/config/site";
import { sentinelFeatures } from "~/features/pages/content/product";
import { pageMeta } from "~/features/site/seo";

export function loader({ context }: Route.LoaderArgs) {
  return { visuals: visuals(context, "sentinel-console", "how-it-works", "proof-points") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: `${site.product.name}: Private AI Security and Governance`,
    description: `${site.company} ${site.product.name}: ${site.product.summary} Deploy privately and prove compliance with audit-ready reports.`,
    path: site.product.path,
  });

export default function Product({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        eyebrow={`${site.company} ${site.product.name}`}
        title={`${site.product.name} keeps your AI private, secure and compliant`}
        aside={<DocumentVisual name="sentinel-console" html={loaderData.visuals["sentinel-console"]} />}
      >
        <p>{site.product.summary}</p>
        <p className="mt-3">{site.tagline}</p>
        <div className="mt-8 flex flex-wrap gap-4">
          <ButtonLink to="/request-demo">Request Demo</ButtonLink>
          <ButtonLink to="/contact-sales" variant="secondary">
            Contact Sales
          </ButtonLink>
        </div>
      </PageHero>

      <Section id="features" title={`What ${site.product.name} does`}>
        <ItemGrid items={sentinelFeatures} />
      </Section>

      <Section id="how-it-works" title="How it works">
        <DocumentVisual name="how-it-works" html={loaderData.visuals["how-it-works"]} />
      </Section>

      <DocumentVisual name="proof-points" html={loaderData.visuals["proof-points"]} />

      <Section
        id="demo"
        title={`See ${site.product.name} on your own data`}
        intro="A 30-45 minute live session with a solutions engineer, tailored to your channels and policies."
      >
        <ButtonLink to="/request-demo">Request Demo</ButtonLink>
      </Section>
    </>
  );
}
