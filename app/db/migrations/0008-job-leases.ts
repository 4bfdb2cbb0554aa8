import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Background jobs that must run on one server at a time (the daily retention purge) take a lease
// on their row here: which server holds it (a random token) and until when, and when the job last
// ran to the end, so that every server knows whether it is due.

export function jobLeasesMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("job_leases")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("locked_by", "text")
        .addColumn("locked_until", t.timestamp)
        .addColumn("last_run_at", t.timestamp)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("job_leases").execute();
    },
  };
}
