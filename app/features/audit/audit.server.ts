import type { Kysely, Transaction } from "kysely";
import type { AuditAction } from "~/features/audit/admin/audit-actions";
import { appendAuditEntry } from "~/features/audit/db/audit-log.server";
import type { Database } from "~/db/schema";

// One call per audited event: who (a person, or nobody for a refused sign-in or the command
// line), what, on what, and from which address. Callers pass the transaction of the change itself,
// so a change and its entry are stored together or not at all.

export type Actor = { id: string; email: string } | null;

/** A person, nobody (a refused sign-in, the command line), or the server itself (a background job). */
export type AuditActor = Actor | "system";

/** How the log names the server's own background jobs. */
export const SYSTEM_ACTOR_EMAIL = "system";

export type AuditEvent = {
  actor: AuditActor;
  action: AuditAction;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
  /** The client's address; "command line" for the operator's commands. */
  ip: string;
};

export function recordAudit(db: Kysely<Database> | Transaction<Database>, event: AuditEvent): Promise<void> {
  const person = event.actor === "system" ? null : event.actor;
  return appendAuditEntry(db, {
    actorId: person?.id ?? null,
    actorEmail: event.actor === "system" ? SYSTEM_ACTOR_EMAIL : (person?.email ?? ""),
    action: event.action,
    targetType: event.target?.type,
    targetId: event.target?.id,
    details: event.details,
    ip: event.ip,
  });
}
