import type { Item, Stat } from "~/ui/content-types";
import { site } from "~/config/site";

/** These four figures are fixed copy, not live numbers. */
export const aboutStats: Stat[] = [
  { value: String(site.foundedYear), label: "Founded" },
  { value: "50+", label: "Team members" },
  { value: "1000+", label: "Customers" },
  { value: "99.9%", label: "Uptime" },
];

export const aboutStory: string[] = [
  `${site.company} was founded in ${site.foundedYear} by security engineers and compliance leads who had spent years watching sensitive data leak into chat tools, email and, suddenly, generative AI. Every team wanted the productivity of AI assistants; no security team could say with confidence what those assistants were being told.`,
  `We built ${site.product.name} to close that gap: a platform that sits between your people and the models they use, inspects every prompt and message in real time, and responds automatically when something goes wrong — while the data, the keys and the audit trail stay on infrastructure you control.`,
  `Today more than 1000 organisations in finance, healthcare, legal services and the public sector rely on ${site.product.name} to adopt AI without giving up control, supported by a team of more than 50 people across Europe and North America.`,
];

export const aboutMission =
  "Give every organisation the confidence to use AI by making it private, secure and provably compliant by default.";

export const aboutVision =
  "A world where adopting AI never means handing over control of your data, and where proving compliance takes minutes, not months.";

export const aboutValues: Item[] = [
  { icon: "shield-check", title: "Security first", description: "We ship nothing we would not run on our own most sensitive data." },
  { icon: "eye", title: "Radical transparency", description: "Customers can see exactly what Sentinel inspected, decided and why — every verdict is explainable." },
  { icon: "scale", title: "Compliance by design", description: "Regulation is a design input, not an afterthought: GDPR, SOC 2 and ISO 27001 shape our roadmap." },
  { icon: "handshake", title: "Customer ownership", description: "Your data, your keys, your infrastructure. We never train models on customer content." },
  { icon: "lightbulb", title: "Pragmatic innovation", description: "We adopt new techniques when they measurably reduce risk, not because they are fashionable." },
  { icon: "users", title: "One team", description: "Engineers, researchers and customer teams share goals, on-call duty and the credit." },
];
