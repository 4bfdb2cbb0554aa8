import type { Workplace } from "~/features/careers/positions";
import type { Texts } from "~/ui/route-texts";

// The careers board's and a position's page's texts (catalog messages `shell.careers.*`,
// `shell.position.*`), sent by their pages' loaders in the page's language. What depends on a
// number (the board's counts) or on a position (its pay, where it is) is written on the server:
// position-labels.server.ts.

/** Each workplace's name (the board's filter, a position's facts). */
export const WORKPLACE_TEXT_KEYS = {
  remote: "shell.careers.remote",
  hybrid: "shell.careers.hybrid",
  "on-site": "shell.careers.onSite",
} as const satisfies Record<Workplace, `shell.careers.${string}`>;

export const CAREERS_TEXT_KEYS = [
  "shell.careers.openRoles",
  "shell.careers.anyRole",
  "shell.careers.noPositions",
  "shell.careers.loadError",
  "shell.careers.filterLabel",
  "shell.careers.team",
  "shell.careers.allTeams",
  "shell.careers.location",
  "shell.careers.allLocations",
  "shell.careers.workplace",
  "shell.careers.anyWorkplace",
  "shell.careers.remote",
  "shell.careers.hybrid",
  "shell.careers.onSite",
  "shell.careers.filter",
  "shell.careers.clear",
] as const;

export type CareersTexts = Texts<(typeof CAREERS_TEXT_KEYS)[number]>;

/** A position's page (open, closed, or not loaded) and its preview. */
export const POSITION_TEXT_KEYS = [
  "shell.position.allPositions",
  "shell.careers.team",
  "shell.careers.location",
  "shell.careers.workplace",
  "shell.position.employmentType",
  "shell.position.pay",
  "shell.position.apply",
  "shell.position.responsibilities",
  "shell.position.requirements",
  "shell.position.closed",
  "shell.position.openPositions",
  "shell.position.careersAt",
  "shell.careers.noPositions",
  "shell.pageError.title",
  "shell.pageError.text",
] as const;

export type PositionTexts = Texts<(typeof POSITION_TEXT_KEYS)[number]>;
