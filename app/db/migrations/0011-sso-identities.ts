import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Which person at an identity provider an account belongs to: the provider's issuer and its
// subject (`sub`), which the provider never reassigns, unlike an email address. One subject per
// account at each issuer, and one account per subject.

export function ssoIdentitiesMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("admin_sso_identities")
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("user_id", t.uuid, (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        // The address the provider gave when the link was made: for people reading the table.
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("last_used_at", t.timestamp)
        .addPrimaryKeyConstraint("admin_sso_identities_pkey", ["issuer", "subject"])
        .addUniqueConstraint("admin_sso_identities_user_issuer_key", ["user_id", "issuer"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("admin_sso_identities").execute();
    },
  };
}
