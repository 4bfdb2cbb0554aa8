import { data } from "react-router";
import type { Route } from "./+types/resources.blog.post";
import { BlogPostArticle, BlogPostNotFound } from "~/components/blog-post";
import { loadPost, withArticleInDocument } from "~/lib/blog.server";
import { statusOf } from "~/lib/load-result";
import { postMeta, postNotFoundMeta } from "~/lib/post-meta";

export async function loader({ params, context }: Route.LoaderArgs) {
  const result = await loadPost(params.slug, context.requestId);
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
