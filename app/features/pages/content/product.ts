import type { Item } from "~/ui/content-types";

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
