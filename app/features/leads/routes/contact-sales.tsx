import { useMemo } from "react";
import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/contact-sales";
import { BusinessContactFields } from "~/features/leads/components/business-contact-fields";
import { SelectField, TextAreaField, TextField } from "~/features/leads/components/field";
import { LeadForm } from "~/features/leads/components/lead-form";
import { LeadFormPage } from "~/features/leads/components/lead-form-page";
import { useLeadForm, useLeadFormSchema } from "~/features/leads/components/use-lead-form";
import { site } from "~/config/site";
import { contactProductChoices, contactReasons } from "~/features/leads/lead-forms";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { translatorOf } from "~/features/leads/forms/form-texts";
import { FormTextsProvider, useFormText } from "~/features/leads/components/form-texts-context";
import { leadFormPageData } from "~/features/leads/forms/form-texts.server";
import { submitForm } from "~/features/leads/forms/submit.server";
import { pageMeta } from "~/features/site/seo";

// The contact page, at /contact-sales and at its address in every other language (/de/vertrieb-kontaktieren):
// its language is its address's, and its words come from the message catalogs.

export function loader({ request }: Route.LoaderArgs) {
  return leadFormPageData(request, "contact-sales");
}

/** "Get in Touch" posts here (to the page's own URL, so its utm_* parameters are recorded) → sales_leads. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("contact-sales", { request, context });
}

export const headers = formRouteHeaders;

// A post changes nothing the loader says: only the root's data is read again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => (loaderData ? pageMeta(matches, loaderData.meta) : []);

export default function ContactSales({ loaderData }: Route.ComponentProps) {
  const t = useMemo(() => translatorOf(loaderData.texts), [loaderData.texts]);
  return (
    <FormTextsProvider value={t}>
      <ContactSalesPage />
    </FormTextsProvider>
  );
}

function ContactSalesPage() {
  const t = useFormText();
  const { form, fields, pending, inlineOutcome } = useLeadForm(useLeadFormSchema("contact-sales"), {
    id: "contact-sales",
    defaultValue: { product_name: "General" },
  });
  return (
    <LeadFormPage
      eyebrow={t("form.contactSales.eyebrow")}
      title={t("form.contactSales.title")}
      intro={t("form.contactSales.intro")}
      formHeading={t("form.contactSales.formHeading")}
      formHeadingId="get-in-touch"
      asideHeading={t("form.contactSales.asideHeading")}
      asideHeadingId="contact-reasons"
      aside={
        <>
          <ul className="mt-4 list-disc space-y-2 pl-5">
            {contactReasons(t).map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <p className="mt-6 text-sm text-muted">
            {t("form.contactSales.emailPrompt")}{" "}
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
        submitLabel={t("form.contactSales.submit")}
        pendingLabel={t("form.contactSales.pending")}
      >
        <BusinessContactFields fields={fields} />
        <TextField meta={fields.phone} label={t("form.common.phoneNumber")} type="tel" autoComplete="tel" />
        <SelectField meta={fields.product_name} label={t("form.common.productInterest")} options={contactProductChoices(t)} />
        <TextAreaField meta={fields.message} label={t("form.contactSales.message")} rows={5} className="sm:col-span-2" />
      </LeadForm>
    </LeadFormPage>
  );
}
