import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Redirects kept by editors: an old address answers with a redirect to a page of the site or an
// https address, or with 410 Gone. A post's old slugs stay in blog_slug_redirects (they follow the
// post wherever it moves); both count how often they were used.

export function redirectsMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("redirects")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        // The old address in the form the server reads paths (canonical: see canonicalPath).
        .addColumn("from_path", "text", (c) => c.notNull().unique())
        // A site path (with its query, if any) or an https URL; '' for a gone address.
        .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
        // 'permanent' (301), 'temporary' (302) or 'gone' (410).
        .addColumn("kind", "text", (c) => c.notNull())
        // 'editor', 'page-move'.
        .addColumn("source", "text", (c) => c.notNull().defaultTo("editor"))
        .addColumn("hits", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_used_at", t.timestamp)
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("created_by", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("updated_by", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("redirects_target_idx").on("redirects").column("target").execute();

      await db.schema
        .alterTable("blog_slug_redirects")
        .addColumn("hits", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("blog_slug_redirects").addColumn("last_used_at", t.timestamp).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("blog_slug_redirects").dropColumn("last_used_at").execute();
      await db.schema.alterTable("blog_slug_redirects").dropColumn("hits").execute();
      await db.schema.dropTable("redirects").execute();
    },
  };
}
