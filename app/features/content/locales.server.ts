import { CATALOGS } from "~/features/i18n/messages.server";
import { localeOfDocumentPath } from "~/features/content/document-locale";

// The languages a document may be in: those with a message catalog (configured or not).

/** The language of the document at `path`: the catalog language whose prefix begins it, else English. */
export const documentLocaleOf = (path: string) => localeOfDocumentPath(path, CATALOGS.keys());
