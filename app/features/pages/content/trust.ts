import type { Item } from "~/ui/content-types";

export const securityPractices: Item[] = [
  { icon: "lock", title: "Encryption", description: "TLS 1.2+ in transit and AES-256 at rest, with customer-managed keys available on every plan." },
  { icon: "key-round", title: "Access control", description: "SSO with hardware-key MFA for all staff, least-privilege roles and quarterly access reviews." },
  { icon: "shield-alert", title: "Testing", description: "Annual third-party penetration tests, continuous dependency scanning and a public disclosure programme." },
  { icon: "server-cog", title: "Resilience", description: "Multi-zone deployments, encrypted daily backups and a tested recovery plan backing our 99.9% uptime commitment." },
  { icon: "fingerprint", title: "People", description: "Background checks, security training at onboarding and every year, and a confidentiality agreement for everyone." },
  { icon: "scroll-text", title: "Audits", description: "SOC 2 Type II and ISO 27001 audits every year; reports are available under NDA." },
];

export const dataHandling: string[] = [
  "We process customer content only to provide the service, and never use it to train models.",
  "Customers choose the region where their data is stored: EU, UK or US.",
  "Private deployments keep all customer content inside the customer's own environment.",
  "Scan content is retained for 30 days by default; customers can shorten it to zero or extend it to meet their own obligations.",
  "Customers can export or delete their data at any time, and everything is deleted within 30 days of contract end.",
];

export type Subprocessor = { name: string; purpose: string; location: string };

export const subprocessors: Subprocessor[] = [
  { name: "Amazon Web Services", purpose: "Cloud hosting and storage for the managed service", location: "EU (Frankfurt), US (Virginia)" },
  { name: "Cloudflare", purpose: "Content delivery and DDoS protection", location: "Global" },
  { name: "Zendesk", purpose: "Customer support ticketing", location: "EU, US" },
  { name: "Stripe", purpose: "Billing and payment processing", location: "EU, US" },
];
