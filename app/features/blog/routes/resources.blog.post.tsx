import { data, redirect } from "react-router";
import type { Route } from "./+types/resources.blog.post";
import { BlogPostArticle, BlogPostNotFound } from "~/features/blog/components/blog-post";
import { loadPost, movedPostPath, withArticleInDocument } from "~/features/blog/posts.server";
import { statusOf } from "~/platform/load-result";
import { postMeta, postNotFoundMeta } from "~/features/blog/post-meta";

export async function loader({ params, context }: Route.LoaderArgs) {
  const result = await loadPost(params.slug, context.requestId);
  if (result.state === "not-found") {
    // A renamed post's old address: one permanent redirect to where it is now, never a chain.
    const moved = await movedPostPath(params.slug, context.requestId);
    if (moved) throw redirect(moved, 301);
  }
  // A failed load shows the same not-found texts as a missing post, but answers 503 so monitors notice.
  const status = statusOf(result);
  if (result.state === "loaded") result.value = withArticleInDocument(result.value, context);
  return data(
    { post: result.state === "loaded" ? result.value : null },
    { status, headers: status === 503 ? { "Retry-After": "30" } : undefined },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  const post = loaderData?.post;
  if (!post) return postNotFoundMeta(matches, `/resources/blog/${encodeURIComponent(params.slug ?? "")}`);
  return postMeta(matches, post);
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  if (!post) return <BlogPostNotFound />;
  return <BlogPostArticle post={post} />;
}
