// `npm run leads -- export --table sales_leads|demo_requests|career_applications --format csv|json [--since YYYY-MM-DD]`:
// prints the leads of one table, oldest first, from the database named by DATABASE_URL.
// A bad table, format or date: one line on stderr and exit code 2.
import { formatLeads, parseExportArgs, sinceTimestamp, UsageError } from "~/lib/forms/export.server";

// The logger writes JSON lines to stdout, which is where the export goes: only errors may be
// logged (set before the database modules load the logger).
if (process.env.LOG_LEVEL !== "silent") process.env.LOG_LEVEL = "error";
const { DatabaseError, migrateToLatest, openDatabase } = await import("~/lib/db/connection.server");
const { leadColumns, listLeads } = await import("~/lib/db/leads.server");
const { ConfigError, loadEnv } = await import("~/lib/env.server");

async function main(argv: string[]): Promise<number> {
  const options = parseExportArgs(argv);
  const env = loadEnv();
  const { db, dialect } = await openDatabase(env.DATABASE_URL, 1);
  try {
    await migrateToLatest(db, dialect);
    const rows = await listLeads(db, options.table, { since: options.since ? sinceTimestamp(options.since) : undefined });
    process.stdout.write(formatLeads(rows, leadColumns[options.table], options.format));
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    if (error instanceof DatabaseError || error instanceof ConfigError) console.error(error.message);
    else console.error(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
