import type { Item, Stat } from "~/ui/content-types";

export const communityStats: Stat[] = [
  { value: "5,000+", label: "Community members" },
  { value: "40+", label: "Countries" },
  { value: "300+", label: "Shared policy templates" },
  { value: "24", label: "Events a year" },
];

export const communityChannels: Item[] = [
  { icon: "messages-square", title: "Community forum", description: "Ask questions, share detection rules and compare notes with security and compliance teams." },
  { icon: "file-code-2", title: "Open policy library", description: "Contribute to and reuse open policy templates for common data classes and regulations." },
  { icon: "users", title: "Local chapters", description: "Practitioner meetups in London, Berlin, Amsterdam, New York and Toronto." },
];

export const upcomingEvents: Item[] = [
  { icon: "calendar-days", title: "AI Governance Office Hours", meta: "Online · First Thursday of each month, 16:00 UTC", description: "Bring your questions on policies, rollouts and audits to our compliance team." },
  { icon: "calendar-days", title: "Prompt Injection Defence Workshop", meta: "Online · 90-minute hands-on session", description: "Build and test detectors against real injection techniques with our security researchers." },
  { icon: "calendar-days", title: "Sentinel User Summit", meta: "London · Full-day conference", description: "Customer case studies, roadmap previews and a practitioners' panel on AI regulation." },
];
