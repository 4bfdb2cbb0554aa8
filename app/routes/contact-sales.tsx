import type { Route } from "./+types/contact-sales";
import { BusinessContactFields } from "~/components/business-contact-fields";
import { LeadForm } from "~/components/lead-form";
import { LeadFormPage } from "~/components/lead-form-page";
import { SelectField, TextAreaField, TextField } from "~/components/ui/field";
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
