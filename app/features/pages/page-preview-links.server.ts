import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ContentPreviewGrant } from "~/features/content/preview-token.server";
import { findPageForEditor } from "~/features/pages/page-documents.server";
import { renderPagePreview, type PageDraft } from "~/features/pages/page-editor.server";

// Private preview links for pages (the content core's, type "page"): the link shows the page's
// saved draft.

/** The draft a page's grant shows, drawn as the public renderer draws it; undefined when the page is gone. */
export async function pagePreviewOf(db: Kysely<Database>, grant: ContentPreviewGrant) {
  const page = grant.type === "page" ? await findPageForEditor(db, grant.id) : undefined;
  if (!page) return undefined;
  const draft = page.draft as PageDraft;
  return {
    title: draft.title,
    path: draft.path,
    locale: page.locale,
    expiresAt: grant.expiresAt.toISOString(),
    html: renderPagePreview(draft).html,
  };
}
