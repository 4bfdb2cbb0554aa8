import { data } from "react-router";
import { z } from "zod";
import { isAuditAction } from "~/features/audit/admin/audit-actions";
import type { AuditCursor, AuditFilter } from "~/features/audit/db/audit-log.server";
import { isCalendarDate } from "~/platform/dates";

// The audit log's filters as the page and its CSV export read them from the query string:
// `person` (an id), `action` (one of the known kinds), `from` and `to` (days, UTC, both included)
// and `after` (where the previous page ended). Anything else in them is answered 400.

const day = z.string().refine(isCalendarDate, "must be a date written YYYY-MM-DD");
const query = z.object({
  person: z.uuid("must be a person's id").optional(),
  action: z.string().refine(isAuditAction, "must be one of the audit log's actions").optional(),
  from: day.optional(),
  to: day.optional(),
  after: z
    .string()
    .regex(/^[0-9T:.Z-]{24}_[0-9a-f-]{36}$/, "must be a page position from this page's own links")
    .optional(),
});

export type AuditQuery = { filter: AuditFilter; after?: AuditCursor; values: Record<string, string> };

/** The filters of this URL, or a thrown 400 naming what is wrong. Empty values count as absent. */
export function readAuditQuery(url: URL): AuditQuery {
  const given = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ""));
  const parsed = query.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw data({ message: `The filter "${String(issue.path[0])}" ${issue.message}.` }, { status: 400 });
  }
  const { person, action, from, to, after } = parsed.data;
  const until = to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString() : undefined;
  const [createdAt, id] = after ? after.split("_") : [];
  return {
    filter: { actorId: person?.toLowerCase(), action, from: from && `${from}T00:00:00.000Z`, until },
    after: createdAt && id ? { createdAt, id } : undefined,
    values: { person: person ?? "", action: action ?? "", from: from ?? "", to: to ?? "" },
  };
}

/** The `after` value of a page position. */
export function cursorParam(cursor: AuditCursor): string {
  return `${cursor.createdAt}_${cursor.id}`;
}
