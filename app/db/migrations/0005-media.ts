import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Images uploaded in the back office, kept in the database itself so every server has them
// without a shared disk. A row's bytes never change (metadata already stripped when stored); only
// its alt text does. Each server makes the responsive variants from them and keeps those on its disk.

export function mediaMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("media")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        // The file name in the image's URL (letters, digits and hyphens), from the uploaded name.
        .addColumn("file_name", "text", (c) => c.notNull())
        .addColumn("original_name", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("content_type", "text", (c) =>
          c.notNull().check(sql`content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/avif')`),
        )
        .addColumn("width", "integer", (c) => c.notNull().check(sql`width > 0`))
        .addColumn("height", "integer", (c) => c.notNull().check(sql`height > 0`))
        .addColumn("has_alpha", t.bool, (c) => c.notNull().defaultTo(t.false))
        .addColumn("bytes", "integer", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull())
        .addColumn("alt", "text", (c) => c.notNull().check(sql`length(alt) > 0`))
        .addColumn("data", t.bytes, (c) => c.notNull())
        .addColumn("created_by", t.uuid, (c) => c.references("admin_users.id").onDelete("set null"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      await db.schema.createIndex("media_created_idx").on("media").columns(["created_at", "id"]).execute();
    },
  };
}
