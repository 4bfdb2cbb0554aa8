import type { Kysely } from "kysely";
import { getEnv } from "~/env.server";
import type { Database } from "~/db/schema";
import { insertPurge } from "~/features/cdn/db/purges.server";
import { surrogateKeyList } from "~/features/cdn/surrogate-keys";

export { pendingCdnPurges } from "~/features/cdn/db/purges.server";

// What the publishing code calls: a purge of the keys a change touched, written into the outbox in
// the change's own transaction (so a change is never stored without its purge, nor a purge without
// its change). Without CDN_PURGE_URL there is no CDN to tell and nothing is written.

/** Whether purges are sent (CDN_PURGE_URL is set). */
export function cdnPurgingOn(): boolean {
  return Boolean(getEnv().CDN_PURGE_URL);
}

/**
 * Purges `keys` once the transaction `trx` commits: at once, or at `at` when that is later (a
 * scheduled publish shows by itself then; the copies the CDN kept until that moment are dropped at it).
 */
export async function enqueueCdnPurge(
  trx: Kysely<Database>,
  keys: Iterable<string>,
  options: { at?: string } = {},
): Promise<void> {
  if (!cdnPurgingOn()) return;
  const at = options.at && Date.parse(options.at) > Date.now() ? new Date(options.at).toISOString() : undefined;
  await insertPurge(trx, surrogateKeyList(keys), at);
}
