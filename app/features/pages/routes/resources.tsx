import type { Route } from "./+types/resources";
import { InertButton } from "~/ui/inert-button";
import { ItemGrid } from "~/ui/item-grid";
import { LinkList } from "~/ui/link-list";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { resourceDownloads, resourceGroups } from "~/features/pages/content/resources";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Resources",
    description: `Documentation, API reference, blog, support and downloadable guides for ${site.company} ${site.product.name}, all in one place.`,
    path: "/resources",
  });

export default function Resources() {
  return (
    <>
      <PageHero eyebrow="Resources" title="Resources hub">
        <p>Everything you need to evaluate, deploy and get the most out of {site.product.name}.</p>
      </PageHero>

      <Section id="explore" title="Explore">
        <div className="grid gap-8 md:grid-cols-2">
          {resourceGroups.map((group) => (
            <div key={group.title}>
              <h3 className="mb-4 text-lg font-semibold">{group.title}</h3>
              <LinkList links={group.links} />
            </div>
          ))}
        </div>
      </Section>

      <Section
        id="downloads"
        title="Downloads"
        intro="Guides and datasheets to share with your security, legal and procurement teams."
      >
        <ItemGrid items={resourceDownloads} action={(item) => <InertButton subject={item.title}>Download</InertButton>} />
      </Section>
    </>
  );
}
