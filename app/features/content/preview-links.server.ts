import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { previewSecret } from "~/features/blog/preview-links.server";
import {
  signContentPreviewToken,
  verifyContentPreviewToken,
  type ContentPreviewGrant,
} from "~/features/content/preview-token.server";
import type { ContentTypeId } from "~/features/content/content-types";

// Private preview links to a document's saved draft (a page, a position): the content core's signed
// token, signed with the same secret as the posts' links, at /preview/<token>. The token names the
// type and the document; the preview route draws it as its type's public page would.

export const PREVIEW_PATH = "/preview";

export async function makeContentPreviewLink(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string },
  type: ContentTypeId,
  id: string,
  days: number,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
  const token = signContentPreviewToken(await previewSecret(db, env), type, id, expiresAt);
  return { url: `${env.SITE_URL}${PREVIEW_PATH}/${token}`, expiresAt };
}

/** What a token grants, or null for any token that grants nothing (forged, expired, malformed). */
export async function previewGrantOf(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string },
  token: string,
): Promise<ContentPreviewGrant | null> {
  return verifyContentPreviewToken(await previewSecret(db, env), token);
}
