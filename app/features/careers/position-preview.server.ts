import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ContentPreviewGrant } from "~/features/content/preview-token.server";
import { findPositionForEditor } from "~/features/careers/position-documents.server";
import { positionDraftView } from "~/features/careers/position-page.server";

// Private preview links for positions (the content core's, type "position"): the link shows the
// position's saved draft as its page would, in its language, without the application form.

/** The draft a position's grant shows; undefined when the position is gone. */
export async function positionPreviewOf(db: Kysely<Database>, grant: ContentPreviewGrant) {
  const position = grant.type === "position" ? await findPositionForEditor(db, grant.id) : undefined;
  if (!position) return undefined;
  return {
    title: position.draft.title,
    // The draft's address (the document's path follows its slug), in its language's careers page.
    path: position.path,
    locale: position.locale,
    expiresAt: grant.expiresAt.toISOString(),
    ...positionDraftView(position.draft, position.id, position.locale),
  };
}
