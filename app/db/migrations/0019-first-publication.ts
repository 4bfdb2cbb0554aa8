import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// When visitors first saw a document of the core since it was last taken off the site: a job
// posting's date is the day it was first posted, not the day of its latest correction. Documents
// published before this migration take the time of the version visitors see now, the best known.

export function firstPublicationMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const t = columnTypes(dialect);
      await db.schema.alterTable("content_documents").addColumn("first_published_at", t.timestamp).execute();
      await sql`update content_documents set first_published_at = published_at where published_at is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("content_documents").dropColumn("first_published_at").execute();
    },
  };
}
