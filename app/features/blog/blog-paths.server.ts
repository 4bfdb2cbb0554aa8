import { BLOG_PATH, postPath } from "~/features/blog/posts";
import { hasCatalog, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { localizedPath } from "~/features/i18n/route-paths.server";

// Where each language's blog lives: English at /resources/blog, another language under its
// prefix at its catalog's address (de: /de/ressourcen/blog), a post under its own language's.

/** The blog's address in the language `tag` (any language with a catalog, configured or not). */
export function blogPathOf(tag: string): string {
  if (tag === SOURCE_LOCALE || !hasCatalog(tag)) return BLOG_PATH;
  return localizedPath("blog", { tag, prefix: `/${tag.toLowerCase()}` });
}

/** A post's address, under its language's blog: /de/ressourcen/blog/<its slug>. */
export function localizedPostPath(post: { slug: string | null; id: string; locale: string }): string {
  return postPath(post, blogPathOf(post.locale));
}
