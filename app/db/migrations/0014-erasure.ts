import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Erasures every server must apply to what it keeps outside the database (its lead spool): the
// erased address's hash (the same SHA-256 the audit log names it by, never the address) and when.

export function erasureMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("subject_erasures")
        .addColumn("subject_hash", "text", (c) => c.primaryKey())
        .addColumn("erased_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("subject_erasures_erased_at").on("subject_erasures").column("erased_at").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("subject_erasures").execute();
    },
  };
}
