import type { Item, LinkItem } from "~/ui/content-types";
import { trustPagePath } from "~/config/site";

/** Compliance badges of the legal index. */
export const complianceBadges: Item[] = [
  { icon: "shield-check", title: "SOC 2 Type II", description: "Independently audited every year against the security, availability and confidentiality criteria." },
  { icon: "globe-2", title: "GDPR", description: "Data processing agreement with standard contractual clauses; EU data residency available." },
  { icon: "badge-check", title: "ISO 27001", description: "Certified information security management system covering the whole Sentinel platform." },
];

export const legalDocuments: LinkItem[] = [
  { label: "Privacy Policy", to: "/terms/privacy-policy", description: "What personal data we collect, why, and your rights." },
  { label: "Terms of Use", to: "/terms/terms-of-use", description: "The terms that apply when you use this website and our services." },
  { label: "Trust & Transparency", to: trustPagePath, description: "Security practices, data handling, subprocessors and responsible disclosure." },
];
