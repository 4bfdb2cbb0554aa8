import type { Route } from "./+types/company.brand";
import { BulletList } from "~/ui/bullet-list";
import { InertButton } from "~/ui/inert-button";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { brandAssets, brandGuidelines, logoDonts, logoDos } from "~/features/pages/content/brand";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Brand",
    description: `${site.company} brand guidelines: logo usage, colour, typography and voice, with downloadable brand assets for press and partners.`,
    path: "/company/brand",
  });

export default function Brand() {
  return (
    <>
      <PageHero eyebrow="Company" title={`${site.company} brand`}>
        <p>
          Guidelines and assets for partners, press and anyone writing about {site.company}. Questions? Write to{" "}
          <a href={`mailto:${site.email.press}`} className="font-semibold text-brand-700 underline">
            {site.email.press}
          </a>
          .
        </p>
      </PageHero>

      <Section id="guidelines" title="Brand guidelines">
        <ItemGrid items={brandGuidelines} />
      </Section>

      <Section id="logo-usage" title="Logo usage">
        <div className="grid gap-8 md:grid-cols-2">
          <div>
            <h3 className="mb-4 text-lg font-semibold">Do</h3>
            <BulletList items={logoDos} />
          </div>
          <div>
            <h3 className="mb-4 text-lg font-semibold">Don't</h3>
            <BulletList items={logoDonts} icon="x" iconClassName="text-red-700" />
          </div>
        </div>
      </Section>

      <Section id="assets" title="Brand assets">
        <ItemGrid items={brandAssets} columns={4} action={(asset) => <InertButton subject={asset.title}>Download</InertButton>} />
      </Section>
    </>
  );
}
