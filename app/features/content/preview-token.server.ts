import { createHmac, timingSafeEqual } from "node:crypto";
import { CONTENT_TYPE_IDS, contentTypeOf, type ContentTypeId } from "~/features/content/content-types";

// Private preview links for any content type that may be previewed: a token that names one
// document and a moment after which it stops working, signed with HMAC-SHA256 under the preview
// secret. Whoever holds an unexpired token may see that one document as it will look when
// published; nothing else. The token binds the document's type, id and expiry only, not its
// revision, so an editor can keep refreshing one link while editing.
//
// A post's token is written as posts' links always were, `<id>.<expiry>.<signature>`, signed for
// the same purpose, so every link already given out keeps working. Other types name themselves
// first: `<type>-<id>.<expiry>.<signature>`. Page paths are lower case, and so is every token.

/** Default lifetime of a link, and the longest one the command signs. */
export const PREVIEW_DEFAULT_DAYS = 7;
export const PREVIEW_MAX_DAYS = 90;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
// The expiry as the signer writes it, without leading zeros: one token per grant, not many spellings.
const TOKEN = new RegExp(`^(?:([a-z]+)-)?(${UUID})\\.(0|[1-9]\\d{0,11})\\.([0-9a-f]{64})$`);

export type ContentPreviewGrant = { type: ContentTypeId; id: string; expiresAt: Date };

/** Signed together with the fields so a token cannot be reused for another purpose, type or format. */
function purpose(type: ContentTypeId): string {
  return `quorvant-${type}-preview.v1`;
}

function signature(secret: string, type: ContentTypeId, id: string, expires: number): Buffer {
  return createHmac("sha256", secret).update(`${purpose(type)}\n${id}\n${expires}`).digest();
}

/** A token for document `id` (a UUID) of `type` that works until `expiresAt` (rounded down to the second). */
export function signContentPreviewToken(secret: string, type: ContentTypeId, id: string, expiresAt: Date): string {
  if (!contentTypeOf(type).capabilities.preview) throw new Error(`${type} documents have no preview`);
  const lower = id.toLowerCase();
  if (!new RegExp(`^${UUID}$`).test(lower)) throw new Error(`${type} id ${JSON.stringify(id)} is not a UUID`);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(expires) || expires < 0) throw new Error("expiry is not a valid date");
  const prefix = type === "post" ? "" : `${type}-`;
  return `${prefix}${lower}.${expires}.${signature(secret, type, lower, expires).toString("hex")}`;
}

/**
 * The document a token grants, or null when it is malformed, names no type that previews, is
 * signed with another secret, altered in any character, or expired. Never throws; the caller
 * answers every failure the same way.
 */
export function verifyContentPreviewToken(secret: string, token: string, now: number = Date.now()): ContentPreviewGrant | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, named, id, expiresText, signatureHex] = match as unknown as [string, string | undefined, string, string, string];
  // A post's token has no prefix; "post-" is not a spelling of it.
  const type = named === undefined ? "post" : named;
  if (named === "post" || !(CONTENT_TYPE_IDS as readonly string[]).includes(type)) return null;
  const typeId = type as ContentTypeId;
  if (!contentTypeOf(typeId).capabilities.preview) return null;
  const expires = Number(expiresText);
  // Compared in constant time: how much of a guessed signature is right must not show in the timing.
  const given = Buffer.from(signatureHex, "hex");
  const expected = signature(secret, typeId, id, expires);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (expires * 1000 <= now) return null;
  return { type: typeId, id, expiresAt: new Date(expires * 1000) };
}
