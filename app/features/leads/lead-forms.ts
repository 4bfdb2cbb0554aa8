import type { Choice, Item } from "~/ui/content-types";
import { site } from "~/config/site";
import { COMPANY_SIZES, WORK_STYLES } from "~/features/leads/forms/form-schemas";
import type { Translate } from "~/features/leads/forms/form-texts";

// Option lists and side panels of the lead forms, in the page's language (`t`: ./forms/form-texts).

export function contactProductChoices(t: Translate): Choice[] {
  return [
    { value: "General", label: t("form.common.generalInquiry") },
    { value: site.product.name, label: site.product.name },
  ];
}

export function demoProductChoices(t: Translate): Choice[] {
  return [
    { value: site.product.name, label: site.product.name },
    { value: "General", label: t("form.common.generalInquiry") },
  ];
}

export function companySizeChoices(t: Translate): Choice[] {
  return [
    { value: "", label: t("form.requestDemo.companySizeNone") },
    ...COMPANY_SIZES.map((size) => ({ value: size, label: t("form.requestDemo.companySizeOption", { size }) })),
  ];
}

export function workStyleChoices(t: Translate): Choice[] {
  return [
    { value: "", label: t("form.careerApplication.workStyleNone") },
    ...WORK_STYLES.map((style) => ({ value: style, label: t(`form.careerApplication.workStyleOption.${style}`) })),
  ];
}

/** The demo page's side panel: what the visitor can expect. */
export function demoExpectations(t: Translate): Item[] {
  const icons = ["clock", "user-round", "calendar-clock", "globe"] as const;
  return icons.map((icon, index) => ({
    title: t(`form.requestDemo.expect${index + 1}.title`),
    description: t(`form.requestDemo.expect${index + 1}.description`),
    icon,
  }));
}

export function contactReasons(t: Translate): string[] {
  return [1, 2, 3, 4].map((number) => t(`form.contactSales.reason${number}`));
}
