import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The outbox of CDN purges: one row per published change, naming the surrogate keys it touched,
// written in the change's own transaction and sent by a background job (deleted once the CDN took
// it). A scheduled publish's row is due at its moment; a failed send moves due_at later.

export function cdnPurgesMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("cdn_purges")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        // Space-separated, as the Surrogate-Key header lists them.
        .addColumn("surrogate_keys", "text", (c) => c.notNull())
        .addColumn("due_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        // A claim: which worker holds the row (a random token) and until when.
        .addColumn("locked_by", "text")
        .addColumn("locked_until", t.timestamp)
        .addColumn("last_error", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      await db.schema.createIndex("cdn_purges_due_idx").on("cdn_purges").column("due_at").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("cdn_purges").execute();
    },
  };
}
