// The legal documents' names, addresses and page shapes, shared by the current page, the version
// pages and the server modules that load them.

export type LegalDocumentType = "privacy-policy" | "terms-of-use";

/** Why legal content that breaks the sections structure is refused: on the page, and before publishing. */
export const INVALID_CONTENT_REASON = "Invalid document content structure";

export type LegalSection = { title: string; paragraphs: string[] };

export type LegalDocumentView = {
  title: string;
  version: string;
  lastUpdated: string;
  sections: LegalSection[];
};

export type LegalVersionView = { version: string; lastUpdated: string };

export const legalDocuments = {
  "privacy-policy": {
    name: "Privacy Policy",
    description: "How Quorvant collects, uses, protects and retains personal data, and the rights you have over it.",
  },
  "terms-of-use": {
    name: "Terms of Use",
    description: "The terms that govern your use of the Quorvant website, Sentinel and related services.",
  },
} satisfies Record<LegalDocumentType, { name: string; description: string }>;

/** The current document's page. */
export function legalDocumentPath(type: LegalDocumentType): string {
  return `/terms/${type}`;
}

/** An earlier version's page: the version string is one URL-encoded path segment. */
export function legalVersionPath(type: LegalDocumentType, version: string): string {
  return `${legalDocumentPath(type)}/versions/${encodeURIComponent(version)}`;
}
