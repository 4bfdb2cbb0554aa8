import type { Kysely } from "kysely";
import type { SpooledLead, SubjectData } from "~/features/privacy/db/data-subject.server";
import { applyErasuresToSpool, findInSpool } from "~/features/leads/spool-erasure.server";
import type { Database } from "~/db/schema";
import { fieldLabel } from "~/features/leads/delivery/messages.server";
import { getEnv } from "~/env.server";
import { isLeadFormId } from "~/features/leads/registry";
import { leadFormServer } from "~/features/leads/registry.server";
import { serverLeadSpool } from "~/features/leads/spool.server";

// What the privacy page shows of a look-up: each lead's fields with people's labels, how many
// deliveries and activity entries it has, which fields of which forms may be corrected, and what
// this server's lead spool keeps about the address (leads posted while the database was down).

export type PrivacyLeadView = {
  /** `table:id`, the value the correction form posts to name a lead. */
  key: string;
  table: string;
  noun: string;
  id: string;
  createdAt: string;
  fields: { column: string; label: string; value: string }[];
  deliveries: number;
  activity: number;
};

export type PrivacySpooledView = {
  file: string;
  state: SpooledLead["state"];
  noun: string;
  createdAt: string;
  fields: { column: string; label: string; value: string }[];
};

export type PrivacyView = {
  email: string;
  leads: PrivacyLeadView[];
  /** This server's lead spool: leads not in the database (yet), waiting or rejected. */
  spooled: PrivacySpooledView[];
  /** Per form held: its label and the fields a correction may change. */
  correctable: { label: string; fields: { value: string; label: string }[] }[];
};

const fieldsOf = (record: Record<string, unknown>) =>
  Object.entries(record).map(([column, value]) => ({
    column,
    label: fieldLabel(column),
    value: value === null || value === undefined ? "" : String(value),
  }));

export function privacyView(data: SubjectData, spooled: readonly SpooledLead[] = []): PrivacyView {
  const forms = [...new Set(data.leads.map((lead) => lead.form))];
  return {
    email: data.email,
    spooled: spooled.map((item) => ({
      file: item.file,
      state: item.state,
      noun:
        item.form !== null && isLeadFormId(item.form) ? leadFormServer(item.form).noun : "lead (a file that could not be read)",
      createdAt: item.created_at ?? "",
      fields: item.lead ? fieldsOf(item.lead) : [],
    })),
    leads: data.leads.map((lead) => ({
      key: `${lead.table}:${lead.id}`,
      table: lead.table,
      noun: leadFormServer(lead.form).noun,
      id: lead.id,
      createdAt: String(lead.lead.created_at ?? ""),
      fields: fieldsOf(lead.lead),
      deliveries: lead.deliveries.length,
      activity: lead.activity.length,
    })),
    correctable: forms.map((id) => ({
      label: leadFormServer(id).label,
      fields: leadFormServer(id).fields.map((field) => ({ value: field, label: fieldLabel(field) })),
    })),
  };
}

/** What this server's lead spool keeps about `email`. */
export function findInThisServersSpool(email: string): Promise<SpooledLead[]> {
  return findInSpool(serverLeadSpool(getEnv()), email);
}

/**
 * Applies the erasures recorded so far to this server's lead spool at once (the other servers do
 * on their replay job's next pass, within a second or two); how many of its files went.
 */
export function eraseFromThisServersSpool(db: Kysely<Database>): Promise<number> {
  return applyErasuresToSpool(serverLeadSpool(getEnv()), db);
}
