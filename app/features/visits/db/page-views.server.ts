import { sql, type Kysely } from "kysely";
import { dialectOf } from "~/db/normalize";
import type { Database, LeadTable } from "~/db/schema";

type Db = Kysely<Database>;

/** What a page view is counted under: a day, a page, where the visitor came from, the campaign. */
export type PageViewKey = {
  day: string;
  path: string;
  referrer_host: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
};

const KEY_COLUMNS = [
  "day",
  "path",
  "referrer_host",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const satisfies readonly (keyof PageViewKey)[];

/** Rows per statement: well under both engines' limits on bound parameters. */
const BATCH = 200;

/**
 * Adds counted views to the daily totals. Servers add to the same rows, so each statement adds
 * (never sets) and two servers flushing at once both count.
 */
export async function addPageViews(db: Db, counts: readonly { key: PageViewKey; views: number }[]): Promise<void> {
  if (counts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < counts.length; start += BATCH) {
      await trx
        .insertInto("page_views")
        .values(counts.slice(start, start + BATCH).map(({ key, views }) => ({ ...key, views })))
        .onConflict((conflict) =>
          conflict.columns(KEY_COLUMNS).doUpdateSet((eb) => ({ views: eb("page_views.views", "+", eb.ref("excluded.views")) })),
        )
        .execute();
    }
  });
}

/** Daily totals between two days (inclusive, YYYY-MM-DD), per referring site and campaign. */
export async function pageViewsByDay(db: Db, from: string, to: string) {
  const rows = await db
    .selectFrom("page_views")
    .select(["day", "referrer_host", "utm_source", "utm_medium", "utm_campaign"])
    .select((eb) => eb.fn.sum<number | string>("views").as("views"))
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy(["day", "referrer_host", "utm_source", "utm_medium", "utm_campaign"])
    .execute();
  return rows.map((row) => ({ ...row, views: Number(row.views) }));
}

/**
 * Leads of one table submitted between two days (inclusive), per day and the campaign of their
 * visit's first page (the first-touch columns, named as the page views' are: a visit and the lead
 * it became count under one source), with how many were won.
 */
export async function leadsByDay(db: Db, table: LeadTable, from: string, to: string) {
  const day =
    dialectOf(db) === "postgres"
      ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`
      : sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom(table)
    .select([
      day.as("day"),
      "referrer_host",
      "first_utm_source as utm_source",
      "first_utm_medium as utm_medium",
      "first_utm_campaign as utm_campaign",
    ])
    .select((eb) => [
      eb.fn.countAll<number | string>().as("leads"),
      eb.fn.sum<number | string>(eb.case().when("status", "=", "won").then(1).else(0).end()).as("won"),
    ])
    .where("created_at", ">=", `${from}T00:00:00.000Z`)
    .where("created_at", "<", nextDay(to))
    .groupBy([day, "referrer_host", "first_utm_source", "first_utm_medium", "first_utm_campaign"])
    .execute();
  return rows.map((row) => ({ ...row, leads: Number(row.leads), won: Number(row.won ?? 0) }));
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}
