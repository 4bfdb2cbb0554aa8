import type { Texts } from "~/ui/route-texts";

// The careers board's texts (catalog messages `shell.careers.*`), sent by the careers page's
// loader in the page's language.

export const CAREERS_TEXT_KEYS = [
  "shell.careers.openRoles",
  "shell.careers.anyRole",
  "shell.careers.noPositions",
  "shell.careers.loadError",
] as const;

export type CareersTexts = Texts<(typeof CAREERS_TEXT_KEYS)[number]>;
