import type { Kysely, Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// Posts edited in the back office: every save keeps a revision (a snapshot of the post's fields,
// who saved it and why), a published post's old slugs keep answering with a redirect to its
// current address, and a post taken off the site is told apart from one never published.

export function postEditingMigration(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("blog_posts").addColumn("unpublished_at", t.timestamp).execute();

      await db.schema
        .createTable("blog_post_revisions")
        .addColumn("post_id", t.uuid, (c) => c.notNull().references("blog_posts.id").onDelete("cascade"))
        // 1, 2, 3... per post. The key makes two saves based on the same revision collide, on any
        // number of servers: the second one fails and is told of the first.
        .addColumn("number", "integer", (c) => c.notNull())
        .addColumn("snapshot", t.json, (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("author_id", t.uuid, (c) => c.references("admin_users.id").onDelete("set null"))
        .addColumn("author_email", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addPrimaryKeyConstraint("blog_post_revisions_pkey", ["post_id", "number"])
        .execute();

      await db.schema
        .createTable("blog_slug_redirects")
        // An address a post had: it answers with a permanent redirect to wherever the post is now.
        .addColumn("slug", "text", (c) => c.primaryKey())
        .addColumn("post_id", t.uuid, (c) => c.notNull().references("blog_posts.id").onDelete("cascade"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      await db.schema.createIndex("blog_slug_redirects_post_idx").on("blog_slug_redirects").column("post_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("blog_slug_redirects").execute();
      await db.schema.dropTable("blog_post_revisions").execute();
      await db.schema.alterTable("blog_posts").dropColumn("unpublished_at").execute();
    },
  };
}
