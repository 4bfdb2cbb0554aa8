import type { Kysely, Migration } from "kysely";
import type { Dialect } from "~/db/normalize";

// Visits counted without tracking: one row per day, page, referring site and campaign with a
// number of views. Nothing in it identifies a visitor: no address, no cookie, no identifier.

export function pageViewsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("page_views")
        // The UTC calendar day, YYYY-MM-DD, text in both engines: it is a key, not a moment.
        .addColumn("day", "text", (c) => c.notNull())
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("referrer_host", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("utm_source", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("utm_medium", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("utm_campaign", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("utm_term", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("utm_content", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("page_views_pkey", [
          "day",
          "path",
          "referrer_host",
          "utm_source",
          "utm_medium",
          "utm_campaign",
          "utm_term",
          "utm_content",
        ])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("page_views").execute();
    },
  };
}
