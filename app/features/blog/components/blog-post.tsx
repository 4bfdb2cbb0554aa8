import type { ReactNode } from "react";
import { BackButton } from "~/features/blog/components/back-button";
import { CategoryLabel, PostImage, PostMeta } from "~/features/blog/components/post-card";
import { POST_IMAGE_SIZES, type PostPage } from "~/features/blog/posts";
import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";
import { ARTICLE_BODY_CLASSES } from "~/ui/article-body";
import { useShellText } from "~/ui/shell-text";

// A post's page body, shared by its public page and its private preview, so a preview looks
// exactly as the post will.

/** The article; `notice` (the preview's banner) goes above it. */
export function BlogPostArticle({ post, notice }: { post: PostPage; notice?: ReactNode }) {
  const html = useDocumentHtml(post.id, post.html);
  const { t } = useShellText();
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      {notice}
      <BackButton>{t("blog.backToBlog")}</BackButton>
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
        <BackButton variant="secondary">{t("blog.backToAll")}</BackButton>
      </footer>
    </article>
  );
}

/** "Blog Post Not Found": a missing post, a failed load, and any preview link that is not valid. */
export function BlogPostNotFound() {
  const { t } = useShellText();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{t("blog.notFoundTitle")}</h1>
      <p className="mt-4 text-muted">{t("blog.notFoundText")}</p>
      <div className="mt-8">
        <BackButton variant="primary">{t("blog.goBack")}</BackButton>
      </div>
    </div>
  );
}
