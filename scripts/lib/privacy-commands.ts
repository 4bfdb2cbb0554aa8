import { parseArgs, type ParseArgsConfig } from "node:util";
import type { ExpiredLead, PurgeCounts } from "~/features/leads/db/retention.server";
import { subjectAddress } from "~/features/privacy/db/data-subject.server";
import { UsageError } from "./usage-error";

// The operator's retention and privacy commands (`npm run leads -- purge|subject-export|erase …`):
// argument parsing and output, apart from the database so both can be tested directly.

export const PURGE_USAGE = "Usage: npm run leads -- purge [--dry-run]";
export const SUBJECT_EXPORT_USAGE = "Usage: npm run leads -- subject-export EMAIL";
export const ERASE_USAGE = "Usage: npm run leads -- erase EMAIL --yes";

function parse(argv: readonly string[], options: ParseArgsConfig["options"], usage: string) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} ${usage}`);
  }
}

export function parsePurgeArgs(argv: readonly string[]): { dryRun: boolean } {
  const { values, positionals } = parse(argv, { "dry-run": { type: "boolean" } }, PURGE_USAGE);
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}". ${PURGE_USAGE}`);
  return { dryRun: (values as { "dry-run"?: boolean })["dry-run"] === true };
}

function oneAddress(positionals: readonly string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`Name one email address. ${usage}`);
  const parsed = subjectAddress.safeParse(positionals[0]);
  if (!parsed.success) throw new UsageError(`"${positionals[0]}" is not an email address. ${usage}`);
  return parsed.data;
}

export function parseSubjectExportArgs(argv: readonly string[]): { email: string } {
  const { positionals } = parse(argv, {}, SUBJECT_EXPORT_USAGE);
  return { email: oneAddress(positionals, SUBJECT_EXPORT_USAGE) };
}

export function parseEraseArgs(argv: readonly string[]): { email: string } {
  const { values, positionals } = parse(argv, { yes: { type: "boolean" } }, ERASE_USAGE);
  const email = oneAddress(positionals, ERASE_USAGE);
  if ((values as { yes?: boolean }).yes !== true) {
    throw new UsageError(
      `Erasing deletes every lead, delivery and activity held about ${email}, and its leads in every server's lead spool, for good: add --yes to do it. Nothing was changed.`,
    );
  }
  return { email };
}

/** A header and one tab-separated line per lead that would go: table, id, dates, status; no names or addresses. */
export function formatExpired(leads: readonly ExpiredLead[]): string {
  const columns = ["table", "id", "created_at", "last_interaction_at", "decided_at", "status"];
  const lines = leads.map((lead) =>
    [lead.table, lead.id, lead.createdAt, lead.lastInteractionAt ?? "", lead.decidedAt ?? "", lead.status].join("\t"),
  );
  return `${[columns.join("\t"), ...lines].join("\n")}\n${leads.length} ${leads.length === 1 ? "lead" : "leads"} would be deleted\n`;
}

/** "sales_leads 2, demo_requests 0, …": what a purge or an erasure deleted (an erasure: this machine's lead spool too). */
export function formatCounts(counts: PurgeCounts & { lead_spool?: number }): string {
  return `${Object.entries(counts)
    .map(([table, count]) => `${table}\t${count}`)
    .join("\n")}\n`;
}
