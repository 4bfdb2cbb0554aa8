import type { Route } from "./+types/terms.legal";
import { ItemGrid } from "~/ui/item-grid";
import { LinkList } from "~/ui/link-list";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { complianceBadges, legalDocuments } from "~/features/pages/content/legal";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Legal",
    description: `${site.company} legal centre: privacy policy, terms of use, trust and transparency, and our SOC 2 Type II, GDPR and ISO 27001 compliance.`,
    path: "/terms/legal",
  });

export default function Legal() {
  return (
    <>
      <PageHero eyebrow="Terms & Policies" title="Legal">
        <p>The documents that govern how we work with you, and the standards we are audited against.</p>
      </PageHero>

      <Section id="documents" title="Policies and terms">
        <div className="max-w-3xl">
          <LinkList links={legalDocuments} />
        </div>
      </Section>

      <Section id="compliance" title="Compliance">
        <ItemGrid items={complianceBadges} />
      </Section>

      <Section id="contact" title="Legal enquiries">
        <p className="max-w-3xl text-lg">
          For contracts, data processing agreements or legal notices, write to{" "}
          <a href={`mailto:${site.email.legal}`} className="font-semibold text-brand-700 underline">
            {site.email.legal}
          </a>
          .
        </p>
      </Section>
    </>
  );
}
