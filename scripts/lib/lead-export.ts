import { toCsv } from "~/platform/csv.server";
import { isCalendarDate } from "~/platform/dates";
import type { LeadTable } from "~/db/schema";
import { leadFormList } from "~/features/leads/registry";
import { UsageError } from "./usage-error";

// The lead export (`npm run leads -- export ...`): argument parsing and formatting,
// kept apart from the CLI's database handling so both can be tested directly.

export const LEAD_TABLES: readonly LeadTable[] = leadFormList.map((form) => form.table);
export type LeadTableName = LeadTable;
export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE = `Usage: npm run leads -- export --table ${LEAD_TABLES.join("|")} --format csv|json [--since YYYY-MM-DD]`;

export type ExportOptions = { table: LeadTableName; format: ExportFormat; since?: string };

export { UsageError };

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

/** `--since` is inclusive from the start of that day, UTC. */
export function sinceTimestamp(since: string): string {
  return `${since}T00:00:00.000Z`;
}

/** RFC 4180 CSV (CRLF line ends, quotes where needed, header row) or one JSON array. */
export function formatLeads(rows: readonly Record<string, unknown>[], columns: readonly string[], format: ExportFormat): string {
  if (format === "json") return `${JSON.stringify(rows, null, 2)}\n`;
  return toCsv(
    columns,
    rows.map((row) => columns.map((column) => row[column])),
  );
}
