// How the back office writes times: to the minute, in UTC or the editor's zone, always naming the
// zone (the people using it may be in several; a named zone is never ambiguous).

const dateTimeUtc = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "Nov 25, 2026, 14:05 UTC" for any ISO timestamp; "" for an unparsable value. With `zone`, in that zone, named. */
export function formatDateTime(value: string | Date, zone?: string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  if (!zone || zone === "UTC") return `${dateTimeUtc.format(date)} UTC`;
  const inZone = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", hourCycle: "h23", timeZone: zone });
  return `${inZone.format(date)} ${zone}`;
}
