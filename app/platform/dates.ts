// Dates are shown in long US format and computed in UTC, so a timestamp near midnight never
// shifts a day for visitors or servers in other zones (dates are shown as stored, in UTC). Intl is built in: no library.
const longUsDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/**
 * "March 5, 2025" for any ISO timestamp or date; "" for an unparsable value. In another language
 * (`locale`, a BCP 47 tag) its own long date: "5. März 2025".
 */
export function formatLongDate(value: string | Date, locale = "en"): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return (locale === "en" ? longUsDate : new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" })).format(date);
}

/** The date part (YYYY-MM-DD, UTC) for <time dateTime>. */
export function isoDay(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 10);
}

/** A real calendar day, e.g. 2025-02-30 is refused. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
