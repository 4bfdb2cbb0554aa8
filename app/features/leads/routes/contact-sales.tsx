import type { Route } from "./+types/contact-sales";
import { BusinessContactFields } from "~/features/leads/components/business-contact-fields";
import { SelectField, TextAreaField, TextField } from "~/features/leads/components/field";
import { LeadForm } from "~/features/leads/components/lead-form";
import { LeadFormPage } from "~/features/leads/components/lead-form-page";
import { useLeadForm } from "~/features/leads/components/use-lead-form";
import { site } from "~/config/site";
import { contactProductChoices, contactReasons } from "~/features/leads/lead-forms";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { contactSalesSchema } from "~/features/leads/forms/schemas";
import { submitForm } from "~/features/leads/forms/submit.server";
import { pageMeta } from "~/features/site/seo";

/** "Get in Touch" posts here (to the page's own URL, so its utm_* parameters are recorded) → sales_leads. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("contact-sales", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contact Sales",
    description: `Talk to the ${site.company} sales team about ${site.product.name}: pricing, deployment on your infrastructure, security and compliance requirements.`,
    path: "/contact-sales",
  });

export default function ContactSales() {
  const { form, fields, pending, inlineOutcome } = useLeadForm(contactSalesSchema, {
    id: "contact-sales",
    defaultValue: { product_name: "General" },
  });
  return (
    <LeadFormPage
      eyebrow="Contact Sales"
      title="Let's Talk Business"
      intro="Tell us about your organisation and what you need. Our team answers every message, usually within one business day."
      formHeading="Get in Touch"
      formHeadingId="get-in-touch"
      asideHeading="What we can help with"
      asideHeadingId="contact-reasons"
      aside={
        <>
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
        </>
      }
    >
      <LeadForm
        form={form}
        labelledBy="get-in-touch"
        inlineOutcome={inlineOutcome}
        pending={pending}
        submitLabel="Send Message"
        pendingLabel="Sending..."
      >
        <BusinessContactFields fields={fields} />
        <TextField meta={fields.phone} label="Phone Number" type="tel" autoComplete="tel" />
        <SelectField meta={fields.product_name} label="Product Interest" options={contactProductChoices} />
        <TextAreaField meta={fields.message} label="Message" rows={5} className="sm:col-span-2" />
      </LeadForm>
    </LeadFormPage>
  );
}
