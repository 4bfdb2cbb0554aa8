import { useMemo } from "react";
import { Link, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/request-demo";
import { BusinessContactFields } from "~/features/leads/components/business-contact-fields";
import { SelectField, TextAreaField, TextField } from "~/features/leads/components/field";
import { LeadForm } from "~/features/leads/components/lead-form";
import { LeadFormPage } from "~/features/leads/components/lead-form-page";
import { useLeadForm, useLeadFormSchema } from "~/features/leads/components/use-lead-form";
import { Icon } from "~/ui/icon";
import { site } from "~/config/site";
import { companySizeChoices, demoExpectations, demoProductChoices } from "~/features/leads/lead-forms";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { translatorOf } from "~/features/leads/forms/form-texts";
import { FormTextsProvider, useFormText } from "~/features/leads/components/form-texts-context";
import { leadFormPageData } from "~/features/leads/forms/form-texts.server";
import { submitForm } from "~/features/leads/forms/submit.server";
import { pageMeta } from "~/features/site/seo";

// The demo page, at /request-demo and at its address in every other language (/de/demo-anfordern):
// its language is its address's, and its words come from the message catalogs.

export function loader({ request }: Route.LoaderArgs) {
  return leadFormPageData(request, "request-demo");
}

/** The demo form posts here (to the page's own URL, so its utm_* parameters are recorded) → demo_requests. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("request-demo", { request, context });
}

export const headers = formRouteHeaders;

// A post changes nothing the loader says: only the root's data is read again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => (loaderData ? pageMeta(matches, loaderData.meta) : []);

export default function RequestDemo({ loaderData }: Route.ComponentProps) {
  const t = useMemo(() => translatorOf(loaderData.texts), [loaderData.texts]);
  return (
    <FormTextsProvider value={t}>
      <RequestDemoPage contactSalesPath={loaderData.contactSalesPath} />
    </FormTextsProvider>
  );
}

function RequestDemoPage({ contactSalesPath }: { contactSalesPath: string }) {
  const t = useFormText();
  const { form, fields, pending, inlineOutcome } = useLeadForm(useLeadFormSchema("request-demo"), {
    id: "request-demo",
    defaultValue: { product_name: site.product.name },
  });
  return (
    <LeadFormPage
      eyebrow={site.product.name}
      title={t("form.requestDemo.title")}
      intro={t("form.requestDemo.intro")}
      formHeading={t("form.requestDemo.formHeading")}
      formHeadingId="demo-form"
      asideHeading={t("form.requestDemo.asideHeading")}
      asideHeadingId="demo-expect"
      aside={
        <>
          <ul className="mt-4 space-y-5">
            {demoExpectations(t).map((item) => (
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
            {t("form.requestDemo.otherQuestion")}{" "}
            <Link to={contactSalesPath} className="font-medium text-brand-700 underline">
              {t("form.requestDemo.contactLink")}
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
        submitLabel={t("form.requestDemo.submit")}
        pendingLabel={t("form.requestDemo.pending")}
      >
        <BusinessContactFields fields={fields} />
        <TextField meta={fields.job_title} label={t("form.requestDemo.jobTitle")} autoComplete="organization-title" />
        <TextField meta={fields.phone} label={t("form.common.phoneNumber")} type="tel" autoComplete="tel" />
        <SelectField meta={fields.company_size} label={t("form.requestDemo.companySize")} options={companySizeChoices(t)} />
        <SelectField meta={fields.product_name} label={t("form.common.productInterest")} options={demoProductChoices(t)} />
        <TextAreaField meta={fields.message} label={t("form.requestDemo.message")} rows={5} className="sm:col-span-2" />
      </LeadForm>
    </LeadFormPage>
  );
}
