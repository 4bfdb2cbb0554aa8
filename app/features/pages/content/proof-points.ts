import { serviceFigures } from "~/features/pages/content/service-figures";
import type { Item, Stat } from "~/ui/content-types";

// What a buyer checks before a first call: figures the site already states elsewhere (support
// page) and the frameworks the product and the company are held to. No logos, no testimonials.

export const proofFigures: Stat[] = [
  { value: serviceFigures.uptime, label: `Uptime ${serviceFigures.uptimeWindow}` },
  { value: serviceFigures.averageResponse, label: "Average response time" },
  { value: `Under ${serviceFigures.liveChatResponse}`, label: "Live chat response" },
  { value: `Under ${serviceFigures.emailResponse}`, label: "Email response" },
];

export const complianceFrameworks: Item[] = [
  { icon: "shield-check", title: "SOC 2 Type II", description: "Audited every year" },
  { icon: "badge-check", title: "ISO 27001", description: "Certified ISMS" },
  { icon: "globe-2", title: "GDPR", description: "DPA and EU residency" },
  { icon: "file-check-2", title: "HIPAA", description: "Policy pack included" },
];
