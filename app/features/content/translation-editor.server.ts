import type { AdminUser } from "~/features/auth/db/admin-users.server";
import { canEditLocale } from "~/features/auth/locales.server";
import { languageName, SOURCE_LOCALE } from "~/features/content/document-locale";
import type { ContentDocument } from "~/features/content/documents.server";
import {
  sourceRevisionOf,
  summarizeTranslations,
  translationContext,
  translationLocales,
  translationStates,
  translationView,
} from "~/features/content/translations.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";

// What the editors and lists of the core's translatable documents (pages, positions; posts' lists
// too) show of translations the same way: an English document's translations with the buttons that
// make the missing ones, a translation's source beside its fields, the "brought up to date" box, and
// a list row's link to its English source.

type Person = Pick<AdminUser, "roles" | "locales">;

/**
 * An English document's translations (and the buttons that make the missing ones); a translation's
 * source, drawn beside its fields by `sourceColumn`, and what changed in it since the translation
 * was brought up to date.
 */
export async function editorTranslationData<Snapshot, Column>(
  type: "page" | "position",
  document: ContentDocument<Snapshot>,
  user: Person,
  sourceColumn: (fields: Snapshot) => Column,
) {
  const db = getDb();
  const locales = translationLocales(getEnv().SITE_LOCALES);
  const isSource = document.locale === SOURCE_LOCALE && !document.translationOf;
  const states = isSource && locales.length ? await translationStates(db, type, [document.id], locales) : undefined;
  const context = document.translationOf ? await translationContext<Snapshot>(db, type, document) : undefined;
  return {
    translations: summarizeTranslations(states?.get(document.id), (locale) => canEditLocale(user, locale)),
    translation: context ? translationView(context, canEditLocale(user, SOURCE_LOCALE)) : null,
    source: context ? sourceColumn(context.source.fields) : null,
  };
}

/** "Brought up to date with the English revision M", ticked on a translation's form: M, if it is one the source has. */
export async function broughtUpToDateWith(
  type: "page" | "position",
  document: Pick<ContentDocument, "translationOf">,
  form: FormData | URLSearchParams,
) {
  const text = form.get("sourceRevision");
  if (!document.translationOf || typeof text !== "string" || !/^\d{1,9}$/.test(text)) return undefined;
  const number = Number(text);
  const latest = await sourceRevisionOf(getDb(), type, document.translationOf);
  return number <= latest ? { sourceRevision: number } : undefined;
}

/**
 * A list row's "<language> translation of its English …": linked to the source's editor only for
 * someone who may open it (a translator limited to their languages gets its name, not a link
 * that answers 403). Null for a source.
 */
export function translationOfCell(user: Person, row: { locale: string; translationOf: string | null }, editorPath: (id: string) => string) {
  if (!row.translationOf) return null;
  return { language: languageName(row.locale), href: canEditLocale(user, SOURCE_LOCALE) ? editorPath(row.translationOf) : null };
}
