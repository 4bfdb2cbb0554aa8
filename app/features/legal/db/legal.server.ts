import type { Kysely, Selectable } from "kysely";
import { toBool, toIso } from "~/db/normalize";
import type { Database, LegalDocumentsTable } from "~/db/schema";
import type { LegalDocumentType } from "~/features/legal/documents";

export type { LegalDocumentType };
export const legalDocumentTypes: readonly LegalDocumentType[] = ["privacy-policy", "terms-of-use"];

export type LegalSection = { title: string; content: string };
export type LegalContent = { sections: LegalSection[] };

/** The governing language: every other language's version translates one of its versions. */
export const LEGAL_SOURCE_LOCALE = "en";

export type LegalDocumentRow = {
  id: string;
  locale: string;
  /** A translation's English version (its id); null for an English row. */
  translation_of: string | null;
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

/** A published version as the history lists it: no title, no content. */
export type LegalVersionRow = { version: string; last_updated: string };

// "Newest" has one meaning for the current page, the history and the version pages: the latest
// last_updated, then the higher version (text order), then the row created last.

/** The newest published document of a type in a language is the one with the latest last_updated. */
export async function findLegalDocument(
  db: Kysely<Database>,
  type: LegalDocumentType,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LegalDocumentRow | undefined> {
  const row = await db
    .selectFrom("legal_documents")
    .selectAll()
    .where("document_type", "=", type)
    .where("locale", "=", locale)
    .where("published", "=", true)
    .orderBy("last_updated", "desc")
    .orderBy("version", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toLegalDocumentRow(row) : undefined;
}

/**
 * Every published version of a type, newest first, each once: versions are told apart by
 * `version`, and when rows share one (the database does not forbid it) the newest row stands for it.
 * A row without a version is version 1.0, as on the page.
 */
export async function listLegalVersions(
  db: Kysely<Database>,
  type: LegalDocumentType,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LegalVersionRow[]> {
  const rows = await db
    .selectFrom("legal_documents")
    .select(["version", "last_updated"])
    .where("document_type", "=", type)
    .where("locale", "=", locale)
    .where("published", "=", true)
    .orderBy("last_updated", "desc")
    .orderBy("version", "desc")
    .orderBy("created_at", "desc")
    .execute();
  const seen = new Set<string>();
  const versions: LegalVersionRow[] = [];
  for (const row of rows) {
    const version = row.version || DEFAULT_LEGAL_VERSION;
    if (seen.has(version)) continue;
    seen.add(version);
    versions.push({ version, last_updated: toIso(row.last_updated) });
  }
  return versions;
}

/** The newest published row of one version of a type in a language (unpublished rows are never found). */
export async function findLegalVersion(
  db: Kysely<Database>,
  type: LegalDocumentType,
  version: string,
  locale = LEGAL_SOURCE_LOCALE,
): Promise<LegalDocumentRow | undefined> {
  const stored = version === DEFAULT_LEGAL_VERSION ? [version, ""] : [version];
  const row = await db
    .selectFrom("legal_documents")
    .selectAll()
    .where("document_type", "=", type)
    .where("locale", "=", locale)
    .where("published", "=", true)
    .where("version", "in", stored)
    .orderBy("last_updated", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toLegalDocumentRow(row) : undefined;
}

export const DEFAULT_LEGAL_VERSION = "1.0";

function toLegalDocumentRow(row: Selectable<LegalDocumentsTable>): LegalDocumentRow {
  return {
    id: row.id,
    locale: row.locale,
    translation_of: row.translation_of,
    document_type: row.document_type as LegalDocumentType,
    title: row.title,
    content: parseLegalContent(row.content),
    last_updated: toIso(row.last_updated),
    version: row.version,
    published: toBool(row.published),
    created_at: toIso(row.created_at),
  };
}
