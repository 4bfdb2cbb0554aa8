import type { Item } from "~/content/types";

/** The six features of the product page. */
export const sentinelFeatures: Item[] = [
  { icon: "scan-search", title: "Real-time threat detection", description: "Every prompt, message and attachment is inspected inline for prompt injection, data exfiltration, phishing and malware, adding a median of 45 ms." },
  { icon: "siren", title: "Automated response", description: "Playbooks redact, block, quarantine or escalate within seconds of a detection, and notify the right owner in Slack, Teams or email." },
  { icon: "lock", title: "End-to-end encryption", description: "Traffic and stored evidence are encrypted in transit and at rest with customer-managed keys in your own KMS." },
  { icon: "activity", title: "Real-time monitoring", description: "One live view of AI usage across chat, email and collaboration tools: who used which model, with what data, under which policy." },
  { icon: "file-check-2", title: "Compliance and governance", description: "Policy packs for GDPR, HIPAA, SOC 2 and ISO 27001, with audit-ready reports and a tamper-evident log of every decision." },
  { icon: "server", title: "Private deployment", description: "Run Sentinel in your own cloud account or data centre; no customer content ever leaves your environment." },
];

export const sentinelSteps: string[] = [
  "Connect your channels: AI assistants, email, chat and collaboration tools through native integrations or the SDK.",
  "Choose policies: start from the built-in packs and tailor them to your data classes and teams.",
  "Detect and respond: Sentinel scores every interaction in real time and runs your response playbooks automatically.",
  "Prove it: export evidence and reports for auditors, regulators and your board.",
];
