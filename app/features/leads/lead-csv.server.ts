import { toCsv } from "~/platform/csv.server";
import { hasCompany, hasPosition, type LeadSummary } from "~/features/leads/db/lead-inbox.server";
import type { LeadTable } from "~/db/schema";

// The columns of an inbox's CSV export, written by the site's CSV writer (csv-stringify, every
// cell a spreadsheet would run as a formula neutralised).

const COLUMNS = [
  "id",
  "created_at",
  "first_name",
  "last_name",
  "email",
  "company",
  "status",
  "owner",
  "source_page",
  "utm_campaign",
  "first_utm_campaign",
];

/** An application's position, last so the earlier columns keep their places; an open application has no id or title. */
const POSITION_COLUMNS = ["position_id", "position_title", "position_requested"];

export function leadCsvColumns(table: LeadTable): string[] {
  const columns = hasCompany(table) ? COLUMNS : COLUMNS.filter((column) => column !== "company");
  return hasPosition(table) ? [...columns, ...POSITION_COLUMNS] : columns;
}

/** A part of the export: the header row with the first part only. */
export function leadsToCsv(table: LeadTable, leads: readonly LeadSummary[], { header = true } = {}): string {
  const rows = leads.map((lead) => [
    lead.id,
    lead.createdAt,
    lead.firstName,
    lead.lastName,
    lead.email,
    ...(hasCompany(table) ? [lead.company] : []),
    lead.status,
    lead.ownerEmail,
    lead.sourcePage,
    lead.campaign,
    lead.firstCampaign,
    ...(hasPosition(table) ? [lead.positionId ?? "", lead.positionTitle ?? "", lead.positionRequested ?? ""] : []),
  ]);
  return toCsv(leadCsvColumns(table), rows, { header });
}
