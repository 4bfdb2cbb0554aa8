import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The language of every row visitors read or write: a document, a post, a legal version, a lead.
// A new column with a default, so a row written without one (an operator's tool, an import of the
// earlier format, every row before this migration) is English exactly as before. A translation
// names its source document and the source's revision it was made from: when the source moves
// past that revision, the translation is outdated.

/** The tables whose rows are in one language; each keeps its name and its earlier columns. */
export const LOCALE_TABLES = [
  "content_documents",
  "blog_posts",
  "legal_documents",
  "sales_leads",
  "demo_requests",
  "career_applications",
] as const;

export function localesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const t = columnTypes(dialect);
      for (const table of LOCALE_TABLES)
        await db.schema
          .alterTable(table)
          .addColumn("locale", "text", (column) => column.notNull().defaultTo("en"))
          .execute();
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable("content_documents").addColumn("translation_of", t.uuid).execute();
      await db.schema.alterTable("content_documents").addColumn("source_revision", "integer").execute();
      await db.schema.createIndex("content_documents_translation_idx").on("content_documents").column("translation_of").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("content_documents_translation_idx").execute();
      await db.schema.alterTable("content_documents").dropColumn("source_revision").execute();
      await db.schema.alterTable("content_documents").dropColumn("translation_of").execute();
      for (const table of [...LOCALE_TABLES].reverse()) await db.schema.alterTable(table).dropColumn("locale").execute();
    },
  };
}
