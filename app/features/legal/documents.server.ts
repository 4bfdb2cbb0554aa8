import { getDb } from "~/db/index.server";
import {
  DEFAULT_LEGAL_VERSION,
  findLegalDocument,
  findLegalVersion,
  isValidLegalContent,
  LEGAL_SOURCE_LOCALE,
  listLegalVersions,
  type LegalDocumentRow,
  type LegalDocumentType,
} from "~/features/legal/db/legal.server";
import { failed, loaded, notFound, type LoadResult } from "~/platform/load-result";
import { INVALID_CONTENT_REASON, type LegalDocumentView, type LegalVersionView } from "~/features/legal/documents";
import { logger } from "~/platform/logger.server";

export { INVALID_CONTENT_REASON };

/**
 * The newest published document of a type in a language, checked against the legal content
 * structure (`{"sections":[{"title","content"}, ...]}`). Never throws: none published is not-found
 * (404), a database error failed (503), bad content failed with the reason shown (500). A
 * translation comes with the English version in force when that is newer than the one it translates.
 */
export async function loadLegalDocument(
  type: LegalDocumentType,
  requestId: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LoadResult<LegalDocumentView & { newerInSource?: LegalVersionView }>> {
  let row;
  let source;
  try {
    row = await findLegalDocument(getDb(), type, locale);
    if (row && locale !== LEGAL_SOURCE_LOCALE) source = await findLegalDocument(getDb(), type, LEGAL_SOURCE_LOCALE);
  } catch (error) {
    logger.error({ requestId, err: error, documentType: type, locale }, "legal document could not be read");
    return failed(503);
  }
  if (!row) return notFound();
  const view = toLegalDocumentView(row, requestId);
  if (view.state !== "loaded" || !source || source.id === row.translation_of) return view;
  return loaded({
    ...view.value,
    newerInSource: { version: source.version || DEFAULT_LEGAL_VERSION, lastUpdated: source.last_updated },
  });
}

/**
 * The published versions of a type in a language, newest first (the first is the current page's). Null when the
 * database failed: the history is secondary, so the page still shows its document.
 */
export async function loadLegalVersions(
  type: LegalDocumentType,
  requestId: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LegalVersionView[] | null> {
  try {
    const rows = await listLegalVersions(getDb(), type, locale);
    return rows.map((row) => ({ version: row.version, lastUpdated: row.last_updated }));
  } catch (error) {
    logger.error({ requestId, err: error, documentType: type }, "legal document versions could not be read");
    return null;
  }
}

export type SupersededLegalDocument = { document: LegalDocumentView; current: LegalVersionView };

/**
 * One earlier published version of a type in a language. The current version is not an earlier one: it answers
 * "current" (the page redirects to the document's own URL, the only address of the current text).
 * An unknown or unpublished version is not-found; a database error failed (503); bad content failed (500).
 */
export async function loadSupersededLegalDocument(
  type: LegalDocumentType,
  version: string,
  requestId: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LoadResult<SupersededLegalDocument> | { state: "current" }> {
  let versions;
  let row;
  try {
    [versions, row] = await Promise.all([
      listLegalVersions(getDb(), type, locale),
      findLegalVersion(getDb(), type, version, locale),
    ]);
  } catch (error) {
    logger.error({ requestId, err: error, documentType: type, version }, "legal document version could not be read");
    return failed(503);
  }
  const current = versions[0];
  if (!current || !row) return notFound();
  if (current.version === version) return { state: "current" };
  const view = toLegalDocumentView(row, requestId);
  if (view.state !== "loaded") return view;
  return loaded({ document: view.value, current: { version: current.version, lastUpdated: current.last_updated } });
}

/**
 * A row as the public page shows it, after the page's own content check. The back office's
 * preview renders drafts through this too, so a preview fails exactly where the page would.
 */
export function toLegalDocumentView(
  row: Pick<LegalDocumentRow, "id" | "document_type" | "title" | "content" | "version" | "last_updated">,
  requestId: string,
): LoadResult<LegalDocumentView> {
  if (!isValidLegalContent(row.content)) {
    logger.error({ requestId, documentId: row.id, documentType: row.document_type }, INVALID_CONTENT_REASON);
    return failed(500, INVALID_CONTENT_REASON);
  }
  return loaded({
    title: row.title,
    version: row.version || DEFAULT_LEGAL_VERSION,
    lastUpdated: row.last_updated,
    sections: row.content.sections.map((section) => ({
      title: section.title,
      // Plain text only: paragraphs are split on blank lines, nothing is interpreted as HTML.
      paragraphs: section.content
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean),
    })),
  });
}
