import { Icon } from "~/ui/icon";
import { trustPagePath } from "~/config/site";
import { complianceFrameworks, proofFigures } from "~/features/pages/content/proof-points";
import type { Item, Stat } from "~/ui/content-types";

/** The band's words and its link, in the page's language (English by default). */
export type ProofPointsCopy = {
  title: string;
  service: string;
  frameworksTitle: string;
  trustLink: string;
  trustLinkEnd: string;
  trustPath: string;
  figures: Stat[];
  frameworks: Item[];
};

export const englishProofPoints: ProofPointsCopy = {
  title: "Figures and frameworks you can check",
  service: "Service, as published",
  frameworksTitle: "Frameworks",
  trustLink: "Security practices, audits and",
  trustLinkEnd: "subprocessors",
  trustPath: trustPagePath,
  figures: proofFigures,
  frameworks: complianceFrameworks,
};

/**
 * The proof points band: the service figures the site states and the frameworks, then the way to
 * check them (the trust page). Drawn on the server (a plain link: the band ships no JavaScript).
 */
export function ProofPoints({ copy = englishProofPoints }: { copy?: ProofPointsCopy }) {
  return (
    <section aria-labelledby="proof-points-heading" className="border-y border-slate-200 bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-16">
        <h2 id="proof-points-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {copy.title}
        </h2>
        <ProofPointsBody copy={copy} />
        <a
          href={copy.trustPath}
          className="mt-6 inline-block font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {copy.trustLink}{" "}
          <span className="whitespace-nowrap">
            {copy.trustLinkEnd}
            <Icon name="arrow-right" className="ml-2 inline size-4 align-[-0.125em]" />
          </span>
        </a>
      </div>
    </section>
  );
}

function ProofPointsBody({ copy }: { copy: ProofPointsCopy }) {
  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-10">
      <div className="flex flex-col">
        <h3 className="text-sm font-semibold tracking-wider text-muted uppercase">{copy.service}</h3>
        <ul className="mt-3 grid gap-px overflow-hidden rounded-2xl bg-slate-200 ring-1 ring-slate-200 sm:grid-cols-2">
          {copy.figures.map((figure) => (
            <li key={figure.label} className="bg-white px-5 py-4 sm:py-5">
              <p className="text-2xl font-extrabold tracking-tight text-brand-700 sm:text-3xl">{figure.value}</p>
              <p className="mt-1 text-sm text-muted">{figure.label}</p>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-col">
        <h3 className="text-sm font-semibold tracking-wider text-muted uppercase">{copy.frameworksTitle}</h3>
        <ul className="mt-3 grid flex-1 auto-rows-fr gap-3 sm:grid-cols-2">
          {copy.frameworks.map((framework) => (
            <li key={framework.title} className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3">
              {framework.icon ? <Icon name={framework.icon} className="size-6 shrink-0 text-brand-700" /> : null}
              <p>
                <span className="font-semibold">{framework.title}</span>
                <span className="block text-sm text-muted">{framework.description}</span>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
