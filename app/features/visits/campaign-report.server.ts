import type { Kysely } from "kysely";
import { isCalendarDate } from "~/platform/dates";
import { leadsByDay, pageViewsByDay } from "~/features/visits/db/page-views.server";
import type { Database } from "~/db/schema";
import { leadFormList, type LeadFormId } from "~/features/leads/registry";

// The start page's report for sales: visits and leads per week, and per source and campaign the
// rate from a visit to a lead and from a lead to a won deal. A visit is a view that arrived from
// outside the site (counted under another host or none); a source is the campaign's utm_source, or
// else the site that linked, or "direct". A lead counts under its visit's first touch (its
// first_utm_* columns), the same page view its visit was counted as, not its form page's campaign.

export type ReportPeriod = { from: string; to: string };

export const DEFAULT_REPORT_WEEKS = 12;
const MAX_REPORT_DAYS = 731;

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** The Monday (UTC) of the week a day falls in. */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The period asked for in the address (?from=&to=), or the last twelve weeks; a mistake is said, never thrown. */
export function reportPeriodFrom(url: URL, today = new Date()): { period: ReportPeriod; problem?: string } {
  const to = dayOf(today);
  const fallback = { from: weekOf(addDays(to, -7 * (DEFAULT_REPORT_WEEKS - 1))), to };
  const from = url.searchParams.get("from");
  const until = url.searchParams.get("to");
  if (from === null && until === null) return { period: fallback };
  if (!from || !until || !isCalendarDate(from) || !isCalendarDate(until)) {
    return { period: fallback, problem: "Enter both dates as YYYY-MM-DD; showing the last twelve weeks." };
  }
  if (from > until) return { period: fallback, problem: "The period must start before it ends; showing the last twelve weeks." };
  if (Date.parse(until) - Date.parse(from) > MAX_REPORT_DAYS * DAY_MS) {
    return { period: fallback, problem: "A report covers at most two years; showing the last twelve weeks." };
  }
  return { period: { from, to: until } };
}

export type WeekRow = { week: string; visits: number; leads: Record<LeadFormId, number> };
export type CampaignRow = {
  source: string;
  campaign: string;
  visits: number;
  /** Contact and demo requests: the leads a campaign can win. */
  leads: number;
  won: number;
};
export type CampaignReport = { period: ReportPeriod; weeks: WeekRow[]; campaigns: CampaignRow[] };

const sourceOf = (row: { utm_source: string; referrer_host: string }) => row.utm_source || row.referrer_host || "direct";

export async function campaignReport(db: Kysely<Database>, period: ReportPeriod, ownHost: string): Promise<CampaignReport> {
  const emptyLeads = () => Object.fromEntries(leadFormList.map((form) => [form.id, 0])) as Record<LeadFormId, number>;
  const weeks = new Map<string, WeekRow>();
  for (let week = weekOf(period.from); week <= period.to; week = addDays(week, 7)) {
    weeks.set(week, { week, visits: 0, leads: emptyLeads() });
  }
  const campaigns = new Map<string, CampaignRow>();
  const campaignRow = (row: { utm_source: string; referrer_host: string; utm_campaign: string }) => {
    const source = sourceOf(row);
    const campaign = row.utm_campaign;
    const key = JSON.stringify([source, campaign]);
    let found = campaigns.get(key);
    if (!found) campaigns.set(key, (found = { source, campaign, visits: 0, leads: 0, won: 0 }));
    return found;
  };

  for (const row of await pageViewsByDay(db, period.from, period.to)) {
    if (row.referrer_host === ownHost) continue;
    weeks.get(weekOf(row.day))!.visits += row.views;
    campaignRow(row).visits += row.views;
  }
  for (const form of leadFormList) {
    for (const row of await leadsByDay(db, form.table, period.from, period.to)) {
      const week = weeks.get(weekOf(row.day));
      if (week) week.leads[form.id] += row.leads;
      if (form.workflow !== "sales") continue;
      const campaign = campaignRow(row);
      campaign.leads += row.leads;
      campaign.won += row.won;
    }
  }
  return {
    period,
    weeks: [...weeks.values()],
    campaigns: [...campaigns.values()].sort(
      (a, b) => b.visits - a.visits || b.leads - a.leads || a.source.localeCompare(b.source),
    ),
  };
}

/** A share in per cent with one decimal, or "—" when there is nothing to divide by. */
export function rate(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "—";
}
