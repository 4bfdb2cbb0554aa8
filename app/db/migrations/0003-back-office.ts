import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The back office's tables: the people who run the site, their roles and passkeys, their sessions
// (in the database, so every server knows them), single-use invitations, the short-lived state of
// a sign-in ceremony, the audit log, and secrets the servers generate once and share.

export function backOfficeMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("admin_users")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        // Stored lower-case: one person, one row, however the address was typed.
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("display_name", "text", (c) => c.notNull().defaultTo(""))
        // Who decides this person's roles: owners in the back office, or the identity provider's groups.
        .addColumn("roles_source", "text", (c) =>
          c
            .notNull()
            .defaultTo("back-office")
            .check(sql`roles_source in ('back-office', 'identity-provider')`),
        )
        .addColumn("disabled_at", t.timestamp)
        .addColumn("last_sign_in_at", t.timestamp)
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();

      await db.schema
        .createTable("admin_user_roles")
        .addColumn("user_id", t.uuid, (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("admin_user_roles_pkey", ["user_id", "role"])
        .execute();

      await db.schema
        .createTable("admin_passkeys")
        // The credential id (base64url) the authenticator names in every assertion.
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", t.uuid, (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("public_key", "text", (c) => c.notNull())
        // The signature counter can reach 2^32 - 1, past PostgreSQL's integer.
        .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("transports", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("device_type", "text", (c) => c.notNull().defaultTo("singleDevice"))
        .addColumn("backed_up", t.bool, (c) => c.notNull().defaultTo(t.false))
        .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("last_used_at", t.timestamp)
        .execute();
      await db.schema.createIndex("admin_passkeys_user_idx").on("admin_passkeys").column("user_id").execute();

      await db.schema
        .createTable("admin_sessions")
        // SHA-256 of the token in the cookie: a copy of this table opens no session.
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", t.uuid, (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("auth_method", "text", (c) => c.notNull().check(sql`auth_method in ('passkey', 'sso')`))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("last_seen_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        // When the person last proved who they are (sign-in or confirmation): destructive actions need it recent.
        .addColumn("authenticated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("csrf_secret", "text", (c) => c.notNull())
        .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("user_agent", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("data", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .execute();
      await db.schema.createIndex("admin_sessions_user_idx").on("admin_sessions").column("user_id").execute();
      await db.schema.createIndex("admin_sessions_expires_idx").on("admin_sessions").column("expires_at").execute();

      await db.schema
        .createTable("admin_invitations")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("roles", "text", (c) => c.notNull())
        // Null when made on the command line.
        .addColumn("created_by", t.uuid)
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("accepted_at", t.timestamp)
        .addColumn("revoked_at", t.timestamp)
        .execute();
      await db.schema.createIndex("admin_invitations_email_idx").on("admin_invitations").column("email").execute();

      // A passkey ceremony's challenge, or a single sign-on round trip's state, nonce and PKCE verifier:
      // kept here so that whichever server the browser comes back to can finish it, and used once.
      await db.schema
        .createTable("admin_sign_in_states")
        .addColumn("id", t.uuid, (c) => c.primaryKey())
        .addColumn("purpose", "text", (c) => c.notNull())
        .addColumn("payload", t.json, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("admin_sign_in_states_expires_idx").on("admin_sign_in_states").column("expires_at").execute();

      await db.schema
        .createTable("audit_log")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        // No foreign key: the log outlives whatever it names.
        .addColumn("actor_id", t.uuid)
        .addColumn("actor_email", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target_type", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("target_id", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("details", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      // The log page reads newest first, by person and by action.
      await db.schema
        .createIndex("audit_log_created_idx")
        .on("audit_log")
        .expression(sql`created_at desc, id desc`)
        .execute();
      await db.schema
        .createIndex("audit_log_actor_idx")
        .on("audit_log")
        .expression(sql`actor_id, created_at desc, id desc`)
        .execute();
      await db.schema
        .createIndex("audit_log_action_idx")
        .on("audit_log")
        .expression(sql`action, created_at desc, id desc`)
        .execute();
      // Append-only in the database itself, whatever code runs against it.
      if (dialect === "postgres") {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit_log is append-only'; end $$`.execute(db);
        await sql`create trigger audit_log_append_only before update or delete on audit_log
          for each row execute function audit_log_append_only()`.execute(db);
        await sql`create trigger audit_log_no_truncate before truncate on audit_log
          for each statement execute function audit_log_append_only()`.execute(db);
      } else {
        await sql`create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      }

      await db.schema
        .createTable("app_secrets")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
    },
  };
}
