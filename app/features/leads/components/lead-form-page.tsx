import type { ReactNode } from "react";
import { FormToaster } from "~/features/leads/components/toast";
import { PageHero } from "~/ui/section";

/** The frame of the contact and demo pages: hero, the form panel, and a side panel. */
export function LeadFormPage({
  eyebrow,
  title,
  intro,
  formHeading,
  formHeadingId,
  asideHeading,
  asideHeadingId,
  aside,
  children,
}: {
  eyebrow: string;
  title: string;
  intro: ReactNode;
  formHeading: string;
  formHeadingId: string;
  asideHeading: string;
  asideHeadingId: string;
  aside: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHero eyebrow={eyebrow} title={title}>
        <p>{intro}</p>
      </PageHero>
      <FormToaster />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-3">
        <section
          aria-labelledby={formHeadingId}
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2"
        >
          <h2 id={formHeadingId} className="mb-6 text-2xl font-bold tracking-tight">
            {formHeading}
          </h2>
          {children}
        </section>
        <aside aria-labelledby={asideHeadingId} className="rounded-2xl bg-brand-50 p-6 sm:p-8">
          <h2 id={asideHeadingId} className="text-xl font-semibold">
            {asideHeading}
          </h2>
          {aside}
        </aside>
      </div>
    </>
  );
}
