import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "~/db/migrations/column-types";
import { toIso, type Dialect } from "~/db/normalize";

// One content core for every kind of content. Its revisions are one table for every type: the
// posts' revisions move into it with their numbers (audit entries name them by post and number),
// and legal drafts keep revisions there from now on, starting with each open draft as it stands.
// Types without a table of their own (pages) are rows of content_documents: a draft that editors
// change, and apart from it what visitors see, so an edit shows only once it is published.
//
// blog_post_revisions becomes a view of the posts' rows, so SQL written against it keeps reading
// (and, through the view, correcting) the same revisions. blog_posts, blog_slug_redirects and
// legal_documents are not touched: the public site and tools outside it read them as before.

type LegalDraftRow = {
  id: string;
  document_type: string;
  title: string;
  content: unknown;
  last_updated: unknown;
  version: string;
  change_summary: string;
  author_email: string;
  edited_at: unknown;
  created_at: unknown;
  revision: number | string;
};

export function contentCoreMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // SQLite runs migrations outside a transaction (PostgreSQL inside one): the copy and the
      // drop must happen together or not at all.
      if (dialect === "postgres") await up(db, dialect);
      else await db.transaction().execute((trx) => up(trx, dialect));
    },
    async down(db: Kysely<unknown>) {
      const t = columnTypes(dialect);
      if (dialect === "sqlite") await sql`drop trigger if exists blog_post_revisions_update`.execute(db);
      await sql`drop view blog_post_revisions`.execute(db);
      await db.schema
        .createTable("blog_post_revisions")
        .addColumn("post_id", t.uuid, (c) => c.notNull().references("blog_posts.id").onDelete("cascade"))
        .addColumn("number", "integer", (c) => c.notNull())
        .addColumn("snapshot", t.json, (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("author_id", t.uuid, (c) => c.references("admin_users.id").onDelete("set null"))
        .addColumn("author_email", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addPrimaryKeyConstraint("blog_post_revisions_pkey", ["post_id", "number"])
        .execute();
      await sql`insert into blog_post_revisions (post_id, number, snapshot, summary, author_id, author_email, created_at)
        select r.document_id, r.number, r.snapshot, r.summary, r.author_id, r.author_email, r.created_at
        from content_revisions r join blog_posts p on p.id = r.document_id where r.type = 'post'`.execute(db);
      await db.schema.dropTable("content_documents").execute();
      await db.schema.dropTable("content_revisions").execute();
    },
  };
}

async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable("content_revisions")
    // A registry type (post, legal, page...) and the id of its document in the type's storage.
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("document_id", t.uuid, (c) => c.notNull())
    // 1, 2, 3... per document. The key makes two saves based on the same revision collide, on any
    // number of servers: the second one fails and is told of the first.
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("snapshot", t.json, (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("author_id", t.uuid, (c) => c.references("admin_users.id").onDelete("set null"))
    .addColumn("author_email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addPrimaryKeyConstraint("content_revisions_pkey", ["type", "document_id", "number"])
    .execute();

  await db.schema
    .createTable("content_documents")
    .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
    .addColumn("type", "text", (c) => c.notNull())
    // The draft: what the editor saved last, its path included. Visitors never see it.
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("draft", t.json, (c) => c.notNull())
    // What visitors see now, and since when; null while never published or once unpublished.
    .addColumn("published", t.json)
    .addColumn("published_path", "text")
    .addColumn("published_at", t.timestamp)
    // A published version waiting for its time: from publish_at on, every public read shows it
    // instead of `published` (the read compares with the clock; nothing has to run at that time).
    .addColumn("scheduled", t.json)
    .addColumn("scheduled_path", "text")
    .addColumn("publish_at", t.timestamp)
    .addColumn("unpublished_at", t.timestamp)
    // draft (never published), published (live or scheduled), unpublished (taken off the site).
    .addColumn("state", "text", (c) => c.notNull().defaultTo("draft"))
    // The newest revision's number in content_revisions: a form carries the one it was made from.
    .addColumn("revision", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("created_by_email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_by_email", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  // A path names one document, drafted, published or scheduled (nulls do not collide).
  await db.schema.createIndex("content_documents_path_idx").on("content_documents").column("path").unique().execute();
  await db.schema
    .createIndex("content_documents_published_path_idx")
    .on("content_documents")
    .column("published_path")
    .unique()
    .execute();
  await db.schema
    .createIndex("content_documents_scheduled_path_idx")
    .on("content_documents")
    .column("scheduled_path")
    .unique()
    .execute();
  await db.schema.createIndex("content_documents_list_idx").on("content_documents").columns(["type", "updated_at"]).execute();

  // Every post revision, with its number, author and time.
  await sql`insert into content_revisions (type, document_id, number, snapshot, summary, author_id, author_email, created_at)
    select 'post', post_id, number, snapshot, summary, author_id, author_email, created_at from blog_post_revisions`.execute(db);
  await db.schema.dropTable("blog_post_revisions").execute();
  await sql`create view blog_post_revisions as
    select document_id as post_id, number, snapshot, summary, author_id, author_email, created_at
    from content_revisions where type = 'post'`.execute(db);
  // PostgreSQL updates a view this simple by itself; SQLite needs to be told how.
  if (dialect === "sqlite") {
    await sql`create trigger blog_post_revisions_update instead of update on blog_post_revisions
      begin
        update content_revisions set snapshot = new.snapshot, summary = new.summary, author_id = new.author_id,
          author_email = new.author_email, created_at = new.created_at
        where type = 'post' and document_id = old.post_id and number = old.number;
      end`.execute(db);
  }

  // Each open legal draft starts its history as it stands, numbered after its save counter.
  const drafts = (
    await sql<LegalDraftRow>`select id, document_type, title, content, last_updated, version, change_summary, author_email,
      edited_at, created_at, revision from legal_documents where published = ${dialect === "postgres" ? sql`false` : sql`0`}`.execute(
      db,
    )
  ).rows;
  for (const row of drafts) {
    const snapshot = {
      document_type: row.document_type,
      title: row.title,
      version: row.version || "1.0",
      effective_date: toIso(row.last_updated),
      change_summary: row.change_summary,
      sections: sectionsOf(row.content),
    };
    await sql`insert into content_revisions (type, document_id, number, snapshot, summary, author_id, author_email, created_at)
      values ('legal', ${row.id}, ${Number(row.revision) + 1}, ${JSON.stringify(snapshot)}, ${"As it was when revisions began"},
        null, ${row.author_email}, ${toIso(row.edited_at ?? row.created_at)})`.execute(db);
  }
}

/** The sections of a stored legal document, as far as they can be read. */
function sectionsOf(content: unknown): { title: string; content: string }[] {
  let value = content;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const sections = (value as { sections?: unknown } | null)?.sections;
  if (!Array.isArray(sections)) return [];
  return sections.map((section: unknown) => {
    const { title, content: text } = (section ?? {}) as { title?: unknown; content?: unknown };
    return { title: typeof title === "string" ? title : "", content: typeof text === "string" ? text : "" };
  });
}
