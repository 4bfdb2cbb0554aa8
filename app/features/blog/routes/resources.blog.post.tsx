import { data, redirect } from "react-router";
import type { Route } from "./+types/resources.blog.post";
import { BlogPostArticle, BlogPostNotFound } from "~/features/blog/components/blog-post";
import { loadPost, movedPostPath, withArticleInDocument } from "~/features/blog/posts.server";
import { statusOf } from "~/platform/load-result";
import { postMeta, postNotFoundMeta } from "~/features/blog/post-meta";
import { shellTextOf } from "~/features/site/seo";
import { GonePage } from "~/features/redirects/components/gone-page";
import { redirectHits } from "~/features/redirects/redirect-hits.server";
import { redirectForMissingPage } from "~/features/redirects/redirects.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { REDIRECTS_KEY, postKey } from "~/features/cdn/surrogate-keys";

// A post's page, under its own language's blog (/resources/blog/<slug>, /de/ressourcen/blog/<slug>).

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const locale = routeLocale(request);
  const result = await loadPost(params.slug, context.requestId, locale.tag);
  if (result.state === "not-found") {
    // A renamed post's old address: one permanent redirect to where it is now, never a chain.
    const moved = await movedPostPath(params.slug, context.requestId, locale.tag);
    if (moved) {
      redirectHits.postRename(params.slug);
      dependsOn(context, REDIRECTS_KEY);
      throw redirect(moved, 301);
    }
    // A deleted post's address may have been redirected by an editor.
    const redirected = await redirectForMissingPage(request, context.requestId);
    if (redirected instanceof Response) {
      dependsOn(context, REDIRECTS_KEY);
      throw redirected;
    }
    if (redirected) return data({ post: null, gone: true }, { status: 410 });
  }
  // A failed load shows the same not-found texts as a missing post, but answers 503 so monitors notice.
  const status = statusOf(result);
  if (result.state === "loaded") {
    result.value = withArticleInDocument(result.value, context);
    dependsOn(context, postKey(result.value.id));
  }
  return data(
    { post: result.state === "loaded" ? result.value : null },
    { status, headers: status === 503 ? { "Retry-After": "30" } : undefined },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  const post = loaderData?.post;
  if (!post) return postNotFoundMeta(matches, `${shellTextOf(matches).links.blog}/${encodeURIComponent(params.slug ?? "")}`);
  return postMeta(matches, post);
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  if (!post && "gone" in loaderData) return <GonePage />;
  if (!post) return <BlogPostNotFound />;
  return <BlogPostArticle post={post} />;
}
