import { stringify } from "csv-stringify/sync";

// The lead export (`npm run leads -- export ...`): argument parsing and formatting,
// kept apart from the CLI's database handling so both can be tested directly.

export const LEAD_TABLES = ["sales_leads", "demo_requests", "career_applications"] as const;
export type LeadTableName = (typeof LEAD_TABLES)[number];
export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE =
  "Usage: npm run leads -- export --table sales_leads|demo_requests|career_applications --format csv|json [--since YYYY-MM-DD]";

export type ExportOptions = { table: LeadTableName; format: ExportFormat; since?: string };

/** A mistake in the command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function parseExportArgs(argv: readonly string[]): ExportOptions {
  const [command, ...rest] = argv;
  if (command !== "export") throw new UsageError(command ? `Unknown command "${command}". ${EXPORT_USAGE}` : EXPORT_USAGE);
  const values: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    const match = /^--(table|format|since)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`Unknown argument "${arg}". ${EXPORT_USAGE}`);
    const value = match[2] ?? rest[++i];
    if (value === undefined || value === "") throw new UsageError(`--${match[1]} needs a value. ${EXPORT_USAGE}`);
    values[match[1]!] = value;
  }
  const { table, format, since } = values;
  if (!table || !isOneOf(LEAD_TABLES, table)) {
    throw new UsageError(`${table ? `Unknown table "${table}"` : "--table is required"}: use ${LEAD_TABLES.join(", ")}.`);
  }
  if (!format || !isOneOf(EXPORT_FORMATS, format)) {
    throw new UsageError(`${format ? `Unknown format "${format}"` : "--format is required"}: use csv or json.`);
  }
  if (since !== undefined && !isCalendarDate(since)) {
    throw new UsageError(`--since must be a date written YYYY-MM-DD (for example 2025-01-31), got "${since}".`);
  }
  return { table, format, since };
}

function isOneOf<T extends string>(options: readonly T[], value: string): value is T {
  return (options as readonly string[]).includes(value);
}

/** A real calendar day, e.g. 2025-02-30 is refused. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** `--since` is inclusive from the start of that day, UTC. */
export function sinceTimestamp(since: string): string {
  return `${since}T00:00:00.000Z`;
}

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, or a tab/carriage
 * return that some spreadsheets skip) is prefixed with ' so it shows as text.
 */
export function spreadsheetSafe(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180 CSV (CRLF line ends, quotes where needed, header row) or one JSON array. */
export function formatLeads(rows: readonly Record<string, unknown>[], columns: readonly string[], format: ExportFormat): string {
  if (format === "json") return `${JSON.stringify(rows, null, 2)}\n`;
  return stringify(
    rows.map((row) => columns.map((column) => spreadsheetSafe(row[column]))),
    { header: true, columns: [...columns], record_delimiter: "\r\n" },
  );
}
