import type { Route } from "./+types/contact-sales";
import { LeadForm } from "~/components/lead-form";
import { SelectField, TextAreaField, TextField } from "~/components/ui/field";
import { PageHero } from "~/components/ui/section";
import { FormToaster } from "~/components/ui/toast";
import { site } from "~/config/site";
import { contactProductChoices, contactReasons } from "~/content/lead-forms";
import { formRouteHeaders } from "~/lib/forms/headers";
import { submitContactSales } from "~/lib/forms/leads.server";
import { contactSalesSchema } from "~/lib/forms/schemas";
import { useLeadForm } from "~/lib/forms/use-lead-form";
import { pageMeta } from "~/lib/seo";

export async function action({ request, context }: Route.ActionArgs) {
  return submitContactSales({ request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contact Sales",
    description: `Talk to the ${site.company} sales team about ${site.product.name}: pricing, deployment on your infrastructure, security and compliance requirements.`,
    path: "/contact-sales",
  });

export default function ContactSales() {
  const { form, fields, pending, inlineOutcome } = useLeadForm(contactSalesSchema, { id: "contact-sales", defaultValue: { product_name: "General" } });
  return (
    <>
      <PageHero eyebrow="Contact Sales" title="Let's Talk Business">
        <p>Tell us about your organisation and what you need. Our team answers every message, usually within one business day.</p>
      </PageHero>
      <FormToaster />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-3">
        <section aria-labelledby="get-in-touch" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2">
          <h2 id="get-in-touch" className="mb-6 text-2xl font-bold tracking-tight">
            Get in Touch
          </h2>
          <LeadForm
            form={form}
            labelledBy="get-in-touch"
            inlineOutcome={inlineOutcome}
            pending={pending}
            submitLabel="Send Message"
            pendingLabel="Sending..."
          >
            <TextField meta={fields.first_name} label="First Name" autoComplete="given-name" />
            <TextField meta={fields.last_name} label="Last Name" autoComplete="family-name" />
            <TextField meta={fields.email} label="Business Email" type="email" autoComplete="email" />
            <TextField meta={fields.company} label="Company" autoComplete="organization" />
            <TextField meta={fields.phone} label="Phone Number" type="tel" autoComplete="tel" />
            <SelectField meta={fields.product_name} label="Product Interest" options={contactProductChoices} />
            <TextAreaField meta={fields.message} label="Message" rows={5} className="sm:col-span-2" />
          </LeadForm>
        </section>
        <aside aria-labelledby="contact-reasons" className="rounded-2xl bg-brand-50 p-6 sm:p-8">
          <h2 id="contact-reasons" className="text-xl font-semibold">
            What we can help with
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-5">
            {contactReasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <p className="mt-6 text-sm text-muted">
            Prefer email? Write to{" "}
            <a className="font-medium text-brand-700 underline" href={`mailto:${site.email.sales}`}>
              {site.email.sales}
            </a>
            .
          </p>
        </aside>
      </div>
    </>
  );
}
