import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "./support/command-line";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { insertLead } from "~/features/leads/db/leads.server";
import { parseEraseArgs, parsePurgeArgs, parseSubjectExportArgs } from "../../scripts/lib/privacy-commands";
import { UsageError } from "../../scripts/lib/usage-error";

describe("retention and privacy command lines", () => {
  it("read their arguments and refuse mistakes", () => {
    expect(parsePurgeArgs([])).toEqual({ dryRun: false });
    expect(parsePurgeArgs(["--dry-run"])).toEqual({ dryRun: true });
    expect(() => parsePurgeArgs(["--now"])).toThrow(UsageError);
    expect(() => parsePurgeArgs(["everything"])).toThrow(/Unexpected argument "everything"/);
    expect(parseSubjectExportArgs([" Jo@Example.com "])).toEqual({ email: "Jo@Example.com" });
    expect(() => parseSubjectExportArgs([])).toThrow(/Name one email address/);
    expect(() => parseSubjectExportArgs(["a@example.com", "b@example.com"])).toThrow(/Name one email address/);
    expect(() => parseSubjectExportArgs(["not-an-address"])).toThrow(/is not an email address/);
    expect(parseEraseArgs(["jo@example.com", "--yes"])).toEqual({ email: "jo@example.com" });
    expect(() => parseEraseArgs(["jo@example.com"])).toThrow(/add --yes to do it\. Nothing was changed\./);
  });
});

describe("npm run leads -- purge | subject-export | erase (against a real SQLite file)", () => {
  let dir: string;
  let file: string;
  const tracking = { source_page: "/", utm_source: "", utm_medium: "", utm_campaign: "" };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "leads-privacy-"));
    file = path.join(dir, "site.db");
    const { db, dialect } = await openDatabase(`file:${file}`);
    await migrateToLatest(db, dialect);
    const lead = { last_name: "Doe", company: "Acme", phone: "", message: "", product_name: "General", ...tracking };
    await insertLead(db, "contact-sales", { ...lead, first_name: "Oldname", email: "old@example.com" }, ["email"]);
    await insertLead(db, "contact-sales", { ...lead, first_name: "Jo", email: "jo@example.com" }, ["email"]);
    await db.destroy();
    const raw = new Database(file);
    raw.prepare("update sales_leads set created_at = '2015-01-01T00:00:00.000Z' where email = 'old@example.com'").run();
    raw.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (...args: string[]) => runScript("leads.ts", args, { DATABASE_URL: `file:${file}`, LOG_LEVEL: "info" });
  const count = (sql: string) => {
    const raw = new Database(file, { readonly: true });
    try {
      return (raw.prepare(sql).get() as { n: number }).n;
    } finally {
      raw.close();
    }
  };

  it("purge --dry-run lists what would go without names or addresses; purge deletes it and prints counts", async () => {
    const dry = await cli("purge", "--dry-run");
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("table\tid\tcreated_at\tlast_interaction_at\tdecided_at\tstatus");
    expect(lines[1]).toMatch(/^sales_leads\t[0-9a-f-]{36}\t2015-01-01T00:00:00\.000Z\t\t\tnew$/);
    expect(lines.at(-1)).toBe("1 lead would be deleted");
    expect(dry.stdout).not.toMatch(/Oldname|old@example\.com/);
    expect(count("select count(*) as n from sales_leads")).toBe(2);

    const purge = await cli("purge");
    expect(purge.code).toBe(0);
    expect(purge.stdout).toContain("sales_leads\t1\n");
    expect(purge.stdout).toContain("lead_deliveries\t1\n");
    expect(count("select count(*) as n from sales_leads")).toBe(1);
    expect(count("select count(*) as n from audit_log where action = 'leads.purged' and ip = 'command line'")).toBe(1);
  });

  it("subject-export prints the JSON; erase refuses without --yes and erases with it", async () => {
    const exported = await cli("subject-export", "JO@example.com");
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.email).toBe("jo@example.com");
    expect(document.leads).toMatchObject([
      { table: "sales_leads", lead: { first_name: "Jo" }, deliveries: [{ destination: "email" }] },
    ]);

    const refused = await cli("erase", "jo@example.com");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("add --yes to do it. Nothing was changed.");
    expect(count("select count(*) as n from sales_leads where email = 'jo@example.com'")).toBe(1);

    const erased = await cli("erase", "jo@example.com", "--yes");
    expect(erased.code).toBe(0);
    expect(erased.stdout).toContain("sales_leads\t1\n");
    expect(count("select count(*) as n from sales_leads")).toBe(0);
    expect(count("select count(*) as n from lead_deliveries")).toBe(0);
    expect(count("select count(*) as n from audit_log where action = 'privacy.erased' and details not like '%jo@%'")).toBe(1);
  });
});
