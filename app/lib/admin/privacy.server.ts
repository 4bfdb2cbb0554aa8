import type { SubjectData } from "~/lib/db/data-subject.server";
import { fieldLabel } from "~/lib/delivery/messages.server";
import { leadFormServer } from "~/lib/leads/registry.server";

// What the privacy page shows of a look-up: each lead's fields with people's labels, how many
// deliveries and activity entries it has, and which fields of which forms may be corrected.

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

export type PrivacyView = {
  email: string;
  leads: PrivacyLeadView[];
  /** Per form held: its label and the fields a correction may change. */
  correctable: { label: string; fields: { value: string; label: string }[] }[];
};

export function privacyView(data: SubjectData): PrivacyView {
  const forms = [...new Set(data.leads.map((lead) => lead.form))];
  return {
    email: data.email,
    leads: data.leads.map((lead) => ({
      key: `${lead.table}:${lead.id}`,
      table: lead.table,
      noun: leadFormServer(lead.form).noun,
      id: lead.id,
      createdAt: String(lead.lead.created_at ?? ""),
      fields: Object.entries(lead.lead).map(([column, value]) => ({
        column,
        label: fieldLabel(column),
        value: value === null || value === undefined ? "" : String(value),
      })),
      deliveries: lead.deliveries.length,
      activity: lead.activity.length,
    })),
    correctable: forms.map((id) => ({
      label: leadFormServer(id).label,
      fields: leadFormServer(id).fields.map((field) => ({ value: field, label: fieldLabel(field) })),
    })),
  };
}
