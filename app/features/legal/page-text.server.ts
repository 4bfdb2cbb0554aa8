import { catalogMessage } from "~/features/i18n/messages.server";
import { formatLongDate, isoDay } from "~/platform/dates";
import { LEGAL_SOURCE_LOCALE } from "~/features/legal/db/legal.server";
import type { LegalDocumentType, LegalVersionView } from "~/features/legal/documents";

// A legal page's words in its language, from the message catalogs (`legal.*`), formatted on the
// server so the page ships no catalog: English reads exactly as it always has, other languages
// get their catalog's texts and their own long dates.

const DOCUMENT_KEYS = { "privacy-policy": "privacyPolicy", "terms-of-use": "termsOfUse" } as const;

/** A long date in `tag`: English keeps the site's US format ("June 1, 2025"), German "1. Juni 2025". */
export function legalDate(value: string, tag: string): string {
  if (tag === LEGAL_SOURCE_LOCALE) return formatLongDate(value);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: "UTC" }).format(date);
}

/** "Version 2.1 · Last updated June 1, 2025", in parts (the date goes in a <time>). */
export type VersionLineText = { version: string; lastUpdated: string; date: string; dateTime: string };

export function versionLineText(tag: string, view: LegalVersionView): VersionLineText {
  return {
    version: catalogMessage(tag, "legal.version", { version: view.version }),
    lastUpdated: catalogMessage(tag, "legal.lastUpdated"),
    date: legalDate(view.lastUpdated, tag),
    dateTime: isoDay(view.lastUpdated),
  };
}

/** The document's name and description, and its error state's words. */
export function legalDocumentText(tag: string, type: LegalDocumentType) {
  const key = DOCUMENT_KEYS[type];
  const name = catalogMessage(tag, `legal.${key}.name`);
  return {
    name,
    description: catalogMessage(tag, `legal.${key}.description`),
    error: {
      title: catalogMessage(tag, "legal.error.title", { name }),
      text: catalogMessage(tag, "legal.error.text", { document: catalogMessage(tag, `legal.${key}.inSentence`) }),
    },
  };
}

export type LegalDocumentText = ReturnType<typeof legalDocumentText>;

/** The list of earlier versions: its heading and one line per version with its own page. */
export function earlierVersionsText(tag: string, versions: readonly LegalVersionView[], pathOf: (version: string) => string) {
  return {
    heading: catalogMessage(tag, "legal.earlierVersions"),
    entries: versions.map((entry) => ({
      key: entry.version,
      path: pathOf(entry.version),
      label: catalogMessage(tag, "legal.version", { version: entry.version }),
      updated: catalogMessage(tag, "legal.earlierVersion.updated"),
      date: legalDate(entry.lastUpdated, tag),
      dateTime: isoDay(entry.lastUpdated),
    })),
  };
}

export type EarlierVersionsText = ReturnType<typeof earlierVersionsText>;

/** A catalog message in `tag` (the pages' other sentences: notices, titles). */
export const legalMessage = (tag: string, key: string, values?: Record<string, string>) =>
  catalogMessage(tag, `legal.${key}`, values);
