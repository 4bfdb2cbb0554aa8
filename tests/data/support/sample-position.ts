import type { PositionSnapshot } from "~/features/content/content-types";

/** A whole, valid position (remote, with a pay range and a hiring contact), changed by `overrides`. */
export const samplePosition = (overrides: Partial<PositionSnapshot> = {}): PositionSnapshot => ({
  slug: "security-researcher",
  title: "Security Researcher, AI Threats",
  team: "Research",
  locations: ["Remote"],
  workplace: "remote",
  remoteRegions: ["European Union", "United States"],
  employmentType: "full-time",
  pay: { min: 70_000, max: 90_000, currency: "EUR", period: "year" },
  summary: "Find new prompt-injection techniques before attackers do.",
  description: "You will **break** our detectors, then help fix them.",
  responsibilities: ["Research new attacks"],
  requirements: ["Three years of security research"],
  hiringContacts: ["research-hiring@quorvant.com"],
  closesAt: null,
  ...overrides,
});
