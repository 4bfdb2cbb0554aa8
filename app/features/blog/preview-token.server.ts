import {
  PREVIEW_DEFAULT_DAYS,
  PREVIEW_MAX_DAYS,
  signContentPreviewToken,
  verifyContentPreviewToken,
} from "~/features/content/preview-token.server";

// A post's private preview link: the content core's preview token for type "post", written as
// posts' links always were (`<post id>.<expiry, unix seconds>.<signature, hex>`), so links already
// given out keep working. Whoever holds an unexpired token may see that one post as it will look
// when published; nothing else.

export { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS };

export type PreviewGrant = { postId: string; expiresAt: Date };

/** A token for `postId` (a UUID) that works until `expiresAt` (rounded down to the second). */
export function signPreviewToken(secret: string, postId: string, expiresAt: Date): string {
  return signContentPreviewToken(secret, "post", postId, expiresAt);
}

/** The post a token grants, or null (malformed, another secret or type, altered, expired). Never throws. */
export function verifyPreviewToken(secret: string, token: string, now: number = Date.now()): PreviewGrant | null {
  const grant = verifyContentPreviewToken(secret, token, now);
  return grant?.type === "post" ? { postId: grant.id, expiresAt: grant.expiresAt } : null;
}
