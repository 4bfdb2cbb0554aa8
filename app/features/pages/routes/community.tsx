import type { Route } from "./+types/community";
import { InertButton } from "~/ui/inert-button";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { StatList } from "~/ui/stat-list";
import { site } from "~/config/site";
import { communityChannels, communityStats, upcomingEvents } from "~/features/pages/content/community";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Community",
    description: `Join the ${site.company} community of security and compliance practitioners: forums, open policy templates, local chapters and upcoming events.`,
    path: "/community",
  });

export default function Community() {
  return (
    <>
      <PageHero eyebrow="Community" title={`The ${site.company} community`}>
        <p>Security, compliance and AI practitioners sharing what works for adopting AI safely.</p>
      </PageHero>

      <Section id="stats" title="Community at a glance">
        <StatList stats={communityStats} />
      </Section>

      <Section id="channels" title="Ways to connect">
        <ItemGrid items={communityChannels} />
      </Section>

      <Section id="events" title="Upcoming events">
        <ItemGrid items={upcomingEvents} action={(event) => <InertButton subject={`for ${event.title}`}>Register</InertButton>} />
      </Section>
    </>
  );
}
