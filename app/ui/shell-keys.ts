// The frame's messages (catalog keys `shell.*`) that the root loader sends every public page in its
// language (~/ui/shell-text). Imported as a value by the server only: the browser needs the type.

export const SHELL_KEYS = [
  "shell.skipLink",
  "shell.logo.home",
  "shell.header.mainNav",
  "shell.header.mobileNav",
  "shell.header.menu",
  "shell.header.community",
  "shell.header.contactSales",
  "shell.footer.tagline",
  "shell.footer.copyright",
  "shell.footer.social",
  "shell.footer.socialLink",
  "shell.footer.legal",
  "shell.notFound.text",
  "shell.notFound.home",
  "shell.gone.text",
  "shell.error.title",
  "shell.error.text",
  "shell.blog.eyebrow",
  "shell.blog.title",
  "shell.blog.readTime",
  "shell.blog.featured",
  "shell.blog.readArticle",
  "shell.blog.readArticleLabel",
  "shell.blog.loading",
  "shell.blog.loadingList",
  "shell.blog.loadError",
  "shell.blog.retry",
  "shell.blog.backToBlog",
  "shell.blog.backToAll",
  "shell.blog.notFoundTitle",
  "shell.blog.notFoundText",
  "shell.blog.goBack",
] as const;

export type ShellKeys = (typeof SHELL_KEYS)[number];
