import type { Route } from "./+types/resources.documentation";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { docSections, sdkSnippet } from "~/features/pages/content/documentation";
import { pageMeta } from "~/features/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Documentation",
    description: `${site.product.name} documentation: getting started, authentication, policies, integrations, incident response and audit reporting, with SDK examples.`,
    path: "/resources/documentation",
  });

export default function Documentation() {
  return (
    <>
      <PageHero eyebrow="Resources" title={`${site.product.name} documentation`}>
        <p>Guides and references for deploying {site.product.name}, writing policies and connecting your tools.</p>
      </PageHero>

      <Section id="index" title="Documentation index">
        <ItemGrid items={docSections} />
      </Section>

      <Section
        id="sdk"
        title="Quick start with the SDK"
        intro={
          <p>
            Install <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base">{site.sdkPackage}</code> and scan a
            prompt before it reaches a model.
          </p>
        }
      >
        <figure className="max-w-3xl">
          <figcaption className="mb-2 text-sm font-medium text-muted">TypeScript: scanning a prompt</figcaption>
          {/* Focusable so keyboard users can scroll long lines on narrow screens. */}
          <pre tabIndex={0} className="overflow-x-auto rounded-2xl bg-slate-900 p-5 text-sm leading-relaxed text-slate-100">
            <code>{sdkSnippet}</code>
          </pre>
        </figure>
      </Section>
    </>
  );
}
