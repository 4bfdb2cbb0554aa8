import { footerColumns, footerShortLinks, headerMenus, type NavGroup, type NavLink, type SiteNavigation } from "~/config/site";

// The site's menus as the back office edits them: which menus there are, their limits, and the
// navigation the code ships with (app/config/site.ts), which stays what visitors see until an
// editor saves a menu. Browser-safe and free of libraries: the editor's inputs take their limits
// from here (the schema that checks a menu is navigation-check.server.ts).

export const MENU_KEYS = ["header", "footer", "footer-links"] as const;
export type MenuKey = (typeof MENU_KEYS)[number];

/** What each menu is: its name in the back office, whether it is groups of links or one list, and its limits. */
export const MENUS = {
  header: {
    name: "Header menus",
    itemName: "menu",
    hint: "The drop-down menus at the top of every page (and of the mobile menu), in order.",
    grouped: true,
    maxGroups: 5,
    maxLinks: 10,
  },
  footer: {
    name: "Footer columns",
    itemName: "column",
    hint: "The columns of links in the footer. The footer has room for four.",
    grouped: true,
    maxGroups: 4,
    maxLinks: 10,
  },
  "footer-links": {
    name: "Footer bottom links",
    itemName: "list",
    hint: "The short links beside the copyright line at the very bottom.",
    grouped: false,
    maxGroups: 1,
    maxLinks: 6,
  },
} as const satisfies Record<
  MenuKey,
  { name: string; itemName: string; hint: string; grouped: boolean; maxGroups: number; maxLinks: number }
>;

export const NAV_LIMITS = { label: 40, link: 500 } as const;

/**
 * The navigation_menus row of a menu in a language: English keeps the menu's own name (header,
 * footer, footer-links), every other language its tag before it (de:header, pt-BR:footer).
 */
export function menuRowKey(menu: MenuKey, locale: string): string {
  return locale === "en" ? menu : `${locale}:${menu}`;
}

export function isMenuKey(value: unknown): value is MenuKey {
  return typeof value === "string" && (MENU_KEYS as readonly string[]).includes(value);
}

/** The navigation the code ships with: a menu with no saved row is this. */
export const defaultNavigation: SiteNavigation = {
  header: headerMenus,
  footer: footerColumns,
  "footer-links": footerShortLinks,
};

export type { NavGroup, NavLink, SiteNavigation };
