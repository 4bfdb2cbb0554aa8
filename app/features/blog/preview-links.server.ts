import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { previewPath } from "~/features/blog/posts";
import { signPreviewToken } from "~/features/blog/preview-token.server";
import { sharedSecret } from "~/db/app-secrets.server";
import type { Database } from "~/db/schema";

// The secret preview links are signed with: PREVIEW_SECRET when the operator sets one, otherwise
// one the servers make once and keep in the database, so the back office, `content preview` and
// every server sharing the database agree without configuration.

export function previewSecret(db: Kysely<Database>, env: { PREVIEW_SECRET?: string }): Promise<string> {
  return env.PREVIEW_SECRET
    ? Promise.resolve(env.PREVIEW_SECRET)
    : sharedSecret(db, "preview-links", () => randomBytes(32).toString("hex"));
}

/** A signed link to post `postId`'s preview page, valid for `days`. */
export async function makePreviewLink(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string },
  postId: string,
  days: number,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
  const token = signPreviewToken(await previewSecret(db, env), postId, expiresAt);
  return { url: `${env.SITE_URL}${previewPath(token)}`, expiresAt };
}
