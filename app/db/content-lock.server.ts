import { sql, type Kysely } from "kysely";
import { dialectOf } from "~/db/normalize";
import type { Database } from "~/db/schema";

/**
 * Writers of the content tables that must check before they write (the import and its start-up
 * seed, the legal editor's version numbers and publishing) take this lock first in their
 * transaction, so two servers sharing PostgreSQL, or a server and the import command, run one
 * after the other. PostgreSQL: a transaction-scoped advisory lock (released at commit or rollback);
 * SQLite: its one write lock, taken up front by a write that touches no row.
 */
export async function lockContentWrites(trx: Kysely<Database>): Promise<void> {
  if (!trx.isTransaction) return;
  if (dialectOf(trx) === "postgres") await sql`select pg_advisory_xact_lock(${sql.lit(0x51c0ae7)})`.execute(trx);
  else await sql`update blog_posts set id = id where 1 = 0`.execute(trx);
}
