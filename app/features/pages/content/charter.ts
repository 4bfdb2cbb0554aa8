import type { Item } from "~/ui/content-types";

export const charterMission =
  "Quorvant exists to make artificial intelligence safe to use in business: private by default, secure against misuse and accountable to the people and regulators it affects.";

export const charterPrinciples: Item[] = [
  { title: "Customer data stays the customer's", description: "We never sell customer content, never train models on it and process it only to deliver the service." },
  { title: "Security is not a feature tier", description: "Encryption, audit logging and access control are included for every customer, on every plan." },
  { title: "Decisions are explainable", description: "Every block, redaction or alert Sentinel makes comes with the rule and evidence behind it." },
  { title: "Least privilege, everywhere", description: "Our people and our systems get only the access they need, reviewed every quarter." },
  { title: "Honest about limits", description: "We publish what Sentinel detects and what it does not, and we disclose incidents promptly." },
];

export const stakeholderCommitments: Item[] = [
  { icon: "building", title: "Customers", description: "Dependable service backed by a 99.9% uptime commitment, transparent incident reports and data you can export at any time." },
  { icon: "users", title: "Employees", description: "Fair pay published in bands, equity for everyone, and a workplace where raising a security concern is always welcomed." },
  { icon: "heart-handshake", title: "Partners", description: "Clear co-selling terms, shared roadmaps and no surprises in how we integrate with their platforms." },
  { icon: "landmark", title: "Regulators", description: "Open cooperation, documented controls and independent audits against SOC 2 Type II and ISO 27001." },
  { icon: "globe-2", title: "Society", description: "Responsible AI research shared publicly, and free Sentinel licences for qualifying non-profits." },
];
