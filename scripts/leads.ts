// The operator's lead commands, on the database named by DATABASE_URL:
//   npm run leads -- export --table sales_leads|demo_requests|career_applications --format csv|json [--since YYYY-MM-DD]
//   npm run leads -- deliveries [--status pending|sent|dead] [--since YYYY-MM-DD] [--format text|json]
//   npm run leads -- redeliver DELIVERY_ID... | --dead
//   npm run leads -- purge [--dry-run]               delete leads past their retention (RETENTION_*_MONTHS)
//   npm run leads -- subject-export EMAIL            everything held about an address, as JSON (this machine's lead spool too)
//   npm run leads -- erase EMAIL --yes               delete everything held about an address (every server's lead spool too)
// A mistake in the command line (or an unknown delivery id): one line on stderr and exit code 2.
import "./lib/quiet-logs";
import { eraseSubject, exportSubjectData } from "~/features/privacy/db/data-subject.server";
import { listDeliveries, requeueDeliveries } from "~/features/leads/db/deliveries.server";
import { leadColumns, listLeads } from "~/features/leads/db/leads.server";
import { findExpiredLeads, purgeExpiredLeads } from "~/features/leads/db/retention.server";
import { retentionMonths } from "~/features/leads/retention-job.server";
import { applyErasuresToSpool, findInSpool } from "~/features/leads/spool-erasure.server";
import { openLeadSpool } from "~/features/leads/spool.server";
import { formatDeliveries, parseDeliveriesArgs, parseRedeliverArgs } from "./lib/delivery-commands";
import { formatLeads, parseExportArgs, sinceTimestamp } from "./lib/lead-export";
import { runCommands, UsageError, type CommandParser } from "./lib/command";
import { formatCounts, formatExpired, parseEraseArgs, parsePurgeArgs, parseSubjectExportArgs } from "./lib/privacy-commands";

const USAGE = "Usage: npm run leads -- export|deliveries|redeliver|purge|subject-export|erase … (see docs/leads.md)";
const byOperator = { actor: null, ip: "command line" };

const commands: Record<string, CommandParser> = {
  export(argv) {
    const options = parseExportArgs(["export", ...argv]);
    return async ({ db }) => {
      const rows = await listLeads(db, options.table, { since: options.since ? sinceTimestamp(options.since) : undefined });
      process.stdout.write(formatLeads(rows, leadColumns[options.table], options.format));
    };
  },
  deliveries(argv) {
    const options = parseDeliveriesArgs(argv);
    return async ({ db }) => void process.stdout.write(formatDeliveries(await listDeliveries(db, options), options.format));
  },
  redeliver(argv) {
    const which = parseRedeliverArgs(argv);
    return async ({ db }) => {
      const { queued, unknown } = await requeueDeliveries(db, which);
      if (unknown.length) throw new UsageError(`No delivery with the id ${unknown.join(", ")}; nothing was queued.`);
      process.stdout.write(`${queued} ${queued === 1 ? "delivery" : "deliveries"} queued again\n`);
    };
  },
  purge(argv) {
    const { dryRun } = parsePurgeArgs(argv);
    return async ({ db, env }) => {
      const months = retentionMonths(env);
      if (dryRun) return void process.stdout.write(formatExpired(await findExpiredLeads(db, months)));
      process.stdout.write(formatCounts(await purgeExpiredLeads(db, months, byOperator)));
    };
  },
  "subject-export"(argv) {
    const { email } = parseSubjectExportArgs(argv);
    return async ({ db, env }) => {
      const spooled = await findInSpool(localSpool(env), email);
      process.stdout.write(await exportSubjectData(db, email, byOperator, new Date(), spooled));
    };
  },
  erase(argv) {
    const { email } = parseEraseArgs(argv);
    return async ({ db, env }) => {
      const counts = await eraseSubject(db, email, byOperator);
      // The servers apply the erasure to their own spools; this machine's LEAD_SPOOL_DIR at once.
      const lead_spool = await applyErasuresToSpool(localSpool(env), db);
      process.stdout.write(formatCounts({ ...counts, lead_spool }));
    };
  },
};

/** The lead spool at LEAD_SPOOL_DIR on this machine (a server's, when run beside it with its settings). */
function localSpool(env: { LEAD_SPOOL_DIR: string; LEAD_SPOOL_MAX_BYTES: number }) {
  return openLeadSpool({ dir: env.LEAD_SPOOL_DIR, maxBytes: env.LEAD_SPOOL_MAX_BYTES });
}

runCommands(USAGE, commands);
