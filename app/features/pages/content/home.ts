import type { Item } from "~/ui/content-types";

export const homeFeatures: Item[] = [
  {
    icon: "shield-check",
    title: "Advanced Security",
    description:
      "Every prompt, response and attachment is inspected for data leakage, prompt injection and policy violations before it leaves your network.",
  },
  {
    icon: "zap",
    title: "Lightning Fast",
    description: "Inline inspection adds a median of 45 ms to a model call, so your teams keep working at full speed.",
  },
  {
    icon: "globe-2",
    title: "Global Reach",
    description: "Deploy in your own cloud region or data centre, with policies that follow GDPR, HIPAA and local residency rules.",
  },
];

export const productFeatures: Item[] = [
  { icon: "lock", title: "End-to-end encryption", description: "Messages and model traffic are encrypted in transit and at rest with keys you hold." },
  { icon: "activity", title: "Real-time monitoring", description: "A live view of every AI interaction across chat, email and collaboration tools." },
  { icon: "siren", title: "Instant response", description: "Automated playbooks redact, block or escalate a threat within seconds of detection." },
  { icon: "building-2", title: "Enterprise security", description: "SSO, SCIM, role-based access and audit trails that satisfy SOC 2 Type II and ISO 27001 auditors." },
];
