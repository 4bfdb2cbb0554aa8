import { data } from "react-router";
import type { Route } from "./+types/resources.blog.post";
import { BackButton } from "~/components/back-button";
import { CategoryLabel, PostImage, PostMeta } from "~/components/post-card";
import { site } from "~/config/site";
import { loadPost } from "~/lib/blog.server";
import { statusOf } from "~/lib/load-result";
import { pageMeta, siteUrlFrom } from "~/lib/seo";

export async function loader({ params, context }: Route.LoaderArgs) {
  const result = await loadPost(params.slug, context.requestId);
  // A failed load shows the same not-found texts as a missing post, but answers 503 so monitors notice.
  const status = statusOf(result);
  return data(
    { post: result.state === "loaded" ? result.value : null },
    { status, headers: status === 503 ? { "Retry-After": "30" } : undefined },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  const post = loaderData?.post;
  if (!post) {
    return pageMeta(matches, {
      title: NOT_FOUND_TITLE,
      description: NOT_FOUND_TEXT,
      path: `/resources/blog/${encodeURIComponent(params.slug ?? "")}`,
    });
  }
  const siteUrl = siteUrlFrom(matches);
  const url = `${siteUrl}${post.href}`;
  const image = post.imageUrl ? (/^https?:\/\//.test(post.imageUrl) ? post.imageUrl : `${siteUrl}${post.imageUrl}`) : undefined;
  return pageMeta(matches, {
    title: post.title,
    description: post.excerpt,
    path: post.href,
    type: "article",
    image: post.imageUrl,
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title,
        description: post.excerpt,
        image,
        datePublished: post.publishedDate,
        dateModified: post.updatedAt,
        author: { "@type": "Person", name: post.author },
        publisher: {
          "@type": "Organization",
          name: site.company,
          logo: { "@type": "ImageObject", url: `${siteUrl}/favicon.svg` },
        },
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        articleSection: post.category,
        url,
      },
    ],
  });
};

const NOT_FOUND_TITLE = "Blog Post Not Found";
const NOT_FOUND_TEXT = "The blog post you're looking for doesn't exist or has been removed.";

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  if (!post) return <PostNotFound />;
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <BackButton>Back to Blog</BackButton>
      <header className="mt-6">
        <CategoryLabel category={post.category} />
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">{post.title}</h1>
        <p className="mt-4 text-xl text-muted">{post.excerpt}</p>
        <PostMeta post={post} className="mt-5" />
      </header>
      <PostImage post={post} eager className="mt-8 rounded-2xl" />
      <div
        className={[
          "mt-10 text-lg leading-8 text-slate-800",
          "[&_h2]:mt-12 [&_h2]:text-3xl [&_h2]:font-bold [&_h2]:tracking-tight",
          "[&_h3]:mt-10 [&_h3]:text-2xl [&_h3]:font-semibold [&_h4]:mt-8 [&_h4]:text-xl [&_h4]:font-semibold",
          "[&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6",
          "[&_li]:mt-1 [&_li_ol]:mt-1 [&_li_ul]:mt-1",
          "[&_blockquote]:mt-6 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-600 [&_blockquote]:pl-5 [&_blockquote]:text-slate-700 [&_blockquote]:italic",
          "[&_pre]:mt-6 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-slate-900 [&_pre]:p-5 [&_pre]:text-sm [&_pre]:leading-6 [&_pre]:text-slate-100",
          "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.9em]",
          "[&_li_a]:font-medium [&_li_a]:text-brand-700 [&_li_a]:underline [&_p_a]:font-medium [&_p_a]:text-brand-700 [&_p_a]:underline",
        ].join(" ")}
        // Trusted: produced on the server by renderMarkup, which escapes all text and emits only allow-listed markup.
        dangerouslySetInnerHTML={{ __html: post.html }}
      />
      <footer className="mt-14 border-t border-slate-200 pt-8">
        <BackButton variant="secondary">Back to all articles</BackButton>
      </footer>
    </article>
  );
}

function PostNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{NOT_FOUND_TITLE}</h1>
      <p className="mt-4 text-muted">{NOT_FOUND_TEXT}</p>
      <div className="mt-8">
        <BackButton variant="primary">Go Back</BackButton>
      </div>
    </div>
  );
}
