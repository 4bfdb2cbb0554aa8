import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { frameLocaleOf, type SiteLocale } from "~/features/i18n/site-locales";
import { previewSecret } from "~/features/blog/preview-links.server";
import {
  signContentPreviewToken,
  verifyContentPreviewToken,
  type ContentPreviewGrant,
} from "~/features/content/preview-token.server";
import { contentTypeOf, type ContentTypeId } from "~/features/content/content-types";
import { contentAuditAction, type Editor } from "~/features/content/core.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from "~/features/content/preview-token.server";
import { recordAudit } from "~/features/audit/audit.server";

// Private preview links to a document's saved draft (a page, a position): the content core's signed
// token, signed with the same secret as the posts' links, at /preview/<token> (/de/preview/<token> for
// a German one, so it is seen in its own language's frame). The token names the
// type and the document; the preview route draws it as its type's public page would.

export const PREVIEW_PATH = "/preview";

/** Where a document's preview link lives: under its language's prefix (/de/preview/…), English's while the site is not in it. */
export function contentPreviewPath(locales: readonly SiteLocale[], documentLocale: string | undefined, token: string): string {
  return `${frameLocaleOf(documentLocale, locales).prefix}${PREVIEW_PATH}/${token}`;
}

export async function makeContentPreviewLink(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string; SITE_LOCALES: readonly SiteLocale[] },
  type: ContentTypeId,
  id: string,
  days: number,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
  const token = signContentPreviewToken(await previewSecret(db, env), type, id, expiresAt);
  const document = await db.selectFrom("content_documents").select("locale").where("id", "=", id).executeTakeFirst();
  return { url: `${env.SITE_URL}${contentPreviewPath(env.SITE_LOCALES, document?.locale, token)}`, expiresAt };
}

/** What a token grants, or null for any token that grants nothing (forged, expired, malformed). */
export async function previewGrantOf(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string },
  token: string,
): Promise<ContentPreviewGrant | null> {
  return verifyContentPreviewToken(await previewSecret(db, env), token);
}

/**
 * The editor's "Make preview link" (a form with `days`): the link, audited, or why not. The link's
 * expiry is formatted by the caller (in the editor's time zone).
 */
export async function previewLinkFromForm(
  db: Kysely<Database>,
  env: { PREVIEW_SECRET?: string; SITE_URL: string; SITE_LOCALES: readonly SiteLocale[] },
  input: { type: ContentTypeId; id: string; form: FormData | URLSearchParams; editor: Editor },
): Promise<{ ok: true; url: string; expiresAt: Date } | { ok: false; problem: string }> {
  const days = Number(input.form.get("days") ?? PREVIEW_DEFAULT_DAYS);
  if (!Number.isInteger(days) || days < 1 || days > PREVIEW_MAX_DAYS)
    return { ok: false, problem: `Choose from 1 to ${PREVIEW_MAX_DAYS} days.` };
  const link = await makeContentPreviewLink(db, env, input.type, input.id, days);
  await recordAudit(db, {
    actor: input.editor.actor,
    action: contentAuditAction(input.type, "preview-link"),
    target: { type: contentTypeOf(input.type).auditTarget, id: input.id },
    details: { days, expiresAt: link.expiresAt.toISOString() },
    ip: input.editor.ip,
  });
  return { ok: true, ...link };
}
