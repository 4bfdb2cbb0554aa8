import { useRouteLoaderData } from "react-router";
import { formatLongDate } from "~/platform/dates";

// The texts of the site's frame (header, footer, 404 and error pages, and what the blog's cards and
// states say wherever they are drawn), in the page's language. Their source is the catalogs'
// `shell.*` messages (app/features/i18n/catalogs): the root loader sends a page the messages of
// its own language, and only when that is not English, so an English page carries nothing more
// than it did. English is built in below and must equal the English catalog (a unit test says
// so). These messages take plain {name} arguments only (no plural or select): they are filled in
// here, in the browser, without shipping a message-format library to every page.

export const SHELL_EN = {
  "shell.skipLink": "Skip to content",
  "shell.logo.home": "home",
  "shell.header.mainNav": "Main",
  "shell.header.mobileNav": "Mobile",
  "shell.header.menu": "Menu",
  "shell.header.community": "Community",
  "shell.header.contactSales": "Contact Sales",
  "shell.footer.tagline": "Empowering businesses with forward-thinking solutions for secure, compliant AI.",
  "shell.footer.copyright": "© 2025 Quorvant",
  "shell.footer.social": "Social media",
  "shell.footer.socialLink": "{company} on {network} (opens in a new tab)",
  "shell.footer.legal": "Legal",
  "shell.notFound.text": "Oops! Page not found",
  "shell.notFound.home": "Return to Home",
  "shell.gone.text": "This page has been removed and is not coming back.",
  "shell.error.title": "Unexpected Application Error!",
  "shell.error.text": "Something went wrong on our side. Please try again.",
  "shell.blog.eyebrow": "Resources",
  "shell.blog.title": "Blog",
  "shell.blog.readTime": "{minutes} min read",
  "shell.blog.featured": "Featured",
  "shell.blog.readArticle": "Read Article",
  "shell.blog.readArticleLabel": "Read Article: {title}",
  "shell.blog.loading": "Loading articles...",
  "shell.blog.loadingList": "Loading articles",
  "shell.blog.loadError": "Error loading articles. Please try again later.",
  "shell.blog.retry": "Retry",
  "shell.blog.backToBlog": "Back to Blog",
  "shell.blog.backToAll": "Back to all articles",
  "shell.blog.notFoundTitle": "Blog Post Not Found",
  "shell.blog.notFoundText": "The blog post you're looking for doesn't exist or has been removed.",
  "shell.blog.goBack": "Go Back",
} as const;

export type ShellKey = keyof typeof SHELL_EN;

/** The frame's own links in the page's language. */
export type ShellLinks = { home: string; community: string; contactSales: string; blog: string; careers: string };

export const SHELL_LINKS_EN: ShellLinks = {
  home: "/",
  community: "/community",
  contactSales: "/contact-sales",
  blog: "/resources/blog",
  careers: "/company/careers",
};

/** What the root loader sends a page in a language other than English. */
export type ShellData = { tag: string; messages: Partial<Record<ShellKey, string>>; links: ShellLinks };

export type ShellText = {
  /** The page's language tag. */
  tag: string;
  t: (key: ShellKey, values?: Record<string, string | number>) => string;
  links: ShellLinks;
  /** A long date in the page's language: "March 5, 2025", "5. März 2025". */
  date: (value: string) => string;
};

/** Fills in a message's {name} arguments (the only kind a shell message has). */
export function fillMessage(message: string, values?: Record<string, string | number>): string {
  return values
    ? message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
    : message;
}

export function shellText(shell: ShellData | undefined): ShellText {
  const tag = shell?.tag ?? "en";
  return {
    tag,
    t: (key, values) => fillMessage(shell?.messages[key] ?? SHELL_EN[key], values),
    links: shell?.links ?? SHELL_LINKS_EN,
    date: (value) => formatLongDate(value, tag),
  };
}

/** The frame's texts for the page being drawn (English when the root has no data, as on its own error). */
export function useShellText(): ShellText {
  const data = useRouteLoaderData("root") as { shell?: ShellData } | undefined;
  return shellText(data?.shell);
}

/** Texts a route's loader sends its page (in every language, English too: so they are not in every page's JavaScript). */
export type Texts<K extends string> = Readonly<Record<K, string>>;

/** The message function of a route's texts. */
export function textsOf<K extends string>(texts: Texts<K> | undefined) {
  return (key: K, values?: Record<string, string | number>) => fillMessage(texts?.[key] ?? "", values);
}

/** The same texts for a route's meta function, from the root's match. */
export function shellTextOf(matches: readonly ({ id: string; data?: unknown } | undefined)[]): ShellText {
  const root = matches.find((match) => match?.id === "root")?.data as { shell?: ShellData } | undefined;
  return shellText(root?.shell);
}
