import { randomUUID } from "node:crypto";
import { z } from "zod";
import { contentTypes } from "~/features/content/content-types";
import {
  changedPaths,
  conflictSince,
  contentAuditAction,
  diffSnapshots,
  isConflict,
  nextRevisionNumber,
  type Conflict,
  type TranslationWrite,
} from "~/features/content/core.server";
import { announceContentChange, type ContentChange } from "~/features/content/publish-hook.server";
import { localizedPostPath } from "~/features/blog/blog-paths.server";
import type { Actor } from "~/features/audit/audit.server";
import { recordAudit } from "~/features/audit/audit.server";
import type { AuditAction } from "~/features/audit/admin/audit-actions";
import { isTimeZone, localInputToUtc, utcToLocalInput } from "~/ui/admin/time-zone";
import { checkMarkup, type MarkupProblem } from "~/features/blog/markup/check.server";
import { checkPostBeforePublish } from "~/features/blog/post-checks.server";
import type { PublishProblem } from "~/features/content/publish-checks.server";
import { postFieldRules, readTimeOf, type FieldErrors, type PostForm } from "~/features/blog/post-fields";
import { getDb } from "~/db/index.server";
import {
  fieldsOfPost,
  findPostForEditor,
  findPostIdBySlug,
  findRevision,
  insertRevision,
  keepOldSlug,
  releaseSlug,
  unfeatureOthers,
  writePost,
  type EditorPost,
  type PostFields,
} from "~/features/blog/db/post-editing.server";
import { slugFromTitle } from "~/platform/slug";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { changedSurrogateKeys } from "~/features/content/content-types";
import { REDIRECTS_KEY, postKey } from "~/features/cdn/surrogate-keys";

// What happens when an editor saves a post: the form read against the public rules, the markup
// checked before anything goes live, the save refused when someone else saved first, and the
// post, its revision, its old address and the audit entry written in one transaction.

export const POST_INTENTS = ["save", "publish", "schedule", "unpublish"] as const;
export type PostIntent = (typeof POST_INTENTS)[number];

/** Labels of the fields a revision keeps, in the order diffs list them (the registry's). */
export const POST_FIELD_LABELS: Record<string, string> = contentTypes.post.fieldLabels;

/** A revision's fields as text, for diffs. */
export function fieldsAsText(fields: PostFields): Record<string, string> {
  return contentTypes.post.asText(fields);
}

export function diffPostFields(before: PostFields, after: PostFields) {
  return diffSnapshots("post", before, after);
}

export function readPostForm(form: URLSearchParams | FormData): PostForm {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    title: text("title"),
    slug: text("slug").trim(),
    excerpt: text("excerpt"),
    content: text("content").replace(/\r\n?/g, "\n"),
    category: text("category"),
    author: text("author"),
    publishedAt: text("publishedAt"),
    timeZone: text("timeZone"),
    readTime: text("readTime").trim(),
    // The library's radio list, unless an address is typed in the field beside it.
    imageUrl: text("imageUrlOther").trim() || text("imageUrl").trim(),
    featured: form.get("featured") === "on",
  };
}

const problemOf = (label: string, error: z.ZodError) => `${label} ${error.issues[0]?.message ?? "is not valid"}.`;

type Validated = { ok: true; fields: PostFields } | { ok: false; errors: FieldErrors };

/** The form against the public rules; `existing` is the post being edited (undefined for a new one). */
export function validatePostForm(
  form: PostForm,
  intent: PostIntent,
  existing: EditorPost | undefined,
  now = Date.now(),
): Validated {
  const errors: FieldErrors = {};
  const check = <T>(name: keyof PostForm, label: string, schema: z.ZodType<T>, value: unknown): T | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    errors[name] = problemOf(label, result.error);
    return undefined;
  };
  const title = check("title", "Title", postFieldRules.title, form.title);
  const slugText = form.slug || (existing ? "" : slugFromTitle(form.title, 120));
  const slug = slugText ? check("slug", "Slug", postFieldRules.slug, slugText) : null;
  if (!slugText && existing?.slug) errors.slug = "Slug is required: a published address cannot be removed, only changed.";
  const excerpt = check("excerpt", "Excerpt", postFieldRules.excerpt, form.excerpt);
  const category = check("category", "Category", postFieldRules.category, form.category);
  const author = check("author", "Author", postFieldRules.author, form.author);
  if (!form.content.trim()) errors.content = "Body is required: write the post's text.";
  const readTimeManual = form.readTime !== "";
  const readTime = readTimeManual
    ? check("readTime", "Read time", postFieldRules.readTime, /^\d+$/.test(form.readTime) ? Number(form.readTime) : form.readTime)
    : readTimeOf(form.content);
  const imageUrl = form.imageUrl ? check("imageUrl", "Image URL", postFieldRules.imageUrl, form.imageUrl) : null;

  let publishedDate: string | undefined;
  if (!isTimeZone(form.timeZone)) errors.publishedAt = "Choose a time zone from the list.";
  else if (existing && form.publishedAt === utcToLocalInput(existing.published_date, form.timeZone)) {
    // The field shows minutes: left as shown, the stored date keeps its seconds.
    publishedDate = existing.published_date;
  } else if (form.publishedAt) {
    publishedDate = localInputToUtc(form.publishedAt, form.timeZone);
    if (!publishedDate) errors.publishedAt = "Publication date must be a date and time, such as 2026-12-01 09:30.";
  }
  if (intent === "schedule") {
    if (!form.publishedAt) errors.publishedAt = "Choose the date and time to publish at.";
    else if (publishedDate && Date.parse(publishedDate) <= now)
      errors.publishedAt = "Choose a date and time in the future to schedule.";
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  const published = intent === "publish" || intent === "schedule" || (intent === "save" && Boolean(existing?.published));
  const date =
    intent === "publish" && !(existing?.published && Date.parse(existing.published_date) <= now)
      ? new Date(now).toISOString()
      : (publishedDate ?? existing?.published_date ?? new Date(now).toISOString());
  return {
    ok: true,
    fields: {
      title: title!,
      slug: slug ?? null,
      excerpt: excerpt!,
      content: form.content,
      category: category!,
      author: author!,
      published_date: date,
      read_time: readTime!,
      read_time_manual: readTimeManual,
      image_url: imageUrl ?? null,
      featured: form.featured,
      published: intent === "unpublish" ? false : published,
    },
  };
}

export type { Conflict };

export type SaveOutcome =
  | { ok: true; id: string; revision: number; unfeatured: string[] }
  | { ok: false; errors: FieldErrors; markupProblems?: MarkupProblem[] }
  | { ok: false; conflict: Conflict }
  /** The post would go live with problems the checks before publishing found: nothing was saved. */
  | { ok: false; checks: PublishProblem[] };

const SUMMARIES: Record<PostIntent, (fields: PostFields) => string> = {
  save: (fields) => (fields.published ? "Saved" : "Saved as draft"),
  publish: () => "Published",
  schedule: (fields) => `Scheduled for ${fields.published_date}`,
  unpublish: () => "Unpublished",
};

const AUDIT_VERB = {
  save: "saved",
  publish: "published",
  schedule: "scheduled",
  unpublish: "unpublished",
} as const;

/**
 * Saves `fields` as revision `baseRevision + 1` of post `id` (a new post when `id` is undefined).
 * A save based on an older revision is refused with what changed since and who changed it.
 */
export async function savePost(input: {
  id: string | undefined;
  baseRevision: number;
  fields: PostFields;
  intent: PostIntent;
  summary?: string;
  auditAction?: AuditAction;
  /** A translation made by this save (its language, source and the source's revision), or brought up to date. */
  translation?: TranslationWrite;
  actor: NonNullable<Actor>;
  ip: string;
}): Promise<SaveOutcome> {
  const { fields, intent, actor } = input;
  const db = getDb();
  // A published post goes live as saved: its markup, then the post as it would be drawn, are
  // checked whatever the button. A draft is saved whatever they would find.
  if (fields.published) {
    const markupProblems = checkMarkup(fields.content);
    if (markupProblems.length) {
      return { ok: false, errors: { content: "Fix the marked lines of the body before publishing." }, markupProblems };
    }
    const checks = await checkPostBeforePublish(db, { ...fields, id: input.id });
    if (checks.length) return { ok: false, checks };
  }
  if (fields.slug) {
    const owner = await findPostIdBySlug(db, fields.slug);
    if (owner && owner.id !== input.id) return { ok: false, errors: { slug: `Slug is already used by "${owner.title}".` } };
  }
  const id = input.id ?? randomUUID();
  let change: ContentChange | undefined;
  try {
    const outcome = await db.transaction().execute(async (trx) => {
      const existing = input.id ? await findPostForEditor(trx, id) : undefined;
      if (input.id && !existing) throw new Error("post vanished while saving");
      let number = (await nextRevisionNumber(trx, "post", id, input.baseRevision)) - 1;
      if (existing && number === 0) {
        // A post from the content files: its state before this first edit becomes revision 1.
        number += 1;
        const asImported = fieldsOfPost(existing, existing.read_time !== readTimeOf(existing.content));
        await insertRevision(trx, id, number, asImported, "As it was before its first edit here", null);
      }
      const unfeatured = fields.featured ? await unfeatureOthers(trx, id) : [];
      const wasPublic = Boolean(existing && (existing.published || existing.unpublished_at));
      if (existing?.slug && wasPublic && existing.slug !== fields.slug) await keepOldSlug(trx, id, existing.slug, fields.slug);
      else if (fields.slug) await releaseSlug(trx, fields.slug);
      const unpublishedAt = fields.published
        ? null
        : intent === "unpublish"
          ? new Date().toISOString()
          : (existing?.unpublished_at ?? null);
      const { translation } = input;
      const made = translation && "of" in translation ? translation : undefined;
      if (translation && !made && !existing?.translation_of) throw new Error(`post ${id} is not a translation`);
      await writePost(trx, id, fields, { create: !existing, unpublishedAt, ...(translation ? { translation } : {}) });
      number += 1;
      const summary = input.summary ?? SUMMARIES[intent](fields);
      await insertRevision(trx, id, number, fields, summary, actor);
      await recordAudit(trx, {
        actor,
        action: existing
          ? (input.auditAction ?? contentAuditAction("post", AUDIT_VERB[intent]))
          : contentAuditAction("post", made ? "translation-created" : "created"),
        target: { type: "post", id },
        details: {
          revision: number,
          title: fields.title,
          slug: fields.slug,
          ...(existing?.slug !== fields.slug && existing?.slug ? { previousSlug: existing.slug } : {}),
          ...(unfeatured.length ? { unfeatured } : {}),
          ...(existing ? {} : { intent }),
          ...(made ? { locale: made.locale, translationOf: made.of, sourceRevision: made.sourceRevision } : {}),
        },
        ip: input.ip,
      });
      if (existing && translation && translation.sourceRevision !== existing.source_revision) {
        await recordAudit(trx, {
          actor,
          action: contentAuditAction("post", "translation-updated"),
          target: { type: "post", id },
          details: {
            revision: number,
            locale: existing.locale,
            translationOf: existing.translation_of,
            sourceRevision: translation.sourceRevision,
            previousSourceRevision: existing.source_revision,
          },
          ip: input.ip,
        });
      }
      // What visitors see changes when the post was or becomes public: the publish hook is told.
      if (existing?.published || fields.published) {
        const before = existing?.published ? localizedPostPath(existing) : null;
        const future = fields.published && Date.parse(fields.published_date) > Date.now();
        change = {
          type: "post",
          id,
          paths: changedPaths(
            "post",
            before,
            fields.published ? localizedPostPath({ slug: fields.slug, id, locale: existing?.locale ?? "en" }) : null,
          ),
          ...(future ? { at: fields.published_date } : {}),
        };
        // The CDN drops what showed the post: now, and (scheduled) again when it comes out.
        const translationOf = existing?.translation_of ?? made?.of;
        const keys = [
          ...changedSurrogateKeys("post", id, fields),
          ...(translationOf ? [postKey(translationOf)] : []),
          ...(existing?.slug && existing.slug !== fields.slug ? [REDIRECTS_KEY] : []),
        ];
        if (!future || existing?.published) await enqueueCdnPurge(trx, keys);
        if (future) await enqueueCdnPurge(trx, keys, { at: fields.published_date });
      }
      return { ok: true as const, id, revision: number, unfeatured };
    });
    if (change) announceContentChange(change);
    return outcome;
  } catch (error) {
    if (!isConflict(error)) throw error;
    return { ok: false, conflict: await conflictSince(db, "post", id, input.baseRevision) };
  }
}

/**
 * Brings back revision `number`'s words (title, slug, text, image...) as a new revision. The post's
 * state stays as it is now: restoring never publishes, unpublishes or reschedules.
 */
export async function restoreRevision(input: {
  id: string;
  number: number;
  baseRevision: number;
  actor: NonNullable<Actor>;
  ip: string;
}) {
  const db = getDb();
  const [current, revision] = await Promise.all([findPostForEditor(db, input.id), findRevision(db, input.id, input.number)]);
  if (!current || !revision) return undefined;
  const fields: PostFields = {
    ...revision.snapshot,
    published: current.published,
    published_date: current.published_date,
    featured: current.featured,
  };
  return savePost({
    id: input.id,
    baseRevision: input.baseRevision,
    fields,
    intent: "save",
    summary: `Restored revision ${input.number}`,
    auditAction: contentAuditAction("post", "restored"),
    actor: input.actor,
    ip: input.ip,
  });
}
