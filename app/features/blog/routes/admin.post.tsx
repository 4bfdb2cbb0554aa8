import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.post";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { PreviewLinkPanel } from "~/features/content/admin/preview-link-panel";
import { PostEditor } from "~/features/blog/admin/post-editor";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireContentLocale, requireLocale } from "~/features/auth/locales.server";
import { recordAudit } from "~/features/audit/audit.server";
import { formatDateTime } from "~/ui/admin/format";
import { editorPageData, postEditorAction } from "~/features/blog/post-editor-page.server";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { localizedPostPath } from "~/features/blog/blog-paths.server";
import { makePreviewLink } from "~/features/blog/preview-links.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from "~/features/blog/preview-token.server";
import { POST_STATES, postStateOf } from "~/features/blog/post-state";
import { getDb } from "~/db/index.server";
import { findPostForEditor, listOldSlugs } from "~/features/blog/db/post-editing.server";
import { getEnv } from "~/env.server";
import { translatePost, translationLocales } from "~/features/content/translations.server";
import { TranslatePanel, TranslationNotice } from "~/features/content/admin/translations";

// A post's edit page (editors): the editor, its state and public address, the addresses it had
// before (they redirect here), its revisions, and private preview links to share.

async function requirePost(postId: string) {
  const post = await findPostForEditor(getDb(), postId);
  if (!post) throw data({ message: "There is no such post." }, { status: 404 });
  return post;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  await requireContentLocale(user, "post", params.postId);
  const post = await requirePost(params.postId);
  const url = new URL(request.url);
  const state = postStateOf(post);
  return {
    ...(await editorPageData(request, post, user)),
    id: post.id,
    title: post.title,
    stateLabel: POST_STATES[state],
    publicPath: state === "published" ? localizedPostPath(post) : undefined,
    scheduledFor: state === "scheduled" ? formatDateTime(post.published_date, timeZoneOf(request)) : undefined,
    oldSlugs: await listOldSlugs(getDb(), post.id),
    created: url.searchParams.get("created"),
    translated: url.searchParams.has("translated"),
    unfeatured: url.searchParams.getAll("unfeatured").slice(0, 5),
    previewDays: { default: PREVIEW_DEFAULT_DAYS, max: PREVIEW_MAX_DAYS },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submitted = await requireAdminForm(request, "editor");
  await requireContentLocale(submitted.user, "post", params.postId);
  const translateInto = submitted.form.get("translateInto");
  if (typeof translateInto === "string" && translateInto) {
    requireLocale(submitted.user, translateInto);
    const post = await requirePost(params.postId);
    const made = await translatePost(
      getDb(),
      { actor: submitted.user, ip: context.clientIp },
      { sourceId: post.id, locale: translateInto, locales: translationLocales(getEnv().SITE_LOCALES) },
    );
    if (!made.ok)
      return data({ translateError: "problem" in made ? made.problem : Object.values(made.errors).join(" ") }, { status: 400 });
    throw redirect(`/admin/posts/${made.id}?translated=1`);
  }
  const intent = submitted.form.get("intent");
  if (intent !== "preview-link" && intent !== "open-preview") return postEditorAction(submitted, context, params.postId);

  const { user, form } = submitted;
  const post = await requirePost(params.postId);
  const days = intent === "open-preview" ? 1 : Number(form.get("days") ?? PREVIEW_DEFAULT_DAYS);
  if (!Number.isInteger(days) || days < 1 || days > PREVIEW_MAX_DAYS) {
    return data({ previewError: `Choose from 1 to ${PREVIEW_MAX_DAYS} days.` }, { status: 400 });
  }
  const link = await makePreviewLink(getDb(), getEnv(), post.id, days);
  await recordAudit(getDb(), {
    actor: user,
    action: "post.preview-link",
    target: { type: "post", id: post.id },
    details: { days, expiresAt: link.expiresAt.toISOString() },
    ip: context.clientIp,
  });
  if (intent === "open-preview") throw redirect(new URL(link.url).pathname);
  return { previewLink: link.url, previewExpires: formatDateTime(link.expiresAt, timeZoneOf(request)) };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.title ?? "Post"} | ${site.company} back office` }];

export default function EditPost({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData && "values" in actionData ? { ...loaderData, ...actionData } : loaderData;
  const saved = actionData && "saved" in actionData ? actionData.saved : undefined;
  const unfeatured = saved?.unfeatured ?? loaderData.unfeatured;
  const notice = (
    <>
      {loaderData.translation ? <TranslationNotice {...loaderData.translation} noun="post" /> : null}
      {loaderData.created ? <Notice tone="success">The post was created.</Notice> : null}
      {loaderData.translated ? (
        <Notice tone="success">The translation was created as a draft: a copy of the English post, to translate.</Notice>
      ) : null}
      {saved ? <Notice tone="success">Saved as revision {saved.revision}.</Notice> : null}
      {unfeatured.length ? (
        <Notice>
          This post is now the featured post: {unfeatured.map((title) => `"${title}"`).join(", ")}{" "}
          {unfeatured.length === 1 ? "is" : "are"} no longer featured.
        </Notice>
      ) : null}
    </>
  );
  return (
    <>
      <PageHeading
        title={loaderData.title}
        actions={
          <>
            <Link to={`/admin/posts/${loaderData.id}/revisions`} className={buttonClasses("secondary")}>
              Revisions
            </Link>
            <Link to="/admin/posts" className={buttonClasses("ghost")}>
              All posts
            </Link>
          </>
        }
      >
        {loaderData.stateLabel}
        {loaderData.scheduledFor ? ` for ${loaderData.scheduledFor}` : ""}
        {loaderData.publicPath ? (
          <>
            {" at "}
            <a href={loaderData.publicPath} className="text-brand-700 underline">
              {loaderData.publicPath}
            </a>
          </>
        ) : null}
        {loaderData.oldSlugs.length ? (
          <span className="block text-sm">Old addresses that lead here: {loaderData.oldSlugs.join(", ")}</span>
        ) : null}
      </PageHeading>
      {actionData && "translateError" in actionData ? <Notice tone="error">{actionData.translateError}</Notice> : null}
      <TranslatePanel translations={loaderData.translations} noun="post" />
      <PostEditor key={loaderData.values.timeZone} {...page} notice={notice} />
      <PreviewLinkPanel
        noun="post"
        days={loaderData.previewDays}
        form={Form}
        answer={actionData && ("previewLink" in actionData || "previewError" in actionData) ? actionData : undefined}
      >
        {/* A plain form: the browser opens the signed preview in a new tab. */}
        <form method="post" target="_blank" className="mt-3">
          <CsrfField />
          <button type="submit" name="intent" value="open-preview" className={buttonClasses("ghost")}>
            Open full-page preview
          </button>
        </form>
      </PreviewLinkPanel>
    </>
  );
}
