import type { Kysely } from "kysely";
import { toBool, toIso } from "~/lib/db/normalize";
import type { Database } from "~/lib/db/schema";

export type LegalDocumentType = "privacy-policy" | "terms-of-use";
export const legalDocumentTypes: readonly LegalDocumentType[] = ["privacy-policy", "terms-of-use"];

export type LegalSection = { title: string; content: string };
export type LegalContent = { sections: LegalSection[] };

export type LegalDocumentRow = {
  id: string;
  document_type: LegalDocumentType;
  title: string;
  /** Parsed JSON when it parses, else the raw string: the page decides what to do with bad content. */
  content: unknown;
  last_updated: string;
  version: string;
  published: boolean;
  created_at: string;
};

/** Legal content is a sections array whose items all have a string title and a string content. */
export function isValidLegalContent(content: unknown): content is LegalContent {
  if (typeof content !== "object" || content === null) return false;
  const sections = (content as { sections?: unknown }).sections;
  return (
    Array.isArray(sections) &&
    sections.every(
      (section: unknown) =>
        typeof section === "object" &&
        section !== null &&
        typeof (section as LegalSection).title === "string" &&
        typeof (section as LegalSection).content === "string",
    )
  );
}

/** jsonb arrives parsed from pg; SQLite hands back the JSON text. */
export function parseLegalContent(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The newest published document of a type is the one with the latest last_updated. */
export async function findLegalDocument(db: Kysely<Database>, type: LegalDocumentType): Promise<LegalDocumentRow | undefined> {
  const row = await db
    .selectFrom("legal_documents")
    .selectAll()
    .where("document_type", "=", type)
    .where("published", "=", true)
    .orderBy("last_updated", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    document_type: row.document_type as LegalDocumentType,
    title: row.title,
    content: parseLegalContent(row.content),
    last_updated: toIso(row.last_updated),
    version: row.version,
    published: toBool(row.published),
    created_at: toIso(row.created_at),
  };
}
