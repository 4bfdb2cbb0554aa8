import type { Route } from "./+types/company.about";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { StatList } from "~/ui/stat-list";
import { site } from "~/config/site";
import { aboutMission, aboutStats, aboutStory, aboutValues, aboutVision } from "~/features/pages/content/about";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "About Us",
    description: `Why ${site.company} was founded in ${site.foundedYear}, the team behind ${site.product.name}, and the mission, vision and values that guide us.`,
    path: "/company/about",
  });

export default function About() {
  return (
    <>
      <PageHero eyebrow="Company" title={`About ${site.company}`}>
        <p>We help businesses adopt AI without losing control of their data, their security or their compliance.</p>
      </PageHero>

      <Section id="story" title="Our story">
        <div className="max-w-3xl space-y-4 text-lg">
          {aboutStory.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </Section>

      <Section id="stats" title={`${site.company} in numbers`}>
        <StatList stats={aboutStats} />
      </Section>

      <Section id="mission-vision" title="Mission and vision">
        <div className="grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl bg-brand-50 p-6">
            <h3 className="text-lg font-semibold">Our mission</h3>
            <p className="mt-2 text-lg">{aboutMission}</p>
          </div>
          <div className="rounded-2xl bg-brand-50 p-6">
            <h3 className="text-lg font-semibold">Our vision</h3>
            <p className="mt-2 text-lg">{aboutVision}</p>
          </div>
        </div>
      </Section>

      <Section id="values" title="Our values">
        <ItemGrid items={aboutValues} />
      </Section>
    </>
  );
}
