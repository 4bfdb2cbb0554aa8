import type { Kysely } from "kysely";
import { staticPaths } from "~/config/site";
import { findPublishedPostCard } from "~/features/blog/db/posts.server";
import { BLOG_PATH } from "~/features/blog/posts";
import { legalDocumentTypes } from "~/features/legal/db/legal.server";
import { legalDocumentPath } from "~/features/legal/documents";
import type { Database } from "~/db/schema";

// Whether an address is a page of this site, for links the back office lets editors write (the
// menus today). Each kind of page answers for its own addresses; a feature whose pages live in the
// database (pages, say) adds its check to `sitePathChecks`.

type Db = Kysely<Database>;

/** Says whether `pathname` (no query, no fragment, as written) is one of a feature's pages. */
export type SitePathCheck = (db: Db, pathname: string) => Promise<boolean> | boolean;

const fixedPaths = new Set<string>([...staticPaths, ...legalDocumentTypes.map(legalDocumentPath)]);
const blogPostPath = new RegExp(`^${BLOG_PATH}/([^/]+)$`);

export const sitePathChecks: SitePathCheck[] = [
  // The routes of app/routes.ts that have a page (the sitemap's list) and the legal documents.
  (_db, pathname) => fixedPaths.has(pathname),
  // A published post (by slug, or id as its page allows), not a draft or a scheduled one.
  async (db, pathname) => {
    const slug = blogPostPath.exec(pathname)?.[1];
    if (!slug) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(slug);
    } catch {
      return false;
    }
    return (await findPublishedPostCard(db, decoded)) !== undefined;
  },
];

/** Whether `path` (a site-relative address, perhaps with a query or fragment) names a page visitors can open. */
export async function isKnownSitePath(db: Db, path: string): Promise<boolean> {
  const pathname = path.split(/[?#]/, 1)[0] ?? "";
  if (!pathname.startsWith("/")) return false;
  for (const check of sitePathChecks) {
    if (await check(db, pathname)) return true;
  }
  return false;
}
