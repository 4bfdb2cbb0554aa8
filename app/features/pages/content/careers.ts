import type { Item } from "~/ui/content-types";

export const careerBenefits: Item[] = [
  { icon: "laptop", title: "Remote-first", description: "Work from anywhere in European or North American time zones, with quarterly team weeks in person." },
  { icon: "heart-pulse", title: "Health and wellbeing", description: "Comprehensive medical, dental and vision cover for you and your dependants, plus a monthly wellbeing budget." },
  { icon: "piggy-bank", title: "Equity for everyone", description: "Every employee holds stock options, with a ten-year exercise window." },
  { icon: "graduation-cap", title: "Learning budget", description: "€2,000 a year for courses, certifications and conferences — security certifications are fully covered." },
  { icon: "palmtree", title: "Time off that is used", description: "28 days of paid leave plus public holidays, and a company-wide shutdown between Christmas and New Year." },
  { icon: "globe-2", title: "Home-office setup", description: "A new laptop of your choice and €1,000 to set up a comfortable workspace." },
];

export const openRoles: Item[] = [
  { title: "Senior Backend Engineer, Detection Platform", meta: "Engineering · Remote (EU)", description: "Scale the real-time inspection pipeline that scores every prompt and message in under 45 ms." },
  { title: "Security Researcher, AI Threats", meta: "Research · Remote (EU or US)", description: "Find new prompt-injection and data-exfiltration techniques before attackers do, and turn them into detectors." },
  { title: "Enterprise Account Executive", meta: "Sales · London or New York", description: "Help regulated enterprises adopt AI safely, from first call to signed contract." },
  { title: "Compliance Program Manager", meta: "Governance · Remote (EU)", description: "Own our SOC 2 Type II and ISO 27001 programmes and the evidence our customers' auditors ask for." },
];
