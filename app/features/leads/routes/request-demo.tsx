import { Link } from "react-router";
import type { Route } from "./+types/request-demo";
import { BusinessContactFields } from "~/features/leads/components/business-contact-fields";
import { SelectField, TextAreaField, TextField } from "~/features/leads/components/field";
import { LeadForm } from "~/features/leads/components/lead-form";
import { LeadFormPage } from "~/features/leads/components/lead-form-page";
import { useLeadForm } from "~/features/leads/components/use-lead-form";
import { Icon } from "~/ui/icon";
import { site } from "~/config/site";
import { companySizeChoices, demoExpectations, demoProductChoices } from "~/features/leads/lead-forms";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { demoRequestSchema } from "~/features/leads/forms/schemas";
import { submitForm } from "~/features/leads/forms/submit.server";
import { pageMeta } from "~/features/site/seo";

/** The demo form posts here (to the page's own URL, so its utm_* parameters are recorded) → demo_requests. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("request-demo", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Request a Demo",
    description: `Book a live, personalised 30-45 minute demo of ${site.product.name}, ${site.company}'s private AI compliance, security and governance platform.`,
    path: "/request-demo",
  });

export default function RequestDemo() {
  const { form, fields, pending, inlineOutcome } = useLeadForm(demoRequestSchema, {
    id: "request-demo",
    defaultValue: { product_name: site.product.name },
  });
  return (
    <LeadFormPage
      eyebrow={site.product.name}
      title="Request a Demo"
      intro={`See how ${site.product.name} keeps your AI workflows secure, compliant and under your control.`}
      formHeading="Tell us about your team"
      formHeadingId="demo-form"
      asideHeading="What to expect"
      asideHeadingId="demo-expect"
      aside={
        <>
          <ul className="mt-4 space-y-5">
            {demoExpectations.map((item) => (
              <li key={item.title} className="flex gap-3">
                {item.icon ? <Icon name={item.icon} className="mt-0.5 size-5 shrink-0 text-brand-700" /> : null}
                <div>
                  <h3 className="font-semibold">{item.title}</h3>
                  <p className="text-sm text-muted">{item.description}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="mt-6 text-sm">
            Have a different question?{" "}
            <Link to="/contact-sales" className="font-medium text-brand-700 underline">
              Contact our sales team
            </Link>
            .
          </p>
        </>
      }
    >
      <LeadForm
        form={form}
        labelledBy="demo-form"
        inlineOutcome={inlineOutcome}
        pending={pending}
        submitLabel="Schedule Demo"
        pendingLabel="Scheduling..."
      >
        <BusinessContactFields fields={fields} />
        <TextField meta={fields.job_title} label="Job Title" autoComplete="organization-title" />
        <TextField meta={fields.phone} label="Phone Number" type="tel" autoComplete="tel" />
        <SelectField meta={fields.company_size} label="Company Size" options={companySizeChoices} />
        <SelectField meta={fields.product_name} label="Product Interest" options={demoProductChoices} />
        <TextAreaField meta={fields.message} label="What would you like to see in the demo?" rows={5} className="sm:col-span-2" />
      </LeadForm>
    </LeadFormPage>
  );
}
