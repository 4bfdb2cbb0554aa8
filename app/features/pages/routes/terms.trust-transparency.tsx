import type { Route } from "./+types/terms.trust-transparency";
import { BulletList } from "~/ui/bullet-list";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { dataHandling, securityPractices, subprocessors } from "~/features/pages/content/trust";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Trust & Transparency",
    description: `How ${site.company} protects your data: security practices, data handling and retention, our subprocessors, and how to report a vulnerability.`,
    path: "/terms/trust-transparency",
  });

export default function TrustTransparency() {
  return (
    <>
      <PageHero eyebrow="Terms & Policies" title="Trust & Transparency">
        <p>We protect AI workflows for a living, so we hold our own platform to the same standard. Here is how.</p>
      </PageHero>

      <Section id="security" title="Security practices">
        <ItemGrid items={securityPractices} />
      </Section>

      <Section id="data" title="Data handling">
        <div className="max-w-3xl text-lg">
          <BulletList items={dataHandling} />
        </div>
      </Section>

      <Section id="subprocessors" title="Subprocessors" intro="We give customers 30 days' notice before adding a subprocessor.">
        <ul className="grid gap-4 md:grid-cols-2">
          {subprocessors.map((subprocessor) => (
            <li key={subprocessor.name} className="rounded-2xl border border-slate-200 bg-white p-5">
              <h3 className="font-semibold">{subprocessor.name}</h3>
              <p className="mt-1 text-muted">{subprocessor.purpose}</p>
              <p className="mt-1 text-sm font-medium text-brand-700">Location: {subprocessor.location}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="disclosure" title="Responsible disclosure">
        <div className="max-w-3xl space-y-4 text-lg">
          <p>
            If you believe you have found a vulnerability in {site.company} or {site.product.name}, email{" "}
            <a href={`mailto:${site.email.security}`} className="font-semibold text-brand-700 underline">
              {site.email.security}
            </a>{" "}
            with the steps to reproduce it. We acknowledge reports within one business day and keep you informed until the issue
            is fixed.
          </p>
          <p>
            We will not take legal action against research done in good faith that avoids privacy violations, data destruction and
            service disruption. Please give us 90 days to fix an issue before disclosing it publicly.
          </p>
        </div>
      </Section>
    </>
  );
}
