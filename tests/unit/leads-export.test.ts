import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { insertLead } from "~/features/leads/db/leads.server";
import { spreadsheetSafe } from "~/platform/csv.server";
import { formatLeads, parseExportArgs, UsageError } from "../../scripts/lib/lead-export";

const run = promisify(execFile);

/** A strict RFC 4180 reader (CRLF records, "" escapes), to check the export round-trips. */
function parse(csv: string, _options: { columns: true }): Record<string, string>[] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let i = 0;
  while (i < csv.length) {
    if (csv[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= csv.length) throw new Error("unterminated quote");
        if (csv[i] === '"' && csv[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (csv[i] === '"') break;
        else cell += csv[i++];
      }
      i += 1;
    } else if (csv[i] === ",") {
      record.push(cell);
      cell = "";
      i += 1;
    } else if (csv.startsWith("\r\n", i)) {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i += 2;
    } else cell += csv[i++];
  }
  if (cell || record.length) throw new Error("last record not terminated by CRLF");
  const [header, ...rows] = records;
  return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index] ?? ""])));
}

describe("export arguments", () => {
  it("accepts the documented forms", () => {
    expect(parseExportArgs(["export", "--table", "sales_leads", "--format", "csv"])).toEqual({
      table: "sales_leads",
      format: "csv",
    });
    expect(parseExportArgs(["export", "--table=demo_requests", "--format=json", "--since=2025-02-28"])).toEqual({
      table: "demo_requests",
      format: "json",
      since: "2025-02-28",
    });
  });

  it.each([
    [["export", "--table", "users", "--format", "csv"], /Unknown table "users"/],
    [["export", "--table", "sales_leads", "--format", "xlsx"], /Unknown format "xlsx"/],
    [["export", "--table", "sales_leads", "--format", "csv", "--since", "2025-02-30"], /--since must be a date/],
    [["export", "--table", "sales_leads", "--format", "csv", "--since", "yesterday"], /--since must be a date/],
    [["export", "--format", "csv"], /--table is required/],
    [["import"], /Unknown command/],
    [["export", "--table", "sales_leads", "--format", "csv", "--limit", "3"], /Unknown argument/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseExportArgs(argv)).toThrow(UsageError);
    expect(() => parseExportArgs(argv)).toThrow(message);
  });
});

describe("CSV formatting", () => {
  it("prefixes cells a spreadsheet would run as formulas", () => {
    for (const dangerous of ["=SUM(A1:A2)", "+44 20 7946 0000", "-2+3", "@cmd", "\t=1"])
      expect(spreadsheetSafe(dangerous)).toBe(`'${dangerous}`);
    expect(spreadsheetSafe("Plain = text")).toBe("Plain = text");
    expect(spreadsheetSafe(null)).toBe("");
    expect(spreadsheetSafe(12)).toBe("12");
  });

  it("quotes per RFC 4180 and round-trips commas, quotes and line breaks", () => {
    const rows = [{ id: "1", message: 'Hello, "world"\r\nsecond line', phone: '=HYPERLINK("x")' }];
    const csv = formatLeads(rows, ["id", "message", "phone"], "csv");
    expect(csv).toBe('id,message,phone\r\n1,"Hello, ""world""\r\nsecond line","\'=HYPERLINK(""x"")"\r\n');
    expect(parse(csv, { columns: true })).toEqual([
      { id: "1", message: 'Hello, "world"\r\nsecond line', phone: '\'=HYPERLINK("x")' },
    ]);
  });

  it("prints JSON as one array with values untouched", () => {
    const rows = [{ id: "1", phone: "+1 555", years_experience: null }];
    expect(JSON.parse(formatLeads(rows, ["id", "phone", "years_experience"], "json"))).toEqual(rows);
  });
});

describe("npm run leads -- export (against a real SQLite file)", () => {
  let dir: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "leads-export-"));
    url = `file:${path.join(dir, "site.db")}`;
    const { db, dialect } = await openDatabase(url);
    await migrateToLatest(db, dialect);
    const lead = {
      last_name: "",
      company: "",
      phone: "",
      message: "",
      product_name: "General",
      source_page: "/contact-sales",
      utm_source: "",
      utm_medium: "",
      utm_campaign: "",
    };
    await insertLead(db, "contact-sales", { ...lead, first_name: "Old", email: "old@example.com" });
    await insertLead(db, "contact-sales", {
      ...lead,
      first_name: "=cmd|' /C calc'!A0",
      email: "mid@example.com",
      message: "a, b\nc",
    });
    await insertLead(db, "contact-sales", { ...lead, first_name: "New", email: "new@example.com" });
    await insertLead(db, "career-application", {
      first_name: "Ada",
      last_name: "L",
      email: "ada@example.com",
      phone: "",
      linkedin_profile: "",
      years_experience: 7,
      current_position: "",
      why_quorvant: "x",
      biggest_achievement: "",
      work_style: "",
      resume_url: "",
      source_page: "/company/careers",
      utm_source: "",
      utm_medium: "",
      utm_campaign: "",
    });
    await db.destroy();
    // Spread the rows over three days so --since has something to cut.
    const raw = new Database(path.join(dir, "site.db"));
    const days = {
      "old@example.com": "2025-01-10T09:00:00.000Z",
      "mid@example.com": "2025-01-20T23:59:59.000Z",
      "new@example.com": "2025-01-21T00:00:00.000Z",
    };
    for (const [email, at] of Object.entries(days))
      raw.prepare("update sales_leads set created_at = ? where email = ?").run(at, email);
    raw.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (...args: string[]) =>
    run(process.execPath, ["--import", "tsx", "scripts/leads.ts", ...args], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "info" },
    });

  it("prints CSV oldest first with the formula guard", async () => {
    const { stdout } = await cli("export", "--table", "sales_leads", "--format", "csv");
    const records = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(records.map((record) => record.email)).toEqual(["old@example.com", "mid@example.com", "new@example.com"]);
    expect(records[1]!.first_name).toBe("'=cmd|' /C calc'!A0");
    expect(records[1]!.message).toBe("a, b\nc");
    expect(Object.keys(records[0]!)).toEqual([
      "id",
      "created_at",
      "first_name",
      "last_name",
      "email",
      "company",
      "phone",
      "message",
      "product_name",
      "source_page",
      "landing_page",
      "referrer_host",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
      "first_utm_source",
      "first_utm_medium",
      "first_utm_campaign",
      "first_utm_term",
      "first_utm_content",
      "locale",
    ]);
  });

  it("--since keeps rows from the start of that day (UTC) on", async () => {
    const { stdout } = await cli("export", "--table", "sales_leads", "--format", "json", "--since", "2025-01-20");
    const rows = JSON.parse(stdout) as { email: string; created_at: string }[];
    expect(rows.map((row) => row.email)).toEqual(["mid@example.com", "new@example.com"]);
    const after = JSON.parse(
      (await cli("export", "--table", "sales_leads", "--format", "json", "--since", "2025-01-21")).stdout,
    ) as unknown[];
    expect(after).toHaveLength(1);
  });

  it("exports career applications with years as a number", async () => {
    const rows = JSON.parse((await cli("export", "--table", "career_applications", "--format", "json")).stdout) as Record<
      string,
      unknown
    >[];
    expect(rows).toMatchObject([{ first_name: "Ada", years_experience: 7, source_page: "/company/careers" }]);
  });

  it("a bad table, format or date is one line on stderr and exit code 2", async () => {
    for (const args of [
      ["export", "--table", "users", "--format", "csv"],
      ["export", "--table", "sales_leads", "--format", "xml"],
      ["export", "--table", "sales_leads", "--format", "csv", "--since", "2025-13-01"],
    ]) {
      const failure = await cli(...args).then(
        () => undefined,
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(failure?.code, args.join(" ")).toBe(2);
      expect(failure?.stderr.trim().split("\n")).toHaveLength(1);
      expect(failure?.stdout).toBe("");
    }
  });
});
