import type { Kysely } from "kysely";
import { dialectOf } from "~/db/normalize";
import { toBlogPost, type BlogPost } from "~/features/blog/db/posts.server";
import type { Database } from "~/db/schema";

// The content export's reads: every row of the content tables, whatever its state, in one
// consistent snapshot. Writing the files is app/features/content/content-export.server.ts's job.

/** Runs `work` in one read-only snapshot: every read sees the database at one moment, while servers keep writing. */
export function inReadSnapshot<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  // SQLite's transaction is a snapshot already (WAL readers see the database as it was when they began).
  const transaction = dialectOf(db) === "postgres" ? db.transaction().setIsolationLevel("repeatable read") : db.transaction();
  return transaction.execute(work);
}

/** Every post (drafts, scheduled and published), by slug, slugless posts by id after them. */
export async function listAllPosts(db: Kysely<Database>): Promise<BlogPost[]> {
  const rows = await db.selectFrom("blog_posts").selectAll().orderBy("slug").orderBy("id").execute();
  return rows.map(toBlogPost);
}
