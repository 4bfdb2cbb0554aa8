import type { Texts } from "~/ui/route-texts";

// The blog list's own texts (catalog messages `shell.blog.*`): its loader sends them in the page's
// language, so they travel with that page only, never in every page's JavaScript.

export const BLOG_LIST_TEXT_KEYS = [
  "shell.blog.title",
  "shell.blog.eyebrow",
  "shell.blog.intro",
  "shell.blog.metaDescription",
  "shell.blog.metaPage",
  "shell.blog.featuredHeading",
  "shell.blog.allArticles",
  "shell.blog.categoryArticles",
  "shell.blog.categories",
  "shell.blog.allCategories",
  "shell.blog.empty",
  "shell.blog.viewAll",
  "shell.blog.pagination",
  "shell.blog.previousPage",
  "shell.blog.nextPage",
  "shell.blog.pageOf",
  "shell.blog.newsletterHeading",
  "shell.blog.newsletterText",
  "shell.blog.emailLabel",
  "shell.blog.emailPlaceholder",
  "shell.blog.subscribe",
] as const;

export type BlogListTexts = Texts<(typeof BLOG_LIST_TEXT_KEYS)[number]>;
