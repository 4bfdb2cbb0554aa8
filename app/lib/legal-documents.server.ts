import { getDb } from "~/lib/db/index.server";
import { findLegalDocument, isValidLegalContent, type LegalDocumentType } from "~/lib/db/legal.server";
import { logger } from "~/lib/logger.server";

export type LegalSection = { title: string; paragraphs: string[] };

export type LegalDocumentView = {
  title: string;
  version: string;
  lastUpdated: string;
  sections: LegalSection[];
};

/** Why a legal page could not show its document; each maps to a status crawlers understand. */
export type LegalFailure = "missing" | "invalid" | "unavailable";

export const legalFailureStatus: Record<LegalFailure, number> = { missing: 404, invalid: 500, unavailable: 503 };

export const INVALID_CONTENT_REASON = "Invalid document content structure";

/**
 * The newest published document of a type, checked against SPEC.md §5's structure.
 * Never throws: a database error or bad content becomes a failure the page can show.
 */
export async function loadLegalDocument(
  type: LegalDocumentType,
  requestId: string,
): Promise<{ document: LegalDocumentView } | { failure: LegalFailure }> {
  let row;
  try {
    row = await findLegalDocument(getDb(), type);
  } catch (error) {
    logger.error({ requestId, err: error, documentType: type }, "legal document could not be read");
    return { failure: "unavailable" };
  }
  if (!row) return { failure: "missing" };
  if (!isValidLegalContent(row.content)) {
    logger.error({ requestId, documentId: row.id, documentType: type }, INVALID_CONTENT_REASON);
    return { failure: "invalid" };
  }
  return {
    document: {
      title: row.title,
      version: row.version || "1.0",
      lastUpdated: row.last_updated,
      sections: row.content.sections.map((section) => ({
        title: section.title,
        // Plain text only: paragraphs are split on blank lines, nothing is interpreted as HTML.
        paragraphs: section.content.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean),
      })),
    },
  };
}
