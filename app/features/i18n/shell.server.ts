import { CATALOGS, catalogMessage, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { localizedPath } from "~/features/i18n/route-paths.server";
import type { LocalizedRouteName } from "~/features/i18n/route-paths";
import type { SiteLocale } from "~/features/i18n/site-locales";
import type { ShellData } from "~/ui/shell-text";
import type { Texts } from "~/ui/route-texts";
import { SHELL_KEYS } from "~/ui/shell-keys";

// The frame's texts and links in a language, sent by the root loader to that language's pages
// (~/ui/shell-text), and the English addresses of the site's pages in another language: the
// menus' defaults and the frame's links are the English ones, moved.

/** The English pages made of blocks and their `shell.path.*` message (the address in a language). */
const PAGE_PATH_KEYS: Readonly<Record<string, string>> = {
  "/products/sentinel": "shell.path.product",
  "/company/about": "shell.path.about",
  "/company/brand": "shell.path.brand",
  "/company/charter": "shell.path.charter",
  "/community": "shell.path.community",
  "/resources": "shell.path.resources",
  "/resources/documentation": "shell.path.documentation",
  "/resources/api": "shell.path.api",
  "/resources/support": "shell.path.support",
  "/terms/legal": "shell.path.legal",
  "/terms/trust-transparency": "shell.path.trust",
};

/** The English addresses of the route modules (route-paths.ts) by their name. */
const ROUTE_PATHS: Readonly<Record<string, LocalizedRouteName>> = {
  "/contact-sales": "contactSales",
  "/request-demo": "requestDemo",
  "/company/careers": "careers",
  "/resources/blog": "blog",
  "/terms/privacy-policy": "privacyPolicy",
  "/terms/terms-of-use": "termsOfUse",
};

/** The English address of one of the site's own pages in `locale` (/company/about → /de/unternehmen/ueber-uns); any other as it is. */
export function localizedSitePath(path: string, locale: SiteLocale): string {
  if (!locale.prefix) return path;
  if (path === "/") return locale.prefix;
  const route = ROUTE_PATHS[path];
  if (route) return localizedPath(route, locale);
  const key = PAGE_PATH_KEYS[path];
  return key ? `${locale.prefix}/${catalogMessage(locale.tag, key)}` : path;
}

/** Every English address localizedSitePath translates: the table the German pages' paths follow. */
export const TRANSLATED_SITE_PATHS: readonly string[] = ["/", ...Object.keys(ROUTE_PATHS), ...Object.keys(PAGE_PATH_KEYS)];

const shells = new Map<string, ShellData>();

/** The frame's messages and links for a page in `locale` (made once per language). */
export function shellData(locale: SiteLocale): ShellData {
  const known = shells.get(`${locale.tag} ${locale.prefix}`);
  if (known) return known;
  const shell: ShellData = {
    tag: locale.tag,
    // Named without their "shell." (ShellKey in ~/ui/shell-text).
    messages: Object.fromEntries(Object.entries(routeTexts(locale, SHELL_KEYS)).map(([key, text]) => [key.slice(6), text])),
    links: {
      home: localizedSitePath("/", locale),
      community: localizedSitePath("/community", locale),
      contactSales: localizedSitePath("/contact-sales", locale),
      blog: localizedSitePath("/resources/blog", locale),
      careers: localizedSitePath("/company/careers", locale),
    },
  };
  shells.set(`${locale.tag} ${locale.prefix}`, shell);
  return shell;
}

/** The messages `keys` of `locale`'s catalog as they are (their {name} arguments filled in by the page: ~/ui/shell-text). */
export function routeTexts<K extends string>(locale: Pick<SiteLocale, "tag">, keys: readonly K[]): Texts<K> {
  const catalog = CATALOGS.get(locale.tag) ?? CATALOGS.get(locale.tag.split("-")[0]!) ?? {};
  const english = CATALOGS.get(SOURCE_LOCALE) ?? {};
  return Object.fromEntries(keys.map((key) => [key, catalog[key] ?? english[key] ?? key])) as Texts<K>;
}
