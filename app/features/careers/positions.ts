// Open positions: shapes, addresses and labels shared by the server and the position pages (no
// Zod here: the schema is the content type's, server-side, in ~/features/content/content-types).

import { CAREERS_PATH } from "~/features/careers/careers-path";

export { CAREERS_PATH };

/** A position's slug: lower-case words of letters and digits joined by single hyphens. */
export const POSITION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const WORKPLACES = ["remote", "hybrid", "on-site"] as const;
export type Workplace = (typeof WORKPLACES)[number];

export const EMPLOYMENT_TYPES = ["full-time", "part-time", "contract", "temporary", "internship"] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

export const PAY_PERIODS = ["year", "month", "hour"] as const;
export type PayPeriod = (typeof PAY_PERIODS)[number];

export type PayRange = { min: number; max: number; currency: string; period: PayPeriod };

/** A position as its editor saves it and visitors see it (one revision of the content type "position"). */
export type Position = {
  slug: string;
  title: string;
  team: string;
  locations: string[];
  workplace: Workplace;
  remoteRegions: string[];
  employmentType: EmploymentType;
  pay: PayRange | null;
  summary: string;
  description: string;
  responsibilities: string[];
  requirements: string[];
  hiringContacts: string[];
  closesAt: string | null;
};

/** Where a position stands for a visitor or an application. */
export type PositionState = "open" | "closed" | "draft" | "unknown";

/** A position as its page shows it: labels ready, no field the page does not show (hiring contacts stay on the server). */
export type PositionView = {
  id: string;
  title: string;
  team: string;
  summary: string;
  locations: string[];
  workplace: string;
  remote: boolean;
  where: string;
  employmentType: string;
  pay: string | null;
  responsibilities: string[];
  requirements: string[];
  closesAt: string | null;
};

/** An open position in a list: its title, where it is, and its address. */
export type PositionListEntry = { id: string; title: string; team: string; where: string; path: string; summary: string };

/** An open position on the careers page: what it lists and filters by. */
export type BoardPosition = PositionListEntry & {
  locations: string[];
  workplace: Workplace;
  employmentType: string;
  pay: string | null;
};

/** The id under which a position page's document carries its description's markup. */
export const POSITION_DESCRIPTION_ID = "position-description";

export const workplaceLabels: Record<Workplace, string> = { remote: "Remote", hybrid: "Hybrid", "on-site": "On site" };

export const employmentTypeLabels: Record<EmploymentType, string> = {
  "full-time": "Full-time",
  "part-time": "Part-time",
  contract: "Contract",
  temporary: "Temporary",
  internship: "Internship",
};

export const payPeriodLabels: Record<PayPeriod, string> = { year: "a year", month: "a month", hour: "an hour" };

export function positionPath(slug: string): string {
  return `${CAREERS_PATH}/${slug}`;
}

/** The address without JavaScript of the application form for a position: its careers page's, carrying it. */
export function applicationPath(positionId: string, careers: string = CAREERS_PATH): string {
  return `${careers}?${new URLSearchParams({ apply: "1", position: positionId }).toString()}`;
}

/** Open while it has no closing date or its closing date is still to come. */
export function isOpenAt(position: Pick<Position, "closesAt">, now: number = Date.now()): boolean {
  return position.closesAt === null || Date.parse(position.closesAt) > now;
}

/**
 * One formatter per locale and currency: making one costs about a hundred times what using it
 * does, which a careers page that lists fifty positions paid on every render.
 */
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = currencyFormats.get(key);
  if (!format) {
    // Whole amounts (the schema's).
    format = new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 0 });
    currencyFormats.set(key, format);
  }
  return format;
}

/** "€70,000–€90,000": the range in its currency, without cents when it has none, as `locale` writes amounts. */
export function formatPayRange(pay: PayRange, locale = "en-GB"): string {
  // Written as people write a range: no spaces around the dash.
  const format = currencyFormat(locale, pay.currency);
  return pay.min === pay.max ? format.format(pay.min) : `${format.format(pay.min)}–${format.format(pay.max)}`;
}

/** "€70,000–€90,000 a year" (the feeds' English; a page's language: position-labels.server.ts). */
export function formatPay(pay: PayRange, locale = "en-GB"): string {
  return `${formatPayRange(pay, locale)} ${payPeriodLabels[pay.period]}`;
}

/** "Engineering · Remote (European Union)": a position's team and where it is done, for lists. */
export function positionWhere(position: Pick<Position, "workplace" | "locations" | "remoteRegions">): string {
  if (position.workplace === "remote")
    return `Remote${position.remoteRegions.length ? ` (${position.remoteRegions.join(" or ")})` : ""}`;
  const places = position.locations.join(" or ");
  return position.workplace === "hybrid" ? `${places} (hybrid)` : places;
}
