import { data } from "react-router";
import type { Kysely } from "kysely";
import type { AdminUser } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { isUuid } from "~/db/normalize";
import type { Database } from "~/db/schema";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { languageName } from "~/features/content/document-locale";

// The languages a person may edit. Roles say what kind of content someone may change; these say
// in which languages: no limit (no rows) is every language, and owners are never limited (they
// could lift their own limit anyway). Every editor's loader and action asks here, after its role
// check: content of another language answers 403, whatever the lists and menus show.

type Person = Pick<AdminUser, "roles" | "locales">;

/** Whether `user` may open and change content in `locale`. */
export function canEditLocale(user: Person, locale: string): boolean {
  if (user.roles.includes("owner") || user.locales.length === 0) return true;
  return user.locales.includes(locale);
}

/**
 * The languages a person can be limited to (on their page, in their invitation): the site's, when
 * it has more than one; none on a site in one language, where there is nothing to limit.
 */
export function limitableLocales(): string[] {
  const tags = getEnv().SITE_LOCALES.map((locale) => locale.tag);
  return tags.length > 1 ? tags : [];
}

const listOf = (names: string[]) => new Intl.ListFormat("en", { type: "disjunction" }).format(names);

/** The sentence a refusal shows: what the content is in, and what the person may edit. */
export function localeProblem(user: Person, locale: string): string {
  return `This is in ${languageName(locale)}, and you may edit ${listOf(user.locales.map(languageName))} only. Ask an owner if you need it.`;
}

/** The 403 of content in a language the person may not edit (the back office's error page shows its message). */
export function localeForbidden(user: Person, locale: string) {
  return data({ message: localeProblem(user, locale), neededLocale: locale }, { status: 403 });
}

/** Nothing when `user` may edit `locale`; else throws the 403. */
export function requireLocale(user: Person, locale: string): void {
  if (!canEditLocale(user, locale)) throw localeForbidden(user, locale);
}

/**
 * The language of a menu: a key "<tag>:<menu>" (such as "de:header") is that language's menu when
 * the tag has a catalog; a key without one is an English menu, as every menu was before languages.
 */
export function localeOfMenuKey(key: string): string {
  const tag = /^([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*):/.exec(key)?.[1];
  return tag && CATALOGS.has(tag) ? tag : SOURCE_LOCALE;
}

/** Where each kind of editable content keeps its `locale`. */
const TABLES = {
  /** Pages and positions (content_documents). */
  document: "content_documents",
  post: "blog_posts",
  /** One version (or draft) of a legal document. */
  legal: "legal_documents",
} as const;

export type LocalizedContent = keyof typeof TABLES;

/** The `locale` column of one document, post or legal version; undefined when there is no such row. */
export async function localeOfContent(db: Kysely<Database>, kind: LocalizedContent, id: string): Promise<string | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom(TABLES[kind]).select("locale").where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row?.locale;
}

/**
 * An editor's loader or action on one document, post or legal version: throws the 403 when it is
 * in a language `user` may not edit. A missing row passes, for the route's own 404.
 */
export async function requireContentLocale(user: Person, kind: LocalizedContent, id: string): Promise<void> {
  if (user.roles.includes("owner") || user.locales.length === 0) return;
  const locale = await localeOfContent(getDb(), kind, id);
  if (locale !== undefined) requireLocale(user, locale);
}
