import { parseArgs } from "node:util";
import type { AuditChainReport } from "~/lib/db/audit-log.server";
import { UsageError } from "./usage-error";

// The operator's audit command (`npm run admin -- audit verify`): argument parsing and output,
// apart from the database so both can be tested directly.

export const AUDIT_USAGE = "Usage: npm run admin -- audit verify";

export function parseAuditArgs(argv: readonly string[]): { command: "verify" } {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...argv], options: {}, allowPositionals: true, strict: true }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} ${AUDIT_USAGE}`);
  }
  const [command, ...extra] = positionals;
  if (command !== "verify") throw new UsageError(command ? `Unknown audit command "${command}". ${AUDIT_USAGE}` : AUDIT_USAGE);
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}". ${AUDIT_USAGE}`);
  return { command };
}

/** One line and the exit code: 0 when the whole chain verifies, 1 naming the first entry that does not. */
export function formatAuditReport(report: AuditChainReport): { code: 0 | 1; line: string } {
  if (report.ok) {
    return { code: 0, line: `Audit log verified: ${report.entries} entries, head ${report.head.hash}` };
  }
  const { seq, id, createdAt, action, reason } = report.broken;
  const where = `${seq === null ? "an entry outside the chain" : `seq ${seq}`} (id ${id}, ${createdAt}, ${action})`;
  const before = `${report.entries} ${report.entries === 1 ? "entry" : "entries"} before it verified`;
  return { code: 1, line: `Audit log does not verify at ${where}: ${reason}. ${before}.` };
}
