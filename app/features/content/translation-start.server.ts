import { data, redirect } from "react-router";
import type { AdminUser } from "~/features/auth/db/admin-users.server";
import { localeOfContent, requireLocale } from "~/features/auth/locales.server";
import { contentTypeOf } from "~/features/content/content-types";
import type { Editor } from "~/features/content/core.server";
import { translatePage, translatePosition, translatePost, translationLocales } from "~/features/content/translations.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";

// "Translate into Deutsch" from the Pages, Posts and Open positions lists, for translators limited to the
// translation's language: they cannot open the English editor, where the same button is. Starting
// a translation writes in its language only, so that is the one the person must be allowed to
// edit; the English source is only read (every editor may). The draft is made by the editor
// button's own function, audited the same way.

const KINDS = {
  page: { table: "document", noun: "page", translate: translatePage },
  post: { table: "post", noun: "post", translate: translatePost },
  position: { table: "document", noun: "position", translate: translatePosition },
} as const;

/** Whether `id` is a source of `type` that exists (a page's id is no position, nor the reverse). */
async function sourceExists(type: keyof typeof KINDS, id: string): Promise<boolean> {
  const kind = KINDS[type];
  if ((await localeOfContent(getDb(), kind.table, id)) === undefined) return false;
  if (kind.table !== "document") return true;
  const row = await getDb().selectFrom("content_documents").select("type").where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row?.type === type;
}

/**
 * The list's form "Translate into <language>" (fields `source` and `translateInto`): redirects to
 * the new draft's editor, or answers why not with nothing changed (400 for a language the site
 * does not have, 403 for one the person may not edit, 404 for a source that does not exist).
 */
export async function startTranslationFromList(
  type: keyof typeof KINDS,
  user: Pick<AdminUser, "roles" | "locales">,
  form: FormData | URLSearchParams,
  editor: Editor,
) {
  const kind = KINDS[type];
  const sourceId = String(form.get("source") ?? "");
  const locale = String(form.get("translateInto") ?? "");
  const siteLocales = getEnv().SITE_LOCALES.map((entry) => entry.tag);
  if (!siteLocales.includes(locale)) return data({ problem: "The site is not published in that language." }, { status: 400 });
  requireLocale(user, locale);
  if (!(await sourceExists(type, sourceId))) return data({ problem: `There is no such ${kind.noun}.` }, { status: 404 });
  const made = await kind.translate(getDb(), editor, { sourceId, locale, locales: translationLocales(getEnv().SITE_LOCALES) });
  if (!made.ok) return data({ problem: "problem" in made ? made.problem : Object.values(made.errors).join(" ") }, { status: 400 });
  throw redirect(`${contentTypeOf(type).editorPath(made.id)}?translated=1`);
}
