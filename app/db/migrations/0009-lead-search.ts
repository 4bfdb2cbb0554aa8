import { sql, type Kysely, type Migration } from "kysely";
import type { Dialect } from "~/db/normalize";

// The lead inbox searches by prefix of a name, an email or a company, case-insensitively: one
// index per searched column on its lower-cased value. PostgreSQL's take text_pattern_ops so a LIKE
// 'prefix%' uses them whatever the database's collation; SQLite's are binary-ordered and answer a
// range (its lower(email) index came with migration 0007).

const SEARCHED: Record<string, readonly string[]> = {
  sales_leads: ["first_name", "last_name", "email", "company"],
  demo_requests: ["first_name", "last_name", "email", "company"],
  career_applications: ["first_name", "last_name", "email"],
};

export function leadSearchMigration(dialect: Dialect): Migration {
  const indexes = Object.entries(SEARCHED).flatMap(([table, columns]) =>
    columns
      .filter((column) => dialect === "postgres" || column !== "email")
      .map((column) => ({ table, column, name: `${table}_search_${column}_idx` })),
  );
  return {
    async up(db: Kysely<unknown>) {
      for (const { table, column, name } of indexes) {
        const operators = dialect === "postgres" ? sql` text_pattern_ops` : sql``;
        await sql`create index ${sql.id(name)} on ${sql.table(table)} (lower(${sql.ref(column)})${operators})`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const { name } of indexes) await db.schema.dropIndex(name).execute();
    },
  };
}
