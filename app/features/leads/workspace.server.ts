import type { Kysely, Transaction } from "kysely";
import { recordAudit, type Actor } from "~/features/audit/audit.server";
import { subjectHash } from "~/features/privacy/db/data-subject.server";
import { requeueDeliveries } from "~/features/leads/db/deliveries.server";
import {
  addLeadNote,
  findLeadState,
  listLeadAssignees,
  listLeadDeliveries,
  recordDeliveryActivity,
  setLeadOwner,
  setLeadStatus,
} from "~/features/leads/db/lead-inbox.server";
import type { Database } from "~/db/schema";
import { workflowOf, type LeadFormFacts } from "~/features/leads/registry";

// The lead workflow's changes: each checks what it is given, writes the lead, its activity row and
// the audit entry in one transaction (all or nothing), and answers with a sentence for the page.
// Audit details name the form, the lead and the values of the workflow (statuses, owner ids),
// never what the person wrote or submitted.

type Db = Kysely<Database>;
type Trx = Kysely<Database> | Transaction<Database>;

export type Worker = { actor: NonNullable<Actor>; ip: string };

export type WorkOutcome =
  | { ok: true; message: string }
  | { ok: false; status: number; problem: string; field?: "status" | "owner" | "note" | "reply" | "delivery" };

const target = (leadId: string) => ({ type: "lead", id: leadId });
const refused = (status: number, problem: string, field?: Extract<WorkOutcome, { ok: false }>["field"]): WorkOutcome => ({
  ok: false,
  status,
  problem,
  field,
});
const gone = () => refused(404, "This lead does not exist (any more).");
const raced = () => refused(409, "Someone changed this lead at the same moment. Nothing was changed: reload the page.");

export const NOTE_MAX = 5000;

export async function changeLeadStatus(
  db: Db,
  worker: Worker,
  form: LeadFormFacts,
  leadId: string,
  status: string,
): Promise<WorkOutcome> {
  const workflow = workflowOf(form);
  if (!workflow.statuses.includes(status)) return refused(400, `Choose a status of ${form.label.toLowerCase()}.`, "status");
  return db.transaction().execute(async (trx) => {
    const lead = await findLeadState(trx, form.table, leadId);
    if (!lead) return gone();
    if (lead.status === status) return { ok: true, message: `The status was already ${status}.` } as const;
    const decided = workflow.decided.includes(status);
    const changed = await setLeadStatus(trx, form.table, leadId, { from: lead.status, to: status, decided, actor: worker.actor });
    if (!changed) return raced();
    await audit(trx, worker, "lead.status", form, leadId, { from: lead.status, to: status });
    return { ok: true, message: `Status changed from ${lead.status} to ${status}.` } as const;
  });
}

/** `ownerId` a person who holds the form's role (or owner), or null for nobody. */
export async function assignLead(
  db: Db,
  worker: Worker,
  form: LeadFormFacts,
  leadId: string,
  ownerId: string | null,
): Promise<WorkOutcome> {
  return db.transaction().execute(async (trx) => {
    const assignees = await listLeadAssignees(trx, form.role);
    const owner = ownerId === null ? undefined : assignees.find((person) => person.id === ownerId);
    if (ownerId !== null && !owner) return refused(400, "Choose someone from the list.", "owner");
    const lead = await findLeadState(trx, form.table, leadId);
    if (!lead) return gone();
    if (lead.ownerId === ownerId) return { ok: true, message: "Nothing changed: that was already its owner." } as const;
    if (!(await setLeadOwner(trx, form.table, leadId, { from: lead.ownerId, to: ownerId, actor: worker.actor }))) return raced();
    await audit(trx, worker, "lead.owner", form, leadId, { from: lead.ownerId, to: ownerId });
    return { ok: true, message: owner ? `Assigned to ${owner.email}.` : "Nobody owns it now." } as const;
  });
}

/** An internal note, or the record of a reply sent to the person (kind reply). */
export async function addNote(
  db: Db,
  worker: Worker,
  form: LeadFormFacts,
  leadId: string,
  kind: "note" | "reply",
  body: string,
): Promise<WorkOutcome> {
  const text = body.trim();
  if (!text) return refused(400, kind === "note" ? "Write the note first." : "Say what was sent first.", kind);
  if (text.length > NOTE_MAX) return refused(400, `A note can be at most ${NOTE_MAX} characters.`, kind);
  return db.transaction().execute(async (trx) => {
    if (!(await addLeadNote(trx, form.table, leadId, { kind, body: text, actor: worker.actor }))) return gone();
    await audit(trx, worker, kind === "note" ? "lead.note" : "lead.reply", form, leadId, {});
    return { ok: true, message: kind === "note" ? "Note added." : "Reply recorded." } as const;
  });
}

/** Whether the page offers "Deliver again": a delivery given up on, or one still failing. */
export function mayDeliverAgain(delivery: { status: string; lastError: string | null }): boolean {
  return delivery.status === "dead" || (delivery.status === "pending" && Boolean(delivery.lastError));
}

/** Puts one of the lead's deliveries back in the queue (the operator's `leads redeliver`, from the page). */
export async function deliverAgain(
  db: Db,
  worker: Worker,
  form: LeadFormFacts,
  leadId: string,
  deliveryId: string,
): Promise<WorkOutcome> {
  return db.transaction().execute(async (trx) => {
    const delivery = (await listLeadDeliveries(trx, form.table, leadId)).find((entry) => entry.id === deliveryId);
    if (!delivery) return refused(404, "This lead has no such delivery.", "delivery");
    if (!mayDeliverAgain(delivery))
      return refused(409, "That delivery is not failing: there is nothing to deliver again.", "delivery");
    const { queued } = await requeueDeliveries(trx as Db, { ids: [delivery.id] });
    if (queued !== 1) return refused(404, "This lead has no such delivery.", "delivery");
    await recordDeliveryActivity(trx, form.table, leadId, {
      destination: delivery.destination,
      previousStatus: delivery.status,
      actor: worker.actor,
    });
    await audit(trx, worker, "lead.redeliver", form, leadId, { delivery: delivery.id, destination: delivery.destination });
    return { ok: true, message: `The ${delivery.destination} delivery is queued again.` } as const;
  });
}

/** Opening a lead's page is administrative access to personal data: it is logged. */
export function recordLeadView(db: Db, worker: Worker, form: LeadFormFacts, leadId: string): Promise<void> {
  return audit(db, worker, "lead.view", form, leadId, {});
}

/**
 * An export of an inbox's view, with the filters it used. A search term (a name, an address) is
 * personal data the append-only log could never give up after an erasure: it is kept as
 * `q_sha256`, the hash privacy requests name a person by, so an export of one person's leads can
 * still be found by hashing their address.
 */
export function recordLeadExport(db: Db, worker: Worker, form: LeadFormFacts, filters: Record<string, string>): Promise<void> {
  return recordAudit(db, {
    actor: worker.actor,
    action: "lead.export",
    target: { type: "lead-form", id: form.id },
    details: { form: form.id, filters: auditedFilters(filters) },
    ip: worker.ip,
  });
}

/** The filters as the audit log keeps them: `q` replaced by `q_sha256`. */
function auditedFilters(filters: Record<string, string>): Record<string, string> {
  const { q, ...rest } = filters;
  return q === undefined ? rest : { ...rest, q_sha256: subjectHash(q) };
}

function audit(
  db: Trx,
  worker: Worker,
  action: "lead.view" | "lead.status" | "lead.owner" | "lead.note" | "lead.reply" | "lead.redeliver",
  form: LeadFormFacts,
  leadId: string,
  details: Record<string, unknown>,
) {
  return recordAudit(db, {
    actor: worker.actor,
    action,
    target: target(leadId),
    details: { form: form.id, lead: leadId, ...details },
    ip: worker.ip,
  });
}
