import { data, redirect, type AppLoadContext } from "react-router";
import type { AdminForm } from "~/features/auth/auth.server";
import type { AdminUser } from "~/features/auth/db/admin-users.server";
import { canEditLocale } from "~/features/auth/locales.server";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneNames, timeZoneOf, utcToLocalInput } from "~/ui/admin/time-zone";
import { renderMarkup } from "~/features/blog/markup.server";
import { checkMarkup } from "~/features/blog/markup/check.server";
import {
  POST_INTENTS,
  readPostForm,
  savePost,
  validatePostForm,
  type Conflict,
  type PostIntent,
} from "~/features/blog/post-editor.server";
import { readTimeOf, type FieldErrors, type PostForm } from "~/features/blog/post-fields";
import { postStateOf } from "~/features/blog/post-state";
import { describePlace, type PublishProblem } from "~/features/content/publish-checks.server";
import { imageLookupFor, listMedia } from "~/features/media/media.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { contentTypes } from "~/features/content/content-types";
import { SOURCE_LOCALE } from "~/features/content/document-locale";
import {
  sourceRevisionOf,
  summarizeTranslations,
  translationContext,
  translationLocales,
  translationStates,
  translationView,
} from "~/features/content/translations.server";
import {
  findPostForEditor,
  findRevision,
  latestRevisionNumber,
  listAllCategories,
  type EditorPost,
  type PostFields,
} from "~/features/blog/db/post-editing.server";

// The post editor page's server side, shared by "New post" and a post's edit page: what the form
// shows, and what a submitted form does (validate, save or refuse, re-render the preview).

/** The form's fields for `post` as it stands (a new post's defaults when undefined). */
async function formValuesOf(post: EditorPost | undefined, zone: string, author: string): Promise<PostForm> {
  if (!post) {
    return {
      title: "",
      slug: "",
      excerpt: "",
      content: "",
      category: "",
      author,
      publishedAt: "",
      timeZone: zone,
      readTime: "",
      imageUrl: "",
      featured: false,
    };
  }
  const revision = await findRevision(getDb(), post.id, await latestRevisionNumber(getDb(), post.id));
  const manual = revision ? revision.snapshot.read_time_manual : post.read_time !== readTimeOf(post.content);
  return {
    title: post.title,
    slug: post.slug ?? "",
    excerpt: post.excerpt,
    content: post.content,
    category: post.category,
    author: post.author,
    publishedAt: utcToLocalInput(post.published_date, zone),
    timeZone: zone,
    readTime: manual ? String(post.read_time) : "",
    imageUrl: post.image_url ?? "",
    featured: post.featured,
  };
}

/** The preview beside the editor: the public renderer's HTML (uploaded images included), and what it would refuse or drop. */
export async function previewOf(content: string) {
  const pictures = await imageLookupFor(getDb(), [content]);
  return {
    previewHtml: renderMarkup(content, { responsiveImage: pictures }),
    markupProblems: checkMarkup(content),
    computedReadTime: readTimeOf(content),
  };
}

export async function editorPageData(
  request: Request,
  post: EditorPost | undefined,
  signedIn: Pick<AdminUser, "email" | "roles" | "locales">,
) {
  const zone = timeZoneOf(request);
  const [values, categories, baseRevision, images] = await Promise.all([
    formValuesOf(post, zone, signedIn.email),
    listAllCategories(getDb()),
    post ? latestRevisionNumber(getDb(), post.id) : Promise.resolve(0),
    listMedia(getDb()),
  ]);
  return {
    values,
    ...(await previewOf(values.content)),
    images,
    categories,
    timeZones: timeZoneNames(),
    state: post ? postStateOf(post) : ("new" as const),
    baseRevision,
    ...(await translationData(post, signedIn)),
  };
}

/** The source's fields a translator reads beside the translation's, in the form's order. */
function postSourceFields(fields: PostFields): { label: string; text: string }[] {
  const text = contentTypes.post.asText(fields);
  return ["title", "slug", "excerpt", "category", "author", "image_url", "content"].map((name) => ({
    label: contentTypes.post.fieldLabels[name]!,
    text: text[name] ?? "",
  }));
}

/**
 * An English post's translations (and the buttons that make the missing ones); a translation's
 * source, beside its fields, and what changed in it since the translation was brought up to date.
 */
async function translationData(post: EditorPost | undefined, user: Pick<AdminUser, "roles" | "locales">) {
  if (!post) return { translations: [], translation: null };
  const locales = translationLocales(getEnv().SITE_LOCALES);
  const isSource = post.locale === SOURCE_LOCALE && !post.translation_of;
  const states = isSource && locales.length ? await translationStates(getDb(), "post", [post.id], locales) : undefined;
  const context = post.translation_of
    ? await translationContext<PostFields>(getDb(), "post", {
        locale: post.locale,
        translationOf: post.translation_of,
        sourceRevision: post.source_revision,
      })
    : undefined;
  return {
    translations: summarizeTranslations(states?.get(post.id), (locale) => canEditLocale(user, locale)),
    translation: context ? translationView(context, canEditLocale(user, SOURCE_LOCALE)) : null,
    ...(context ? { source: { fields: postSourceFields(context.source.fields) } } : {}),
  };
}

/** "Brought up to date with the English revision M", ticked on a translation's form: M, if it is one the source has. */
async function upToDateWith(post: EditorPost | undefined, form: FormData | URLSearchParams) {
  const text = form.get("sourceRevision");
  if (!post?.translation_of || typeof text !== "string" || !/^\d{1,9}$/.test(text)) return undefined;
  const number = Number(text);
  return number <= (await sourceRevisionOf(getDb(), "post", post.translation_of)) ? { sourceRevision: number } : undefined;
}

type ActionResult = {
  values: PostForm;
  errors?: FieldErrors;
  baseRevision: number;
  previewHtml?: string;
  markupProblems?: { line: number; message: string }[];
  computedReadTime?: number;
  conflict?: Conflict;
  /** What the checks before publishing found, each problem in the editor's words. */
  publishChecks?: string[];
  saved?: { revision: number; unfeatured: string[]; intent: PostIntent };
};

/** The form's field a problem of the checks before publishing is in. */
const CHECKED_FIELDS: Record<string, keyof PostForm> = { title: "title", content: "content", image_url: "imageUrl" };

/** The problems as the editor shows them: all of them above the form, and each under its field (named there already). */
function publishChecksView(checks: readonly PublishProblem[]): { publishChecks: string[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  for (const problem of checks) {
    const field = "field" in problem.where ? CHECKED_FIELDS[problem.where.field] : undefined;
    if (!field) continue;
    const prefix = `${describePlace(problem.where)}: `;
    const text = problem.message.startsWith(prefix) ? problem.message.slice(prefix.length) : problem.message;
    const sentence = text.charAt(0).toUpperCase() + text.slice(1);
    errors[field] = errors[field] ? `${errors[field]} ${sentence}` : sentence;
  }
  return { publishChecks: checks.map((problem) => problem.message), errors };
}

/**
 * A submitted editor form. "preview" only renders; the other intents save through savePost, which
 * refuses invalid fields, unsafe markup on a post going live, and saves based on an old revision.
 */
export async function postEditorAction({ user, form }: AdminForm, context: AppLoadContext, postId: string | undefined) {
  const intent = String(form.get("intent") ?? "");
  const values = readPostForm(form);
  const baseRevision = Number(form.get("baseRevision") ?? 0);
  const existing = postId ? await findPostForEditor(getDb(), postId) : undefined;
  if (postId && !existing) throw data({ message: "This post no longer exists." }, { status: 404 });

  if (intent === "preview") return { values, baseRevision, ...(await previewOf(values.content)) } satisfies ActionResult;
  if (!(POST_INTENTS as readonly string[]).includes(intent) || !Number.isSafeInteger(baseRevision) || baseRevision < 0) {
    return data(
      {
        values,
        baseRevision,
        errors: { title: "The form was not understood. Reload the page and try again." },
      } satisfies ActionResult,
      {
        status: 400,
      },
    );
  }
  const checked = validatePostForm(values, intent as PostIntent, existing);
  if (!checked.ok)
    return data({ values, baseRevision, errors: checked.errors, ...(await previewOf(values.content)) } satisfies ActionResult, {
      status: 400,
    });

  const translation = await upToDateWith(existing, form);
  const outcome = await savePost({
    id: postId,
    baseRevision,
    fields: checked.fields,
    intent: intent as PostIntent,
    ...(translation ? { translation } : {}),
    actor: user,
    ip: context.clientIp,
  });
  if (!outcome.ok) {
    if ("conflict" in outcome) {
      const conflict = { ...outcome.conflict, createdAt: formatDateTime(outcome.conflict.createdAt, values.timeZone) };
      // The next save is based on what they saw: saving again replaces the other version knowingly.
      return data(
        { values, baseRevision: outcome.conflict.number, conflict, ...(await previewOf(values.content)) } satisfies ActionResult,
        {
          status: 409,
        },
      );
    }
    const refusal = "checks" in outcome ? publishChecksView(outcome.checks) : { errors: outcome.errors };
    return data({ values, baseRevision, ...refusal, ...(await previewOf(values.content)) } satisfies ActionResult, {
      status: 400,
    });
  }
  if (!postId) {
    const notes = new URLSearchParams({ created: intent });
    for (const title of outcome.unfeatured) notes.append("unfeatured", title);
    throw redirect(`/admin/posts/${outcome.id}?${notes}`);
  }
  return {
    values,
    baseRevision: outcome.revision,
    saved: { revision: outcome.revision, unfeatured: outcome.unfeatured, intent: intent as PostIntent },
  } satisfies ActionResult;
}
