import type { Kysely, Migration } from "kysely";
import type { Dialect } from "~/db/normalize";

// An application names the open position it was made for: the position's id and its title at the
// time (a position's title may change or the position go away; the desk still reads what the
// applicant saw). When a visitor applied to a position that was closed, unknown or never published,
// the application is kept as an open application and position_requested names what was asked for.
// A row without any of them is an open application, as every row stored before this migration.

const POSITION_COLUMNS = ["position_id", "position_title", "position_requested"] as const;

export function applicationPositionsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      for (const column of POSITION_COLUMNS)
        await db.schema.alterTable("career_applications").addColumn(column, "text").execute();
      // The desk filters and counts applications by position.
      await db.schema
        .createIndex("career_applications_position_idx")
        .on("career_applications")
        .columns(["position_id", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("career_applications_position_idx").execute();
      for (const column of [...POSITION_COLUMNS].reverse())
        await db.schema.alterTable("career_applications").dropColumn(column).execute();
    },
  };
}
