import type { Kysely } from "kysely";
import type { PageSnapshot } from "~/features/content/content-types";
import { heldDocuments } from "~/features/content/held-documents.server";
import type { PublishedPage } from "~/features/pages/page-documents.server";
import type { Database } from "~/db/schema";

// The published pages, held in memory by each server and watched for changes (decision 029;
// ~/features/content/held-documents.server), so that drawing a page asks the database nothing.

export { WATCH_MS } from "~/features/content/held-documents.server";

const pages = heldDocuments<PageSnapshot>("page", "published pages");

/**
 * The page visitors see at `path` at `now`, from memory. Throws only when the database fails and
 * nothing was ever read.
 */
export async function findHeldPage(
  db: Kysely<Database>,
  path: string,
  now: Date = new Date(),
): Promise<PublishedPage | undefined> {
  const live = await pages.find(db, path, now);
  return live && { ...live.data, id: live.id, publishedAt: live.since };
}

/** Every page visitors see at `now`, from memory: the same array until a page changes (read only). */
export function listHeldPages(db: Kysely<Database>, now: Date = new Date()) {
  return pages.list(db, now);
}

/** Drops what is held: the next page reads every page again (a test's fresh database). */
export function forgetHeldPages(): void {
  pages.forget();
}

export const publishedPagesWatchJob = pages.watchJob;
