import type { Item, LinkItem } from "~/ui/content-types";
import { site, trustPagePath } from "~/config/site";

export type LinkGroup = { title: string; links: LinkItem[] };

/** The hub's four groups of static links (documentation, API reference, blog, support among them). */
export const resourceGroups: LinkGroup[] = [
  {
    title: "Build",
    links: [
      { label: "Documentation", to: "/resources/documentation", description: "Guides for deploying Sentinel and writing policies." },
      { label: "API Reference", to: "/resources/api", description: "Endpoints, authentication and rate limits." },
    ],
  },
  {
    title: "Learn",
    links: [
      { label: "Blog", to: "/resources/blog", description: "Research, product news and compliance guides." },
      { label: "Community", to: "/community", description: "Meet practitioners, join events and share policies." },
    ],
  },
  {
    title: "Get help",
    links: [
      { label: "Support", to: "/resources/support", description: "Help articles, support channels and system status." },
      { label: "Contact Sales", to: "/contact-sales", description: "Talk to us about pricing and deployment." },
    ],
  },
  {
    title: "Trust",
    links: [
      { label: "Trust & Transparency", to: trustPagePath, description: "Security practices, data handling and subprocessors." },
      { label: "Legal", to: "/terms/legal", description: "Policies, terms and compliance certifications." },
    ],
  },
];

export const resourceDownloads: Item[] = [
  { icon: "file-text", title: `${site.product.name} Product Overview`, meta: "PDF · 2.1 MB", description: "A twelve-page tour of the platform, its architecture and its deployment options." },
  { icon: "book-open", title: "AI Governance Playbook", meta: "PDF · 3.4 MB", description: "A step-by-step framework for approving, monitoring and auditing AI use across a regulated business." },
  { icon: "file-bar-chart", title: "Security and Compliance Datasheet", meta: "PDF · 640 KB", description: "Certifications, encryption, data residency and retention at a glance, for your security review." },
];
