import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Translations of the types with a table of their own, as the documents table has them since
// 0020-locales: a post or a legal version names its source (a post; for a legal document, the
// version of the governing document it translates) and the source's revision it was made from.
// And the languages a person may edit: no row, every language (as before); rows, only those.

export function translationsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const t = columnTypes(dialect);
      for (const table of ["blog_posts", "legal_documents"] as const) {
        await db.schema.alterTable(table).addColumn("translation_of", t.uuid).execute();
        await db.schema.alterTable(table).addColumn("source_revision", "integer").execute();
        await db.schema.createIndex(`${table}_translation_idx`).on(table).column("translation_of").execute();
      }
      await db.schema
        .createTable("admin_user_locales")
        .addColumn("user_id", t.uuid, (column) => column.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("locale", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("admin_user_locales_pk", ["user_id", "locale"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("admin_user_locales").execute();
      for (const table of ["legal_documents", "blog_posts"] as const) {
        await db.schema.dropIndex(`${table}_translation_idx`).execute();
        await db.schema.alterTable(table).dropColumn("source_revision").execute();
        await db.schema.alterTable(table).dropColumn("translation_of").execute();
      }
    },
  };
}
