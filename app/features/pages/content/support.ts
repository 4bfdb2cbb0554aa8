import type { Item } from "~/ui/content-types";
import { site } from "~/config/site";
import { serviceFigures } from "~/features/pages/content/service-figures";

/** Four support channels with their promised response times. */
export const supportChannels: Item[] = [
  { icon: "message-circle", title: "Live chat", meta: `Response in under ${serviceFigures.liveChatResponse}`, description: "Chat with a support engineer from the Sentinel console, 24 hours a day on business days." },
  { icon: "mail", title: "Email", meta: `Response in under ${serviceFigures.emailResponse}`, description: `Write to ${site.email.support} with logs or screenshots; every message gets a ticket number.` },
  { icon: "phone", title: "Phone", meta: "Enterprise plans, 24/7", description: "A direct line to the on-call engineer for priority-one incidents." },
  { icon: "book-open", title: "Knowledge base", meta: "Self-service, always open", description: "Step-by-step guides, troubleshooting checklists and release notes." },
];

export const popularArticles: string[] = [
  "Deploying the Sentinel gateway in your own cloud",
  "Configuring single sign-on with Okta or Microsoft Entra ID",
  "Writing a custom policy for customer account numbers",
  "Connecting Sentinel to Microsoft Teams and Slack",
  "Exporting audit evidence for a SOC 2 Type II review",
  "Understanding verdicts: allow, redact, block and escalate",
];

/** The static status panel: fixed figures, not a live feed. */
export const systemStatus = {
  summary: "All systems operational",
  figures: [
    `${serviceFigures.uptime} uptime ${serviceFigures.uptimeWindow}`,
    `${serviceFigures.averageResponse} average response time`,
  ],
  components: ["Inspection API", "Management console", "Integrations", "Alerting and notifications"],
} as const;
