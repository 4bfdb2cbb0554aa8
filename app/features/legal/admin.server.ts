import { data, type AppLoadContext } from "react-router";
import type { SignedIn } from "~/features/auth/auth.server";
import { getDb } from "~/db/index.server";
import {
  findLegalVersionRecord,
  listLegalTranslationRecords,
  listLegalVersionRecords,
  type LegalVersionListItem,
  type LegalVersionRecord,
} from "~/features/legal/db/legal-editing.server";
import { LEGAL_SOURCE_LOCALE, legalDocumentTypes, type LegalDocumentType } from "~/features/legal/db/legal.server";
import { legalPathIn, legalVersionPathIn, localeName, translationLocales } from "~/features/legal/paths.server";
import { toLegalDocumentView } from "~/features/legal/documents.server";
import type { EditRefusal, Editor } from "~/features/legal/editing.server";

// What the back office's legal pages share on the server: finding a version from the URL, showing
// it as the public page would, naming a version's state, and who is acting.

/** The version a URL names, or the back office's 404. */
export async function requireLegalVersion(id: string | undefined): Promise<LegalVersionRecord> {
  const record = id ? await findLegalVersionRecord(getDb(), id) : undefined;
  if (!record) throw data({ message: "There is no such version of a legal document." }, { status: 404 });
  return record;
}

/** A version drawn as its public page draws a document (or the failure that page would show). */
export function publicViewOf(record: LegalVersionRecord, requestId: string) {
  return toLegalDocumentView(
    {
      id: record.id,
      document_type: record.documentType,
      title: record.title,
      content: record.content,
      version: record.version,
      last_updated: record.effectiveDate,
    },
    requestId,
  );
}

export function isLegalDocumentType(value: unknown): value is LegalDocumentType {
  return typeof value === "string" && (legalDocumentTypes as readonly string[]).includes(value);
}

export function editorOf(signedIn: SignedIn, context: AppLoadContext): Editor {
  return { actor: { id: signedIn.user.id, email: signedIn.user.email }, ip: context.clientIp };
}

/** In force (the public page's text), published earlier (in the history), or a draft. */
export type VersionState = "in force" | "superseded" | "draft";

export type VersionEntry = LegalVersionListItem & { state: VersionState; publicPath: string | null };

/** Every version of a type in a language, newest first, each with its state and its public address if it has one. */
export async function listVersionEntries(type: LegalDocumentType, locale = LEGAL_SOURCE_LOCALE): Promise<VersionEntry[]> {
  const versions = await listLegalVersionRecords(getDb(), type, locale);
  const current = versions.find((version) => version.published);
  return versions.map((version) => {
    const state: VersionState = !version.published ? "draft" : version.id === current?.id ? "in force" : "superseded";
    const publicPath =
      state === "in force"
        ? legalPathIn(type, locale)
        : state === "superseded"
          ? legalVersionPathIn(type, locale, version.version)
          : null;
    return { ...version, state, publicPath };
  });
}

/** A version's translation in one language: none yet, a draft, or published. */
export type TranslationEntry = {
  locale: string;
  language: string;
  state: "missing" | "draft" | "published";
  id: string | null;
};

/** For each English version, its translation in every language a catalog exists for. */
export async function listTranslationEntries(sourceIds: readonly string[]): Promise<Map<string, TranslationEntry[]>> {
  const translations = await listLegalTranslationRecords(getDb(), sourceIds);
  const locales = translationLocales();
  return new Map(
    sourceIds.map((sourceId) => [
      sourceId,
      locales.map((locale): TranslationEntry => {
        const found = translations.find((row) => row.translationOf === sourceId && row.locale === locale);
        return {
          locale,
          language: localeName(locale),
          state: !found ? "missing" : found.published ? "published" : "draft",
          id: found?.id ?? null,
        };
      }),
    ]),
  );
}

/** A refusal as an action's answer: its status, the message, and the fields' messages. */
export function refusalData(refusal: EditRefusal, extra: Record<string, unknown> = {}) {
  return data({ problem: refusal.problem, errors: refusal.errors ?? {}, ...extra }, { status: refusal.status });
}
