import { getDb } from "~/db/index.server";
import type { PublishedPage } from "~/features/pages/page-documents.server";
import { findHeldPage } from "~/features/pages/published-pages.server";
import { validatePageDocument, describeProblem, type PageDocument } from "~/features/pages/page-document.server";
import { failed, loaded, notFound, type LoadResult } from "~/platform/load-result";
import { logger } from "~/platform/logger.server";

// Where the public pages come from: the content core's published pages (content_documents), held
// in memory by each server (~/features/pages/published-pages.server), each checked by the block
// registry before it is drawn. A stored page whose blocks fail their
// schema answers the error state; the rest of the site keeps working.

/** Checked pages by id and publication, so an unchanged page is checked (and its blocks drawn) once per server. */
const checked = new Map<string, LoadResult<CheckedPage>>();
const MAX_CHECKED = 500;

/** A published page as checked, with its id (which names its social card). */
export type CheckedPage = { id: string; page: PageDocument };

function check(stored: PublishedPage, requestId: string): LoadResult<CheckedPage> {
  const key = `${stored.id}:${stored.publishedAt}:${stored.path}`;
  const known = checked.get(key);
  if (known) return known;
  const { id: _id, publishedAt: _publishedAt, ...page } = stored;
  const result = validatePageDocument(page);
  const answer = result.ok ? loaded({ id: stored.id, page: result.page }) : failed(500, "The page's content is not valid.");
  if (!result.ok)
    logger.error({ requestId, path: stored.path, problems: result.problems.map(describeProblem) }, "page content is not valid");
  if (checked.size >= MAX_CHECKED) checked.clear();
  checked.set(key, answer);
  return answer;
}

/** The published page at `pagePath`: not-found when there is none, failed (500) when its content is not valid, 503 when the database fails before any page was read. */
export async function loadPublishedPage(pagePath: string, requestId = ""): Promise<LoadResult<CheckedPage>> {
  let stored;
  try {
    stored = await findHeldPage(getDb(), pagePath);
  } catch (error) {
    logger.error({ requestId, err: error, path: pagePath }, "page could not be read");
    return failed(503);
  }
  return stored ? check(stored, requestId) : notFound();
}
