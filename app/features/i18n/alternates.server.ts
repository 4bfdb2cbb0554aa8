import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { HeldLiveVersion } from "~/features/content/held-documents.server";
import { listHeldPages } from "~/features/pages/published-pages.server";
import { listHeldPositions } from "~/features/careers/positions.server";
import { findPublishedPostLink, listPublishedPostGroup } from "~/features/blog/db/posts.server";
import { CATALOGS } from "~/features/i18n/messages.server";
import { localizedPath, localizedRouteOf } from "~/features/i18n/route-paths.server";
import type { LocalizedRouteName } from "~/features/i18n/route-paths";
import type { SiteLocale } from "~/features/i18n/site-locales";
import type { LegalDocumentType } from "~/features/legal/documents";

// Which languages a page exists in: its published versions in every configured language, for the
// hreflang alternates of its head and of the sitemap, and for the language switcher. A page of
// blocks or a position names its translations through translation_of (held in memory: no query);
// a post likewise (read with the post); a route module of its own (a form, the blog list) exists
// in every language at its translated address; a legal document where that language has a
// published version.

type Db = Kysely<Database>;

/** One version of a page: its language's tag and its site path. */
export type Alternate = { tag: string; path: string };

/** The tag of the language a document's path is in: the one whose prefix begins it among those with a catalog, else the default. */
export function documentLocaleOf(path: string, locales: readonly SiteLocale[]): string {
  const fallback = locales[0]?.tag ?? "en";
  const lower = path.toLowerCase();
  for (const tag of CATALOGS.keys()) {
    if (tag === fallback) continue;
    const prefix = `/${tag.toLowerCase()}`;
    if (lower === prefix || lower.startsWith(`${prefix}/`)) return tag;
  }
  return fallback;
}

/** A post's address in a language: the blog's address there and the post's own slug (else its id). */
export function localizedPostPath(post: { slug: string | null; id: string }, locale: SiteLocale): string {
  return `${localizedPath("blog", locale)}/${encodeURIComponent(post.slug || post.id)}`;
}

/** `versions` (one per tag at most) in the configured languages' order; none for a page alone in its language. */
function ordered(versions: Map<string, string>, locales: readonly SiteLocale[]): Alternate[] {
  const list = locales.flatMap((locale) => {
    const path = versions.get(locale.tag);
    return path === undefined ? [] : [{ tag: locale.tag, path }];
  });
  return list.length > 1 ? list : [];
}

type Groups = { byPath: Map<string, string>; members: Map<string, { tag: string; path: string }[]> };
const groupsCache = new WeakMap<readonly HeldLiveVersion<unknown>[], Map<string, Groups>>();

/**
 * The translation groups of a held list (by its source's id), kept as long as the list is the
 * same array (until a document changes): a page view derives nothing again.
 */
function groupsOf(live: readonly HeldLiveVersion<unknown>[], locales: readonly SiteLocale[]): Groups {
  const key = locales.map((locale) => locale.tag).join(",");
  let byLocales = groupsCache.get(live);
  if (!byLocales) groupsCache.set(live, (byLocales = new Map()));
  const cached = byLocales.get(key);
  if (cached) return cached;
  const groups: Groups = { byPath: new Map(), members: new Map() };
  for (const entry of live) {
    const source = entry.translationOf ?? entry.id;
    groups.byPath.set(entry.path, source);
    const members = groups.members.get(source) ?? [];
    members.push({ tag: documentLocaleOf(entry.path, locales), path: entry.path });
    groups.members.set(source, members);
  }
  byLocales.set(key, groups);
  return groups;
}

/** The versions of the held document at `path` (a page of blocks or a position) in the configured languages. */
function heldAlternates(live: readonly HeldLiveVersion<unknown>[], path: string, locales: readonly SiteLocale[]): Alternate[] {
  const groups = groupsOf(live, locales);
  const source = groups.byPath.get(path);
  if (source === undefined) return [];
  const versions = new Map<string, string>();
  for (const member of groups.members.get(source) ?? []) if (!versions.has(member.tag)) versions.set(member.tag, member.path);
  return ordered(versions, locales);
}

const LEGAL_ROUTES: Partial<Record<LocalizedRouteName, LegalDocumentType>> = {
  privacyPolicy: "privacy-policy",
  termsOfUse: "terms-of-use",
};

/** The languages among `locales` with a published version of a legal document. */
async function legalLocales(db: Db, type: LegalDocumentType, locales: readonly SiteLocale[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom("legal_documents")
    .select("locale")
    .distinct()
    .where("document_type", "=", type)
    .where("published", "=", true)
    .where(
      "locale",
      "in",
      locales.map((locale) => locale.tag),
    )
    .execute();
  return new Set(rows.map((row) => row.locale));
}

/**
 * The published versions of the page at `pathname` in every configured language (itself
 * included), in the configured order; none when the page has no translation, or is no page.
 */
export async function alternatesOf(
  db: Db,
  pathname: string,
  locales: readonly SiteLocale[],
  now: Date = new Date(),
): Promise<Alternate[]> {
  if (locales.length < 2) return [];
  const path = pathname.toLowerCase().replace(/(?<=.)\/+$/, "");
  const route = localizedRouteOf(path, locales);
  if (route && route.name !== "careers") {
    const everywhere = () => ordered(new Map(locales.map((locale) => [locale.tag, localizedPath(route.name, locale)])), locales);
    const legal = LEGAL_ROUTES[route.name];
    if (legal) {
      if (route.rest !== "") return [];
      const published = await legalLocales(db, legal, locales);
      const versions = locales.filter((locale) => published.has(locale.tag));
      return ordered(new Map(versions.map((locale) => [locale.tag, localizedPath(route.name, locale)])), locales);
    }
    if (route.name === "blog" && route.rest !== "") return postAlternates(db, path, route.locale, locales);
    return route.rest === "" ? everywhere() : [];
  }
  const pages = heldAlternates(await listHeldPages(db, now), path, locales);
  if (pages.length || !route) return pages;
  // Under the careers page: a position.
  return heldAlternates(await listHeldPositions(db, now), path, locales);
}

/** A post's versions: the post at `pathname` (its language's blog, its slug), its source and the source's translations. */
async function postAlternates(db: Db, path: string, locale: SiteLocale, locales: readonly SiteLocale[]): Promise<Alternate[]> {
  const base = localizedPath("blog", locale);
  const rest = path.slice(base.length + 1);
  if (!rest || rest.includes("/")) return [];
  let slug: string;
  try {
    slug = decodeURIComponent(rest);
  } catch {
    return [];
  }
  const post = await findPublishedPostLink(db, slug, locale.tag);
  if (!post) return [];
  const group = await listPublishedPostGroup(db, post.translationOf ?? post.id);
  const versions = new Map<string, string>();
  for (const member of [post, ...group]) {
    const memberLocale = locales.find((candidate) => candidate.tag === member.locale);
    if (memberLocale && !versions.has(memberLocale.tag)) versions.set(memberLocale.tag, localizedPostPath(member, memberLocale));
  }
  return ordered(versions, locales);
}

/** The source each published translated page or position translates, by the translation's id (the sitemap's groups). */
export async function listTranslationSources(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("content_documents")
    .select(["id", "translation_of"])
    .where("state", "=", "published")
    .where("translation_of", "is not", null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.translation_of!]));
}

/** Route modules the sitemap lists in every language (the careers page is a page of blocks, with its own translations). */
const SITEMAP_ROUTES = [
  "contactSales",
  "requestDemo",
  "blog",
  "privacyPolicy",
  "termsOfUse",
] as const satisfies LocalizedRouteName[];

/**
 * The sitemap's route modules in each language: the group a default-language address belongs to,
 * and the other languages' addresses (a legal document's where that language has a published version).
 */
export function sitemapLanguageRoutes(locales: readonly SiteLocale[]) {
  return {
    groupOf(path: string): string | undefined {
      const route = localizedRouteOf(path, locales.slice(0, 1));
      return route && route.rest === "" ? `route:${route.name}` : undefined;
    },
    async others(db: Db): Promise<{ path: string; tag: string; group: string }[]> {
      const others = locales.slice(1);
      if (!others.length) return [];
      const legal = new Map<LegalDocumentType, Set<string>>();
      for (const type of Object.values(LEGAL_ROUTES)) legal.set(type, await legalLocales(db, type, others));
      return others.flatMap((locale) =>
        SITEMAP_ROUTES.filter((name) => {
          const type = LEGAL_ROUTES[name];
          return !type || legal.get(type)!.has(locale.tag);
        }).map((name) => ({ path: localizedPath(name, locale), tag: locale.tag, group: `route:${name}` })),
      );
    },
  };
}
