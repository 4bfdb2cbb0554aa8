import type { Kysely, Migration } from "kysely";
import type { Dialect } from "~/db/normalize";

// The languages an invitation limits its person to, set on their account when it is accepted
// (admin_user_locales): comma-separated tags, as the roles beside them; empty, as every invitation
// made before, is every language.

export function invitationLocalesMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("admin_invitations")
        .addColumn("locales", "text", (column) => column.notNull().defaultTo(""))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("admin_invitations").dropColumn("locales").execute();
    },
  };
}
