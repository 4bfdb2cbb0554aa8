import type { ReactNode } from "react";
import { BackButton } from "~/features/blog/components/back-button";
import { CategoryLabel, PostImage, PostMeta } from "~/features/blog/components/post-card";
import { POST_IMAGE_SIZES, type PostPage } from "~/features/blog/posts";
import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";
import { POST_NOT_FOUND } from "~/features/blog/post-meta";

// A post's page body, shared by its public page and its private preview, so a preview looks
// exactly as the post will.

/** The article; `notice` (the preview's banner) goes above it. */
export function BlogPostArticle({ post, notice }: { post: PostPage; notice?: ReactNode }) {
  const html = useDocumentHtml(post.id, post.html);
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      {notice}
      <BackButton>Back to Blog</BackButton>
      <header className="mt-6">
        <CategoryLabel category={post.category} />
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">{post.title}</h1>
        <p className="mt-4 text-xl text-muted">{post.excerpt}</p>
        <PostMeta post={post} className="mt-5" />
      </header>
      <PostImage post={post} sizes={POST_IMAGE_SIZES.article} priority className="mt-8 rounded-2xl" />
      <div
        className={`mt-10 ${ARTICLE_BODY_CLASSES}`}
        id={documentHtmlElementId(post.id)}
        // Trusted: produced on the server by renderMarkup, which escapes all text and emits only allow-listed markup.
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <footer className="mt-14 border-t border-slate-200 pt-8">
        <BackButton variant="secondary">Back to all articles</BackButton>
      </footer>
    </article>
  );
}

/** "Blog Post Not Found": a missing post, a failed load, and any preview link that is not valid. */
export function BlogPostNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{POST_NOT_FOUND.title}</h1>
      <p className="mt-4 text-muted">{POST_NOT_FOUND.text}</p>
      <div className="mt-8">
        <BackButton variant="primary">Go Back</BackButton>
      </div>
    </div>
  );
}

/** How a rendered post body looks: the post page and the back office's preview share it. */
export const ARTICLE_BODY_CLASSES = [
  "text-lg leading-8 text-slate-800",
  "[&_h2]:mt-12 [&_h2]:text-3xl [&_h2]:font-bold [&_h2]:tracking-tight",
  "[&_h3]:mt-10 [&_h3]:text-2xl [&_h3]:font-semibold [&_h4]:mt-8 [&_h4]:text-xl [&_h4]:font-semibold",
  "[&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6",
  "[&_li]:mt-1 [&_li_ol]:mt-1 [&_li_ul]:mt-1",
  "[&_blockquote]:mt-6 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-600 [&_blockquote]:pl-5 [&_blockquote]:text-slate-700 [&_blockquote]:italic",
  "[&_pre]:mt-6 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-slate-900 [&_pre]:p-5 [&_pre]:text-sm [&_pre]:leading-6 [&_pre]:text-slate-100",
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.9em]",
  "[&_li_a]:font-medium [&_li_a]:text-brand-700 [&_li_a]:underline [&_p_a]:font-medium [&_p_a]:text-brand-700 [&_p_a]:underline",
].join(" ");
