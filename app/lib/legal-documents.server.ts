import { getDb } from "~/lib/db/index.server";
import { findLegalDocument, isValidLegalContent, type LegalDocumentType } from "~/lib/db/legal.server";
import { failed, loaded, notFound, type LoadResult } from "~/lib/load-result";
import { logger } from "~/lib/logger.server";

export type LegalSection = { title: string; paragraphs: string[] };

export type LegalDocumentView = {
  title: string;
  version: string;
  lastUpdated: string;
  sections: LegalSection[];
};

export const INVALID_CONTENT_REASON = "Invalid document content structure";

/**
 * The newest published document of a type, checked against the legal content structure
 * (`{"sections":[{"title","content"}, ...]}`). Never throws: none published is not-found (404),
 * a database error failed (503), bad content failed with the reason shown (500).
 */
export async function loadLegalDocument(type: LegalDocumentType, requestId: string): Promise<LoadResult<LegalDocumentView>> {
  let row;
  try {
    row = await findLegalDocument(getDb(), type);
  } catch (error) {
    logger.error({ requestId, err: error, documentType: type }, "legal document could not be read");
    return failed(503);
  }
  if (!row) return notFound();
  if (!isValidLegalContent(row.content)) {
    logger.error({ requestId, documentId: row.id, documentType: type }, INVALID_CONTENT_REASON);
    return failed(500, INVALID_CONTENT_REASON);
  }
  return loaded({
    title: row.title,
    version: row.version || "1.0",
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
