import { parseArgs, type ParseArgsConfig } from "node:util";
import { isCalendarDate } from "~/platform/dates";
import { sinceTimestamp } from "./lead-export";
import { UsageError } from "./usage-error";
import type { Delivery } from "~/features/leads/db/deliveries.server";
import type { DeliveryStatus } from "~/db/schema";

// The operator's delivery commands (`npm run leads -- deliveries …` and `… redeliver …`):
// argument parsing and output, apart from the database so both can be tested directly.

export const DELIVERIES_USAGE =
  "Usage: npm run leads -- deliveries [--status pending|sent|dead] [--since YYYY-MM-DD] [--format text|json]";
export const REDELIVER_USAGE = "Usage: npm run leads -- redeliver DELIVERY_ID... | --dead";

const STATUSES: readonly DeliveryStatus[] = ["pending", "sent", "dead"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type DeliveriesOptions = { status?: DeliveryStatus; since?: string; format: "text" | "json" };
export type RedeliverOptions = { ids: string[] } | { dead: true };

function parse(argv: readonly string[], options: ParseArgsConfig["options"], usage: string, positionals = false) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: positionals, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} ${usage}`);
  }
}

export function parseDeliveriesArgs(argv: readonly string[]): DeliveriesOptions {
  const { values } = parse(
    argv,
    { status: { type: "string" }, since: { type: "string" }, format: { type: "string", default: "text" } },
    DELIVERIES_USAGE,
  );
  const { status, since, format } = values as { status?: string; since?: string; format: string };
  if (status !== undefined && !STATUSES.includes(status as DeliveryStatus)) {
    throw new UsageError(`Unknown status "${status}": use pending, sent or dead.`);
  }
  if (since !== undefined && !isCalendarDate(since)) {
    throw new UsageError(`--since must be a date written YYYY-MM-DD (for example 2025-01-31), got "${since}".`);
  }
  if (format !== "text" && format !== "json") throw new UsageError(`Unknown format "${format}": use text or json.`);
  return { status: status as DeliveryStatus | undefined, since: since && sinceTimestamp(since), format };
}

export function parseRedeliverArgs(argv: readonly string[]): RedeliverOptions {
  const { values, positionals } = parse(argv, { dead: { type: "boolean" } }, REDELIVER_USAGE, true);
  const dead = (values as { dead?: boolean }).dead === true;
  if (dead && positionals.length === 0) return { dead: true };
  if (dead || positionals.length === 0) throw new UsageError(`Name delivery ids or --dead, not both. ${REDELIVER_USAGE}`);
  const bad = positionals.find((id) => !UUID.test(id));
  if (bad) throw new UsageError(`"${bad}" is not a delivery id (a UUID, as listed by npm run leads -- deliveries).`);
  return { ids: positionals.map((id) => id.toLowerCase()) };
}

/** JSON: one array. Text: a header and one tab-separated line per delivery, the last error last. */
export function formatDeliveries(deliveries: readonly Delivery[], format: "text" | "json"): string {
  if (format === "json") return `${JSON.stringify(deliveries, null, 2)}\n`;
  const columns = [
    "id",
    "status",
    "destination",
    "lead_table",
    "lead_id",
    "attempts",
    "created_at",
    "next_attempt_at",
    "sent_at",
    "last_error",
  ] as const;
  const lines = deliveries.map((delivery) =>
    columns.map((column) => String(delivery[column] ?? "").replace(/[\t\r\n]+/g, " ")).join("\t"),
  );
  return `${[columns.join("\t"), ...lines].join("\n")}\n`;
}
