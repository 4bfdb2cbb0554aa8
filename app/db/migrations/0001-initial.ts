import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from "kysely";
import { columnTypes as types } from "~/db/migrations/column-types";
import type { Dialect } from "~/db/normalize";

// The five tables (names and columns fixed: tools outside the site read them). One migration for both engines; only the column types and the
// default expressions differ, so they come from `types(dialect)`.

export function initialMigration(dialect: Dialect): Migration {
  const t = types(dialect);
  // SQLite stores booleans as integers: keep them to 0/1 like PostgreSQL keeps them boolean.
  const bool = (column: string) => (c: ColumnDefinitionBuilder) => {
    const defined = c.notNull().defaultTo(t.false);
    return dialect === "sqlite" ? defined.check(sql`${sql.ref(column)} in (0, 1)`) : defined;
  };

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("blog_posts")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("slug", "text", (c) => c.unique())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("excerpt", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("category", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("author", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("published_date", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("read_time", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("image_url", "text")
        .addColumn("featured", t.bool, bool("featured"))
        .addColumn("published", t.bool, bool("published"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      // Every public read filters on published and orders by published_date (id breaks ties).
      await db.schema
        .createIndex("blog_posts_published_date_idx")
        .on("blog_posts")
        .expression(sql`published, published_date desc, id desc`)
        .execute();
      await db.schema
        .createIndex("blog_posts_category_idx")
        .on("blog_posts")
        .expression(sql`published, category, published_date desc, id desc`)
        .execute();

      await db.schema
        .createTable("legal_documents")
        .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
        .addColumn("document_type", "text", (c) => c.notNull().check(sql`document_type in ('privacy-policy', 'terms-of-use')`))
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("content", t.json, (c) => c.notNull())
        .addColumn("last_updated", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .addColumn("version", "text", (c) => c.notNull().defaultTo("1.0"))
        .addColumn("published", t.bool, bool("published"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
        .execute();
      await db.schema
        .createIndex("legal_documents_type_idx")
        .on("legal_documents")
        .expression(sql`document_type, published, last_updated desc`)
        .execute();

      const leadTable = (name: string, productDefault: string | undefined, columns: string[]) => {
        let builder = db.schema
          .createTable(name)
          .addColumn("id", t.uuid, (c) => c.primaryKey().defaultTo(t.uuidDefault))
          .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now));
        for (const column of columns) {
          if (column === "years_experience") builder = builder.addColumn(column, "integer");
          else if (column === "product_name")
            builder = builder.addColumn(column, "text", (c) => c.notNull().defaultTo(productDefault ?? ""));
          else builder = builder.addColumn(column, "text", (c) => c.notNull().defaultTo(""));
        }
        return builder.execute();
      };
      const tracking = ["source_page", "utm_source", "utm_medium", "utm_campaign"];
      await leadTable("sales_leads", "General", [
        "first_name",
        "last_name",
        "email",
        "company",
        "phone",
        "message",
        "product_name",
        ...tracking,
      ]);
      await leadTable("demo_requests", "Sentinel", [
        "first_name",
        "last_name",
        "email",
        "company",
        "job_title",
        "phone",
        "company_size",
        "message",
        "product_name",
        ...tracking,
      ]);
      await leadTable("career_applications", undefined, [
        "first_name",
        "last_name",
        "email",
        "phone",
        "linkedin_profile",
        "years_experience",
        "current_position",
        "why_quorvant",
        "biggest_achievement",
        "work_style",
        "resume_url",
        ...tracking,
      ]);
      // The lead export reads "since a date", oldest first.
      for (const table of ["sales_leads", "demo_requests", "career_applications"]) {
        await db.schema.createIndex(`${table}_created_at_idx`).on(table).column("created_at").execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ["career_applications", "demo_requests", "sales_leads", "legal_documents", "blog_posts"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
