import { TZDate } from "@date-fns/tz";

// Editors enter and read times in their own time zone; the database keeps UTC. The zone is an IANA
// name the editor's browser reports (kept in a cookie) or picks, UTC until then.

export const TIME_ZONE_COOKIE = "quorvant_admin_tz";
export const DEFAULT_TIME_ZONE = "UTC";

export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Every zone the runtime knows, for the editor's choice. */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf("timeZone");
  return names.includes(DEFAULT_TIME_ZONE) ? names : [DEFAULT_TIME_ZONE, ...names];
}

/** The zone a request's cookie names, or UTC. */
export function timeZoneOf(request: Request): string {
  const cookie = request.headers.get("cookie") ?? "";
  const value = new RegExp(`(?:^|;\\s*)${TIME_ZONE_COOKIE}=([^;]+)`).exec(cookie)?.[1];
  const zone = value ? decodeURIComponent(value) : "";
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** "2026-12-01T09:30" (a datetime-local field) in `zone` → the UTC ISO timestamp, or undefined. */
export function localInputToUtc(value: string, zone: string): string | undefined {
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match || !isTimeZone(zone)) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  const date = new TZDate(year, month - 1, day, hour, minute, zone);
  // 31 February and the like roll over into another day: refused rather than moved.
  if (date.getDate() !== day || date.getMonth() !== month - 1) return undefined;
  return new Date(date.getTime()).toISOString();
}

/** A UTC timestamp as a datetime-local field shows it in `zone`: "2026-12-01T09:30". */
export function utcToLocalInput(iso: string, zone: string): string {
  const date = new TZDate(Date.parse(iso), zone);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
