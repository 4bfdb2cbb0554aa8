import type { ColumnType, Kysely, Transaction } from "kysely";
import type { Database } from "~/lib/db/schema";

// The content core's tables (migration 0015-content-core), as Kysely sees them.

type Timestamp = ColumnType<Date | string, string | undefined, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;
type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
type Text = ColumnType<string, string | undefined, string>;

export interface ContentRevisionsTable {
  type: string;
  document_id: string;
  number: number;
  snapshot: Json;
  summary: Text;
  author_id: string | null;
  author_email: Text;
  created_at: Timestamp;
}

export interface ContentDocumentsTable {
  id: string;
  type: string;
  path: string;
  draft: Json;
  published: NullableJson;
  published_path: ColumnType<string | null, string | null | undefined, string | null>;
  published_at: NullableTimestamp;
  scheduled: NullableJson;
  scheduled_path: ColumnType<string | null, string | null | undefined, string | null>;
  publish_at: NullableTimestamp;
  unpublished_at: NullableTimestamp;
  state: ColumnType<string, string | undefined, string>;
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  created_by_email: Text;
  updated_at: Timestamp;
  updated_by_email: Text;
}

export type ContentDatabase = Database & {
  content_revisions: ContentRevisionsTable;
  content_documents: ContentDocumentsTable;
};

export type ContentDb = Kysely<ContentDatabase> | Transaction<ContentDatabase>;

/** The site's database seen with the core's tables. */
export function contentDb<T extends Kysely<Database>>(db: T): Kysely<ContentDatabase> {
  return db as unknown as Kysely<ContentDatabase>;
}
