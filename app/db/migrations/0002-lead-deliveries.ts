import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The outbox of lead deliveries: one row per stored lead and destination (email, webhook), written
// in the lead's own transaction. It holds no copy of the lead, only its table and id.

export function leadDeliveriesMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("lead_deliveries")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("lead_table", "text", (c) =>
          c.notNull().check(sql`lead_table in ('sales_leads', 'demo_requests', 'career_applications')`),
        )
        .addColumn("lead_id", t.uuid, (c) => c.notNull())
        .addColumn("destination", "text", (c) => c.notNull().check(sql`destination in ('email', 'webhook')`))
        .addColumn("status", "text", (c) =>
          c
            .notNull()
            .defaultTo("pending")
            .check(sql`status in ('pending', 'sent', 'dead')`),
        )
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        // A claim: which worker holds the row (a random token) and until when.
        .addColumn("locked_by", "text")
        .addColumn("locked_until", t.timestamp)
        .addColumn("last_error", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("sent_at", t.timestamp)
        .execute();
      // The worker's question: which pending deliveries are due?
      await db.schema
        .createIndex("lead_deliveries_due_idx")
        .on("lead_deliveries")
        .expression(sql`status, next_attempt_at`)
        .execute();
      await db.schema.createIndex("lead_deliveries_created_at_idx").on("lead_deliveries").column("created_at").execute();
    },
  };
}
