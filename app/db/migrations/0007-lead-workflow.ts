import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Leads become work: each gets a status, an owner, the time of its last interaction and of its
// decision (retention counts from those), and the attribution a visit carries beyond the three utm
// columns. Their activity (status changes, notes, replies, corrections) is one table for every form.
// Every added column has a constant default, so rows written by other tools still insert.

const LEAD_TABLES = ["sales_leads", "demo_requests", "career_applications"] as const;

export function leadWorkflowMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  const columns: [name: string, add: (db: Kysely<unknown>, table: string) => Promise<void>][] = [
    ["status", (db, table) => addText(db, table, "status", "new")],
    ["owner_id", (db, table) => db.schema.alterTable(table).addColumn("owner_id", t.uuid).execute()],
    // Null until someone acts on the lead: retention then counts from created_at.
    ["last_interaction_at", (db, table) => db.schema.alterTable(table).addColumn("last_interaction_at", t.timestamp).execute()],
    ["decided_at", (db, table) => db.schema.alterTable(table).addColumn("decided_at", t.timestamp).execute()],
    ["utm_term", (db, table) => addText(db, table, "utm_term")],
    ["utm_content", (db, table) => addText(db, table, "utm_content")],
    ["referrer_host", (db, table) => addText(db, table, "referrer_host")],
    ["landing_page", (db, table) => addText(db, table, "landing_page")],
  ];
  return {
    async up(db: Kysely<unknown>) {
      for (const table of LEAD_TABLES) {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for (const [, add] of columns) await add(db, table);
        // The inbox pages newest first by (created_at, id), also within one status; a privacy
        // request finds an address in every table.
        await db.schema.createIndex(`${table}_inbox_idx`).on(table).columns(["created_at", "id"]).execute();
        await db.schema.createIndex(`${table}_status_idx`).on(table).columns(["status", "created_at", "id"]).execute();
        await db.schema
          .createIndex(`${table}_email_idx`)
          .on(table)
          .expression(sql`lower(email)`)
          .execute();
      }
      await db.schema
        .createTable("lead_activity")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("lead_table", "text", (c) => c.notNull())
        .addColumn("lead_id", t.uuid, (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("actor_id", t.uuid)
        .addColumn("actor_email", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("from_value", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("to_value", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      await db.schema
        .createIndex("lead_activity_lead_idx")
        .on("lead_activity")
        .columns(["lead_table", "lead_id", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("lead_activity").execute();
      for (const table of LEAD_TABLES) {
        for (const index of ["inbox", "status", "email"]) await db.schema.dropIndex(`${table}_${index}_idx`).execute();
        for (const [name] of [...columns].reverse()) await db.schema.alterTable(table).dropColumn(name).execute();
      }
    },
  };
}

function addText(db: Kysely<unknown>, table: string, name: string, value = "") {
  return db.schema
    .alterTable(table)
    .addColumn(name, "text", (c) => c.notNull().defaultTo(value))
    .execute();
}
