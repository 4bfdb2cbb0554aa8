import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Legal documents edited in the back office. A version stays one row of legal_documents (drafts are
// its unpublished rows, as they always were); these columns record what the editor adds: why the
// version was made, by whom, when it went live, and a revision counter that lets a form notice that
// someone else saved the draft since it was opened. The effective date is the existing
// last_updated. Every column has a constant default, so rows written by other tools still insert.

export function legalEditingMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  const columns: [name: string, add: (db: Kysely<unknown>) => Promise<void>][] = [
    ["change_summary", (db) => addText(db, "change_summary")],
    ["author_email", (db) => addText(db, "author_email")],
    // SQLite cannot add a column whose default is an expression (now): null means "never saved here".
    ["edited_at", (db) => db.schema.alterTable("legal_documents").addColumn("edited_at", t.timestamp).execute()],
    ["published_at", (db) => db.schema.alterTable("legal_documents").addColumn("published_at", t.timestamp).execute()],
    ["published_by_email", (db) => addText(db, "published_by_email")],
    [
      "revision",
      (db) =>
        db.schema
          .alterTable("legal_documents")
          .addColumn("revision", "integer", (c) => c.notNull().defaultTo(0))
          .execute(),
    ],
  ];
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      for (const [, add] of columns) await add(db);
    },
    async down(db: Kysely<unknown>) {
      for (const [name] of [...columns].reverse()) await db.schema.alterTable("legal_documents").dropColumn(name).execute();
    },
  };
}

function addText(db: Kysely<unknown>, name: string) {
  return db.schema
    .alterTable("legal_documents")
    .addColumn(name, "text", (c) => c.notNull().defaultTo(""))
    .execute();
}
