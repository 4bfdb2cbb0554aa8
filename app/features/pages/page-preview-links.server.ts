import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { previewSecret } from "~/features/blog/preview-links.server";
import { signContentPreviewToken, verifyContentPreviewToken } from "~/features/content/preview-token.server";
import { findPageForEditor } from "~/features/pages/page-documents.server";
import { renderPagePreview, type PageDraft } from "~/features/pages/page-editor.server";

// Private preview links for pages: the content core's signed token (type "page"), signed with the
// same secret as the posts' links, at /preview/<token>. The link shows the page's saved draft.

export const PAGE_PREVIEW_PATH = "/preview";

export async function makePagePreviewLink(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string },
  pageId: string,
  days: number,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
  const token = signContentPreviewToken(await previewSecret(db, env), "page", pageId, expiresAt);
  return { url: `${env.SITE_URL}${PAGE_PREVIEW_PATH}/${token}`, expiresAt };
}

/** The draft a token grants, drawn as the public renderer draws it; undefined for any token that grants nothing. */
export async function pagePreviewOf(db: Kysely<Database>, env: { PREVIEW_SECRET?: string }, token: string) {
  const grant = verifyContentPreviewToken(await previewSecret(db, env), token);
  if (!grant || grant.type !== "page") return undefined;
  const page = await findPageForEditor(db, grant.id);
  if (!page) return undefined;
  const draft = page.draft as PageDraft;
  return { title: draft.title, path: draft.path, expiresAt: grant.expiresAt.toISOString(), html: renderPagePreview(draft).html };
}
