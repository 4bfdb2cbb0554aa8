// The operator's lead commands, on the database named by DATABASE_URL:
//   npm run leads -- export --table sales_leads|demo_requests|career_applications --format csv|json [--since YYYY-MM-DD]
//   npm run leads -- deliveries [--status pending|sent|dead] [--since YYYY-MM-DD] [--format text|json]
//   npm run leads -- redeliver DELIVERY_ID... | --dead
// A mistake in the command line (or an unknown delivery id): one line on stderr and exit code 2.
import { formatDeliveries, parseDeliveriesArgs, parseRedeliverArgs } from "~/lib/delivery/commands.server";
import { formatLeads, parseExportArgs, sinceTimestamp, UsageError } from "~/lib/forms/export.server";

// The logger writes JSON lines to stdout, which is where the output goes: only errors may be
// logged (set before the database modules load the logger).
if (process.env.LOG_LEVEL !== "silent") process.env.LOG_LEVEL = "error";
const { DatabaseError, migrateToLatest, openDatabase } = await import("~/lib/db/connection.server");
const { leadColumns, listLeads } = await import("~/lib/db/leads.server");
const { listDeliveries, requeueDeliveries } = await import("~/lib/db/deliveries.server");
const { ConfigError, loadEnv } = await import("~/lib/env.server");

const USAGE = "Usage: npm run leads -- export|deliveries|redeliver … (see README, Leads)";

type Database = Awaited<ReturnType<typeof openDatabase>>["db"];

const commands: Record<string, (argv: string[]) => { run: (db: Database) => Promise<string> }> = {
  export(argv) {
    const options = parseExportArgs(["export", ...argv]);
    return {
      run: async (db) => {
        const rows = await listLeads(db, options.table, { since: options.since ? sinceTimestamp(options.since) : undefined });
        return formatLeads(rows, leadColumns[options.table], options.format);
      },
    };
  },
  deliveries(argv) {
    const options = parseDeliveriesArgs(argv);
    return { run: async (db) => formatDeliveries(await listDeliveries(db, options), options.format) };
  },
  redeliver(argv) {
    const which = parseRedeliverArgs(argv);
    return {
      run: async (db) => {
        const { queued, unknown } = await requeueDeliveries(db, which);
        if (unknown.length) throw new UsageError(`No delivery with the id ${unknown.join(", ")}; nothing was queued.`);
        return `${queued} ${queued === 1 ? "delivery" : "deliveries"} queued again\n`;
      },
    };
  },
};

async function main([command, ...argv]: string[]): Promise<number> {
  const parse = command ? commands[command] : undefined;
  if (!parse) throw new UsageError(command ? `Unknown command "${command}". ${USAGE}` : USAGE);
  const { run } = parse(argv);
  const env = loadEnv();
  const { db, dialect } = await openDatabase(env.DATABASE_URL, 1);
  try {
    await migrateToLatest(db, dialect);
    process.stdout.write(await run(db));
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
    else console.error(`The leads command failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
