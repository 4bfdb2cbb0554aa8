import type { Choice, Item } from "~/ui/content-types";
import { site } from "~/config/site";
import { COMPANY_SIZES, WORK_STYLES } from "~/features/leads/forms/schemas";

// Copy and option lists of the lead forms: field labels, product and option choices, button texts.

export const contactProductChoices: Choice[] = [
  { value: "General", label: "General Inquiry" },
  { value: site.product.name, label: site.product.name },
];

export const demoProductChoices: Choice[] = [
  { value: site.product.name, label: site.product.name },
  { value: "General", label: "General Inquiry" },
];

export const companySizeChoices: Choice[] = [
  { value: "", label: "Select company size" },
  ...COMPANY_SIZES.map((size) => ({ value: size, label: `${size} employees` })),
];

export const workStyleChoices: Choice[] = [
  { value: "", label: "Select your work style" },
  ...WORK_STYLES.map((style) => ({ value: style, label: style[0]!.toUpperCase() + style.slice(1) })),
];

/** The demo page's side panel: what the visitor can expect. */
export const demoExpectations: Item[] = [
  {
    title: "30-45 minutes",
    description: "Enough time to see the platform working on the questions that matter to you.",
    icon: "clock",
  },
  {
    title: "Personalised to you",
    description: `We tailor the walkthrough of ${site.product.name} to your industry, your AI workflows and your compliance needs.`,
    icon: "user-round",
  },
  {
    title: "Live with a product specialist",
    description: "A real session with real answers, not a recording.",
    icon: "calendar-clock",
  },
  { title: "Scheduled across time zones", description: "We find a slot that suits your team, wherever it works.", icon: "globe" },
];

export const contactReasons: string[] = [
  "Pricing and licensing for your organisation",
  `How ${site.product.name} fits your security and compliance requirements`,
  "Deployment on your own infrastructure",
  "Partnerships and procurement questions",
];
