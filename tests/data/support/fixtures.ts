import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { PostFields } from "~/features/blog/db/post-editing.server";
import type { DemoRequestInput } from "~/features/leads/db/leads.server";
import type { Database } from "~/db/schema";

// Rows written the way an editor's tool would: straight into the table, bypassing the import.

export type PostRow = {
  id: string;
  slug: string | null;
  title: string;
  category: string;
  published_date: string;
  featured: boolean;
  published: boolean;
  image_url?: string | null;
};

export async function addPost(db: Kysely<Database>, values: Partial<PostRow> & { published_date: string }): Promise<PostRow> {
  const row: PostRow = {
    id: randomUUID(),
    slug: null,
    title: "A post",
    category: "Security",
    featured: false,
    published: true,
    ...values,
  };
  await db
    .insertInto("blog_posts")
    .values({ image_url: null, ...row, excerpt: `Excerpt of ${row.title}`, content: `Body of ${row.title}`, author: "Ada", read_time: 4 })
    .execute();
  return row;
}

export async function addLegal(
  db: Kysely<Database>,
  values: { document_type: string; last_updated: string; published: boolean; version?: string; title?: string; content?: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("legal_documents")
    .values({
      id,
      title: values.title ?? `${values.document_type} ${values.last_updated}`,
      content: values.content ?? JSON.stringify({ sections: [{ title: "One", content: "Text" }] }),
      ...values,
    })
    .execute();
  return id;
}

/** A demo request as the form pipeline hands it to the data layer. */
export const demo: DemoRequestInput = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  company: "Analytical Engines",
  job_title: "",
  phone: "",
  company_size: "51-200",
  message: "",
  product_name: "Sentinel",
  source_page: "/request-demo",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the post editor submits for a published post, as the editing functions take it. */
export function postFields(overrides: Partial<PostFields> = {}): PostFields {
  return {
    title: "A post",
    slug: "a-post",
    excerpt: "Excerpt",
    content: "Body text.",
    category: "Research",
    author: "Ada",
    published_date: "2025-06-01T00:00:00.000Z",
    read_time: 1,
    read_time_manual: false,
    image_url: null,
    featured: false,
    published: true,
    ...overrides,
  };
}

