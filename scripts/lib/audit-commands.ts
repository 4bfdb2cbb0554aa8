import { parseArgs } from "node:util";
import type { AuditChainReport, AuditHead } from "~/features/audit/db/audit-log.server";
import { UsageError } from "./usage-error";

// The operator's audit command (`npm run admin -- audit verify`): argument parsing and output,
// apart from the database so both can be tested directly.

export const AUDIT_USAGE = "Usage: npm run admin -- audit verify [--head SEQ:HASH]";

/** `--head` takes a head as the server log recorded it: `"seq":120,"hash":"…"` read as 120:… */
export function parseAuditArgs(argv: readonly string[]): { command: "verify"; loggedHead?: AuditHead } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { head: { type: "string" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} ${AUDIT_USAGE}`);
  }
  const [command, ...extra] = parsed.positionals;
  if (command !== "verify") throw new UsageError(command ? `Unknown audit command "${command}". ${AUDIT_USAGE}` : AUDIT_USAGE);
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}". ${AUDIT_USAGE}`);
  const head = parsed.values.head;
  if (head === undefined) return { command };
  const match = /^([1-9]\d{0,15}):([0-9a-f]{64})$/.exec(head.trim().toLowerCase());
  if (!match) throw new UsageError(`--head must be SEQ:HASH as the server log has them (120:<64 hex digits>), got "${head}".`);
  return { command, loggedHead: { seq: Number(match[1]), hash: match[2]! } };
}

/** One line and the exit code: 0 when the whole chain verifies, 1 naming the first entry that does not. */
export function formatAuditReport(report: AuditChainReport): { code: 0 | 1; line: string } {
  if (report.ok) {
    const entries = `${report.entries} ${report.entries === 1 ? "entry" : "entries"}`;
    return { code: 0, line: `Audit log verified: ${entries}, head ${report.head.hash}` };
  }
  const { seq, id, createdAt, action, reason } = report.broken;
  const entry = id === undefined ? "" : ` (id ${id}, ${createdAt}, ${action})`;
  const where = `${seq === null ? "an entry outside the chain" : `seq ${seq}`}${entry}`;
  const before = `${report.entries} ${report.entries === 1 ? "entry" : "entries"} before it verified`;
  return { code: 1, line: `Audit log does not verify at ${where}: ${reason}. ${before}.` };
}
