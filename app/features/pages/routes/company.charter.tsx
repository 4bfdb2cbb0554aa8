import type { Route } from "./+types/company.charter";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { charterMission, charterPrinciples, stakeholderCommitments } from "~/features/pages/content/charter";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Company Charter",
    description: `The ${site.company} charter: our mission statement, the core principles behind ${site.product.name}, and our commitments to customers, employees, partners and society.`,
    path: "/company/charter",
  });

export default function Charter() {
  return (
    <>
      <PageHero eyebrow="Company" title={`The ${site.company} charter`}>
        <p>The commitments we hold ourselves to, written down so that anyone can hold us to them.</p>
      </PageHero>

      <Section id="mission" title="Mission statement">
        <blockquote className="max-w-3xl border-l-4 border-brand-700 pl-6 text-xl font-medium">{charterMission}</blockquote>
      </Section>

      <Section id="principles" title="Core principles">
        <ol className="grid gap-6 md:grid-cols-2">
          {charterPrinciples.map((principle, index) => (
            <li key={principle.title} className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <span aria-hidden="true" className="text-2xl font-extrabold text-brand-700">
                {index + 1}
              </span>
              <div>
                <h3 className="text-lg font-semibold">{principle.title}</h3>
                <p className="mt-2 text-muted">{principle.description}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="commitments" title="Stakeholder commitments">
        <ItemGrid items={stakeholderCommitments} />
      </Section>
    </>
  );
}
