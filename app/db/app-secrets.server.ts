import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

// Secrets the servers make for themselves when the operator has not set one, kept in the database
// so that every server sharing it uses the same value.

/** The secret named `name`: the stored one, or `make()`'s, stored by whichever server asks first. */
export async function sharedSecret(db: Kysely<Database>, name: string, make: () => string): Promise<string> {
  await db
    .insertInto("app_secrets")
    .values({ name, value: make(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}
