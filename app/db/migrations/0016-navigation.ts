import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The site's menus edited in the back office: one row per menu (the header's menus, the footer's
// columns, the footer's bottom links), its items an ordered JSON document. No row means the menu
// the code ships with, so a fresh or migrated database changes nothing visitors see. The revision
// lets a form notice that someone else saved the menu since it was opened.

export function navigationMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("navigation_menus")
        .addColumn("menu", "text", (c) => c.primaryKey())
        .addColumn("items", t.json, (c) => c.notNull())
        .addColumn("revision", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("updated_by", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("navigation_menus").execute();
    },
  };
}
