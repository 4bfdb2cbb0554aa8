import { stringify } from "csv-stringify/sync";

// CSV for people who open it in a spreadsheet: RFC 4180 (header row, CRLF, quotes where needed),
// written by csv-stringify, with every cell a spreadsheet would run as a formula neutralised.

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, or a tab/carriage
 * return that some spreadsheets skip) is prefixed with ' so it shows as text.
 */
export function spreadsheetSafe(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A CSV document of `rows` under `columns`, each cell spreadsheet-safe; `header: false` for a later part of one. */
export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[], { header = true } = {}): string {
  return stringify(
    rows.map((row) => row.map(spreadsheetSafe)),
    { header, columns: [...columns], record_delimiter: "\r\n" },
  );
}
