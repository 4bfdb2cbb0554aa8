import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { previewPath } from "~/features/blog/posts";
import { blogPathOf } from "~/features/blog/blog-paths.server";
import { signPreviewToken } from "~/features/blog/preview-token.server";
import { sharedSecret } from "~/db/app-secrets.server";
import type { Database } from "~/db/schema";
import { frameLocaleOf, type SiteLocale } from "~/features/i18n/site-locales";

// The secret preview links are signed with: PREVIEW_SECRET when the operator sets one, otherwise
// one the servers make once and keep in the database, so the back office, `content preview` and
// every server sharing the database agree without configuration.

export function previewSecret(db: Kysely<Database>, env: { PREVIEW_SECRET?: string }): Promise<string> {
  return env.PREVIEW_SECRET
    ? Promise.resolve(env.PREVIEW_SECRET)
    : sharedSecret(db, "preview-links", () => randomBytes(32).toString("hex"));
}

/**
 * A signed link to post `postId`'s preview page, valid for `days`, under its language's blog
 * (/de/ressourcen/blog/preview/…) so the draft is seen in its own frame; English's while the site
 * is not published in the post's language.
 */
export async function makePreviewLink(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string; SITE_LOCALES: readonly SiteLocale[] },
  postId: string,
  days: number,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
  const token = signPreviewToken(await previewSecret(db, env), postId, expiresAt);
  const post = await db.selectFrom("blog_posts").select("locale").where("id", "=", postId).executeTakeFirst();
  return { url: `${env.SITE_URL}${postPreviewPath(env.SITE_LOCALES, post?.locale, token)}`, expiresAt };
}

/** Where a post's preview link lives: under its language's blog, English's while the site is not in it. */
export function postPreviewPath(locales: readonly SiteLocale[], postLocale: string | undefined, token: string): string {
  return previewPath(token, blogPathOf(frameLocaleOf(postLocale, locales).tag));
}
