import { site } from "~/config/site";
import { serviceFigures } from "~/features/pages/content/service-figures";

// The scene the console illustration shows: one prompt inspected inline, from the prompt to the
// audit entry it leaves. Invented sample data: no real person, account or customer.

/** A piece of the inspected prompt: plain text, or the sensitive value Sentinel masked. */
export type PromptPart = { text: string } | { redacted: string; kind: string };

export type ConsoleScene = {
  channel: string;
  user: string;
  time: string;
  prompt: PromptPart[];
  detection: string[];
  verdict: { action: string; outcome: string; rule: string; ruleName: string };
  latency: string;
  audit: { id: string; fields: string[] };
  /** The console's navigation, drawn beside the scene on wide screens. */
  navigation: string[];
  deployment: string;
  /** What the picture shows, said once in words for assistive technology and text-only readers. */
  description: string;
};

export const consoleScene: ConsoleScene = {
  channel: "Microsoft Copilot",
  user: "j.meyer@northwind.example",
  time: "09:41:07 UTC",
  prompt: [
    { text: "Draft a reply to the customer confirming the refund to account " },
    { redacted: "DE89 •••• •••• 3000", kind: "IBAN" },
    { text: " by Friday." },
  ],
  detection: ["Bank account number (IBAN)", "Confidence 0.99"],
  verdict: {
    action: "Redact",
    outcome: "Prompt sent on with the account number masked",
    rule: "PII-FIN-004",
    ruleName: "Financial identifiers stay inside the network",
  },
  latency: serviceFigures.averageResponse,
  audit: { id: "evt_7Q2K9", fields: ["redact", "PII-FIN-004", "j.meyer", "copilot", "sha256:9f2c…e41a"] },
  navigation: ["Inspections", "Policies", "Playbooks", "Audit log", "Reports"],
  deployment: "Your cloud · eu-west-1",
  description:
    `The ${site.product.name} console inspecting an AI prompt inline: an employee asks Microsoft Copilot to confirm a refund to a bank account, ` +
    `${site.product.name} redacts the account number before the prompt reaches the model, the verdict names the rule it applied ` +
    `(PII-FIN-004, financial identifiers stay inside the network), an entry in the audit log records the decision, and the inspection took ${serviceFigures.averageResponse}.`,
};
