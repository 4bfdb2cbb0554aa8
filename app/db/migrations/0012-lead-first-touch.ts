import { sql, type Kysely, type Migration } from "kysely";
import type { Dialect } from "~/db/normalize";

// A lead keeps two campaigns apart: its utm_* columns hold the form page's own query string (as the
// specification defines them) and these hold the campaign of the visit's first page, beside the
// landing_page and referrer_host columns of that first touch (migration 0007). Until now the utm_*
// columns held the first touch, so each row's values are carried over; what the form page's own
// address said cannot be recovered for those rows, and their utm_* columns are left as they are
// (docs/decisions/012-visits-and-attribution.md). A constant default, so other tools still insert.

const LEAD_TABLES = ["sales_leads", "demo_requests", "career_applications"] as const;
const CAMPAIGN_COLUMNS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

export function leadFirstTouchMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of LEAD_TABLES) {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for (const column of CAMPAIGN_COLUMNS) {
          await db.schema
            .alterTable(table)
            .addColumn(`first_${column}`, "text", (c) => c.notNull().defaultTo(""))
            .execute();
        }
        const copies = CAMPAIGN_COLUMNS.map((column) => sql`${sql.ref(`first_${column}`)} = ${sql.ref(column)}`);
        await sql`update ${sql.table(table)} set ${sql.join(copies)}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of LEAD_TABLES) {
        for (const column of [...CAMPAIGN_COLUMNS].reverse())
          await db.schema.alterTable(table).dropColumn(`first_${column}`).execute();
      }
    },
  };
}
