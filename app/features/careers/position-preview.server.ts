import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ContentPreviewGrant } from "~/features/content/preview-token.server";
import { findPositionForEditor } from "~/features/careers/position-documents.server";
import { positionDraftView } from "~/features/careers/position-page.server";
import { positionPath } from "~/features/careers/positions";

// Private preview links for positions (the content core's, type "position"): the link shows the
// position's saved draft as its page would, without the application form.

/** The draft a position's grant shows; undefined when the position is gone. */
export async function positionPreviewOf(db: Kysely<Database>, grant: ContentPreviewGrant) {
  const position = grant.type === "position" ? await findPositionForEditor(db, grant.id) : undefined;
  if (!position) return undefined;
  return {
    title: position.draft.title,
    path: positionPath(position.draft.slug),
    expiresAt: grant.expiresAt.toISOString(),
    ...positionDraftView(position.draft, position.id),
  };
}
