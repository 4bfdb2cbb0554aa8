import { data, redirect } from "react-router";
import type { Route } from "./+types/resources.blog.preview";
import { BlogPostArticle, BlogPostNotFound } from "~/features/blog/components/blog-post";
import { BLOG_PATH } from "~/features/blog/posts";
import { loadPreview, withArticleInDocument } from "~/features/blog/posts.server";
import { statusOf } from "~/platform/load-result";
import { postMeta, postNotFoundMeta } from "~/features/blog/post-meta";
import { postPreviewNotice } from "~/features/content/preview-notice.server";
import { PreviewNotice } from "~/features/content/components/preview-notice";
import { site } from "~/config/site";
import { getEnv } from "~/env.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { frameLocaleOf } from "~/features/i18n/site-locales";
import { postPreviewPath } from "~/features/blog/preview-links.server";

// A private preview link (`npm run content -- preview`): a draft or scheduled post on its real
// page, under a "Preview — not published" banner in the post's language. The link is the only
// credential, so every answer here, found or not, is kept out of every cache (no-store: the
// server's page cache never keeps it), out of search engines (noindex), and out of Referer headers
// sent to the sites it links to.
const PREVIEW_HEADERS = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const at = routeLocale(request);
  const result = await loadPreview(params.token, context.requestId);
  // Once the post is public, the link leads to its public page: the banner would no longer be true.
  if (result.state === "loaded" && result.value.state === "published") {
    throw redirect(result.value.post.href, { status: 302, headers: PREVIEW_HEADERS });
  }
  // A post is previewed under its own language's blog, in that language's frame.
  if (result.state === "loaded" && frameLocaleOf(result.value.locale, getEnv().SITE_LOCALES).tag !== at.tag) {
    throw redirect(postPreviewPath(getEnv().SITE_LOCALES, result.value.locale, params.token), {
      status: 302,
      headers: PREVIEW_HEADERS,
    });
  }
  const status = statusOf(result);
  const preview =
    result.state === "loaded"
      ? {
          ...result.value,
          post: withArticleInDocument(result.value.post, context),
          notice: postPreviewNotice(result.value.locale, {
            state: result.value.state === "scheduled" ? "scheduled" : "draft",
            publishedDate: result.value.post.publishedDate,
            // The title the post's page has in its head (postMeta's).
            title: `${result.value.post.title} | ${site.company}`,
            expiresAt: result.value.expiresAt,
          }),
        }
      : null;
  // An unusable token is answered exactly like an unknown post: the same page, the same 404.
  return data({ preview }, { status, headers: { ...PREVIEW_HEADERS, ...(status === 503 ? { "Retry-After": "30" } : {}) } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const preview = loaderData?.preview;
  const robots = [
    { name: "robots", content: "noindex" },
    { name: "referrer", content: "no-referrer" },
  ];
  // Not found: the texts of an unknown post, with the blog as canonical (the token is no page's address).
  if (!preview) return [...postNotFoundMeta(matches, BLOG_PATH), ...robots];
  // The document's title says it is a preview (feed links carry a title attribute too: left alone).
  const tags = postMeta(matches, preview.post).map((tag) =>
    "title" in tag && Object.keys(tag).length === 1 ? { title: preview.notice.title } : tag,
  );
  return [...tags, ...robots];
};

export default function BlogPostPreviewPage({ loaderData }: Route.ComponentProps) {
  const { preview } = loaderData;
  if (!preview) return <BlogPostNotFound />;
  return <BlogPostArticle post={preview.post} notice={<PreviewNotice notice={preview.notice} className="mb-8" />} />;
}
