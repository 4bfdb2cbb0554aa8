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

/** A post with its language and, for a translation, its source's slug. */
export type ExportedPost = BlogPost & { locale: string; translationOf: string | null };

/** Every post (drafts, scheduled and published), by slug, slugless posts by id after them. */
export async function listAllPosts(db: Kysely<Database>): Promise<ExportedPost[]> {
  const rows = await db.selectFrom("blog_posts").selectAll().orderBy("slug").orderBy("id").execute();
  const slugs = new Map(rows.map((row) => [row.id, row.slug]));
  return rows.map((row) => ({
    ...toBlogPost(row),
    locale: row.locale,
    // A source without a slug cannot be named in a file: its translations are written as originals.
    translationOf: (row.translation_of && slugs.get(row.translation_of)) ?? null,
  }));
}
