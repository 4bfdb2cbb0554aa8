import type { Item } from "~/ui/content-types";

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

export type DeploymentFlow = {
  channels: { title: string; items: Item[] };
  /** The label of the private-deployment boundary, and what it keeps in. */
  boundary: string;
  boundaryNote: string;
  inside: Item[];
  evidence: Item;
  /** The diagram said once in words. */
  description: string;
};

/**
 * "How it works" drawn as a flow: where traffic comes from, what runs inside the customer's own
 * cloud, and what leaves it (evidence, never content). The steps above stay the text version.
 */
export const deploymentFlow: DeploymentFlow = {
  channels: {
    title: "Your channels",
    items: [
      { icon: "message-square-quote", title: "AI assistants" },
      { icon: "mail", title: "Email" },
      { icon: "messages-square", title: "Chat" },
      { icon: "file-code-2", title: "SDK" },
    ],
  },
  boundary: "Your cloud: private deployment",
  inside: [
    { icon: "scan-search", title: "Sentinel gateway", description: "Inspects every interaction inline" },
    { icon: "scroll-text", title: "Policies and playbooks", description: "Allow, redact, block or escalate" },
  ],
  evidence: { icon: "file-check-2", title: "Evidence for auditors", description: "Reports and a tamper-evident log" },
  boundaryNote: "No customer content leaves your environment",
  description:
    "Diagram: your AI assistants, email, chat and SDK send their traffic to the Sentinel gateway, which runs inside your own cloud " +
    "(the private-deployment boundary) together with your policies and playbooks. Only evidence for auditors leaves it: reports and a tamper-evident log, never customer content.",
};
