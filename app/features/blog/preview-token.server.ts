import { createHmac, timingSafeEqual } from "node:crypto";

// Private preview links: a token that names one post and a moment after which it stops working,
// signed with HMAC-SHA256 under PREVIEW_SECRET. Whoever holds an unexpired token may see that one
// post as it will look when published; nothing else. The token binds the post's id and the expiry
// only, not the post's version, so an editor can keep refreshing one link while editing.
//
// Page paths are lower case (a mixed-case path is redirected to its lower-case form), so the token
// is written in lower-case characters only: `<post id>.<expiry, unix seconds>.<signature, hex>`.

/** Default lifetime of a link, and the longest one the command signs. */
export const PREVIEW_DEFAULT_DAYS = 7;
export const PREVIEW_MAX_DAYS = 90;

/** Signed together with the fields so a token cannot be reused for another purpose or format. */
const PURPOSE = "quorvant-post-preview.v1";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
// The expiry as the signer writes it, without leading zeros: one token per grant, not many spellings.
const TOKEN = new RegExp(`^(${UUID})\\.(0|[1-9]\\d{0,11})\\.([0-9a-f]{64})$`);

export type PreviewGrant = { postId: string; expiresAt: Date };

function signature(secret: string, postId: string, expires: number): Buffer {
  return createHmac("sha256", secret).update(`${PURPOSE}\n${postId}\n${expires}`).digest();
}

/** A token for `postId` (a UUID) that works until `expiresAt` (rounded down to the second). */
export function signPreviewToken(secret: string, postId: string, expiresAt: Date): string {
  const id = postId.toLowerCase();
  if (!new RegExp(`^${UUID}$`).test(id)) throw new Error(`post id ${JSON.stringify(postId)} is not a UUID`);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(expires) || expires < 0) throw new Error("expiry is not a valid date");
  return `${id}.${expires}.${signature(secret, id, expires).toString("hex")}`;
}

/**
 * The post a token grants, or null when it is malformed, signed with another secret, altered in
 * any character, or expired. Never throws; the caller answers every failure the same way.
 */
export function verifyPreviewToken(secret: string, token: string, now: number = Date.now()): PreviewGrant | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, postId, expiresText, signatureHex] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  // Compared in constant time: how much of a guessed signature is right must not show in the timing.
  const given = Buffer.from(signatureHex, "hex");
  const expected = signature(secret, postId, expires);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (expires * 1000 <= now) return null;
  return { postId, expiresAt: new Date(expires * 1000) };
}
