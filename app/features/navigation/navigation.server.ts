import type { Kysely } from "kysely";
import type { Actor } from "~/features/audit/audit.server";
import { recordAudit } from "~/features/audit/audit.server";
import { announceContentChange } from "~/features/content/publish-hook.server";
import { getDb } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";
import { findMenuRow, listMenuRows, writeMenuRow, type MenuRow } from "~/features/navigation/db/navigation.server";
import { draftOf, type MenuDraft, type MenuErrors } from "~/features/navigation/menu-form";
import { checkMenu } from "~/features/navigation/navigation-check.server";
import { catalogMessage } from "~/features/i18n/messages.server";
import { localizedSitePath } from "~/features/i18n/shell.server";
import type { SiteLocale } from "~/features/i18n/site-locales";
import {
  defaultNavigation,
  MENU_KEYS,
  MENUS,
  menuRowKey,
  type MenuKey,
  type NavGroup,
  type NavLink,
  type SiteNavigation,
} from "~/features/navigation/navigation";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { NAV_KEY } from "~/features/cdn/surrogate-keys";

// The site's menus: read for every page from memory, saved from the back office.
//
// Every uncached render draws the header and footer, so the menus are kept in memory and read
// again from the database at most every FRESH_MS: a save on this server shows at once (it drops
// the copy, and the publish hook drops the pages cached with the old menus), one on another server
// sharing PostgreSQL within FRESH_MS plus the page cache's second.
// A read that fails or hangs never holds a page: it keeps the last menus it had (at first, the
// code's), and tries again after FRESH_MS.

type Db = Kysely<Database>;

const FRESH_MS = 500;
/** How long a render waits for a re-read before it draws the menus it has. */
const WAIT_MS = 200;
const FAILURE_LOG_MS = 60_000;

type Held = { navigation: SiteNavigation; custom: boolean; readAt: number };

/** The menus in memory, by language tag. */
const held = new Map<string, Held>();
const reading = new Map<string, Promise<void>>();
let failureLoggedAt = 0;

const ENGLISH: SiteLocale = { tag: "en", prefix: "" };

/**
 * The menus visitors see in `locale`. In English, undefined while they are the code's own; in any
 * other language always.
 */
export async function publicNavigation(locale: SiteLocale = ENGLISH): Promise<SiteNavigation | undefined> {
  const current = held.get(locale.tag);
  if (!current || Date.now() - current.readAt >= FRESH_MS) {
    let read = reading.get(locale.tag);
    if (!read) {
      read = readNavigation(locale).finally(() => reading.delete(locale.tag));
      reading.set(locale.tag, read);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([read, new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS)))]);
    clearTimeout(timer);
  }
  const menus = held.get(locale.tag);
  if (locale.tag !== ENGLISH.tag) return menus?.navigation ?? defaultNavigationOf(locale);
  return menus?.custom ? menus.navigation : undefined;
}

/** The menus a page's frame draws in `locale`: the edited ones, else the code's own in that language. */
export async function frameNavigation(locale: SiteLocale = ENGLISH): Promise<SiteNavigation> {
  return (await publicNavigation(locale)) ?? defaultNavigationOf(locale);
}

/** Forget the copies in memory: the next page reads the menus again. */
export function forgetNavigation(): void {
  for (const [tag, menus] of held) held.set(tag, { ...menus, readAt: 0 });
}

/** The English default menus' labels and their catalog messages (`shell.nav.*`), for the other languages' defaults. */
const NAV_LABEL_KEYS: Readonly<Record<string, string>> = {
  Products: "shell.nav.products",
  Resources: "shell.nav.resources",
  Company: "shell.nav.company",
  Blog: "shell.nav.blog",
  Support: "shell.nav.support",
  About: "shell.nav.about",
  "About Us": "shell.nav.aboutUs",
  Careers: "shell.nav.careers",
  Brand: "shell.nav.brand",
  Charter: "shell.nav.charter",
  "Terms & Policies": "shell.nav.terms",
  "Terms of Use": "shell.nav.termsOfUse",
  "Privacy Policy": "shell.nav.privacyPolicy",
  Legal: "shell.nav.legal",
  "Trust & Transparency": "shell.nav.trust",
  Privacy: "shell.nav.privacy",
  Terms: "shell.nav.termsShort",
};

/**
 * The menus the code ships with, in `locale`: the English ones (app/config/site.ts) with their
 * labels from the language's catalog and their links at the language's addresses.
 */
export function defaultNavigationOf(locale: SiteLocale): SiteNavigation {
  if (locale.tag === ENGLISH.tag) return defaultNavigation;
  const label = (text: string) => (NAV_LABEL_KEYS[text] ? catalogMessage(locale.tag, NAV_LABEL_KEYS[text]) : text);
  const link = (item: NavLink): NavLink => ({ label: label(item.label), to: localizedSitePath(item.to, locale) });
  const groups = (items: NavGroup[]) =>
    items.map((group) => ({ ...group, label: label(group.label), links: group.links.map(link) }));
  return {
    header: groups(defaultNavigation.header),
    footer: groups(defaultNavigation.footer),
    "footer-links": defaultNavigation["footer-links"].map(link),
  };
}

async function readNavigation(locale: SiteLocale): Promise<void> {
  const defaults = defaultNavigationOf(locale);
  try {
    const db = getDb();
    const rows = await listMenuRows(db);
    const navigation = { ...defaults };
    for (const key of MENU_KEYS) {
      const row = rows.find((candidate) => candidate.menu === menuRowKey(key, locale.tag));
      const items = row && (await storedItems(db, key, row));
      if (items) (navigation as Record<MenuKey, unknown>)[key] = items;
    }
    const custom = MENU_KEYS.some((key) => JSON.stringify(navigation[key]) !== JSON.stringify(defaults[key]));
    held.set(locale.tag, { navigation, custom, readAt: Date.now() });
  } catch (error) {
    const before = held.get(locale.tag);
    held.set(locale.tag, { navigation: before?.navigation ?? defaults, custom: before?.custom ?? false, readAt: Date.now() });
    if (Date.now() - failureLoggedAt > FAILURE_LOG_MS) {
      failureLoggedAt = Date.now();
      logger.error({ err: error }, "navigation could not be read: the site keeps the menus it had");
    }
  }
}

/** A stored menu as the site draws it, or undefined (logged) when the row is not a valid menu. */
async function storedItems(db: Db, menu: MenuKey, row: MenuRow): Promise<NavGroup[] | NavLink[] | undefined> {
  const checked = await checkMenu(db, menu, salvageDraft(menu, row.items), false);
  if (checked.ok) return checked.items;
  logger.error(
    { menu: row.menu, fields: Object.keys(checked.errors) },
    "a stored menu is not valid: the site shows the default one",
  );
  return undefined;
}

/** A stored menu's items as far as they can be read as the editor's fields (a broken row's editor starts from what is usable). */
export function salvageDraft(menu: MenuKey, items: unknown): MenuDraft {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const links = (value: unknown) =>
    Array.isArray(value)
      ? value.map((link: unknown) => ({ label: text((link as NavLink)?.label), to: text((link as NavLink)?.to) }))
      : [];
  if (!MENUS[menu].grouped) return [{ id: "", label: "", links: links(items) }];
  if (!Array.isArray(items)) return [];
  return items.map((group: unknown) => {
    const { id, label, links: groupLinks } = (group ?? {}) as Partial<Record<keyof NavGroup, unknown>>;
    return { id: text(id), label: text(label), links: links(groupLinks) };
  });
}

/** One menu as its editor opens it. */
export type MenuEditorView = {
  menu: MenuKey;
  revision: number;
  draft: MenuDraft;
  /** True while no one has saved the menu: it is the code's default. */
  isDefault: boolean;
  updatedAt: string | null;
  updatedBy: string;
  /** The stored row is not a valid menu (written by another tool): the site shows the default. */
  invalid: boolean;
};

/** The menus of one language (English unless said) as their editors open them. */
export async function menuEditorViews(db: Db, locale: SiteLocale = ENGLISH): Promise<MenuEditorView[]> {
  const rows = await listMenuRows(db);
  return Promise.all(
    MENU_KEYS.map(async (menu) => {
      const row = rows.find((candidate) => candidate.menu === menuRowKey(menu, locale.tag));
      if (!row) {
        return {
          menu,
          revision: 0,
          draft: defaultDraft(menu, locale),
          isDefault: true,
          updatedAt: null,
          updatedBy: "",
          invalid: false,
        };
      }
      const draft = salvageDraft(menu, row.items);
      const checked = await checkMenu(db, menu, draft, false);
      return {
        menu,
        revision: row.revision,
        draft,
        isDefault: false,
        updatedAt: row.updatedAt,
        updatedBy: row.updatedBy,
        invalid: !checked.ok,
      };
    }),
  );
}

export function defaultDraft(menu: MenuKey, locale: SiteLocale = ENGLISH): MenuDraft {
  return draftOf(menu, defaultNavigationOf(locale)[menu]);
}

/** Who saves, and from where (the audit entry's actor and address). */
export type Editor = { actor: NonNullable<Actor>; ip: string };

export type SaveOutcome =
  { ok: true; changed: boolean; revision: number } | { ok: false; status: 400 | 409; problem: string; errors: MenuErrors };

/**
 * Saves a menu (of `locale`, English unless said) an editor opened at `revision` (0: still the
 * default). Bad fields: a message per field, nothing written. Saved by someone else since:
 * refused, nothing written. A save and its audit entry are stored together or not at all.
 */
export async function saveMenu(
  db: Db,
  editor: Editor,
  request: { menu: MenuKey; revision: number; draft: MenuDraft; locale?: SiteLocale },
  now = new Date(),
): Promise<SaveOutcome> {
  const { menu, revision } = request;
  const locale = request.locale ?? ENGLISH;
  const rowKey = menuRowKey(menu, locale.tag);
  const checked = await checkMenu(db, menu, request.draft);
  if (!checked.ok) {
    return { ok: false, status: 400, problem: "Nothing was saved: fix the fields marked below.", errors: checked.errors };
  }
  const conflict: SaveOutcome = {
    ok: false,
    status: 409,
    problem: `Someone saved the ${MENUS[menu].name.toLowerCase()} since this page was opened. Nothing was changed: your edits are still in the form; reload the page to see theirs.`,
    errors: {},
  };
  const outcome = await db.transaction().execute(async (trx): Promise<SaveOutcome> => {
    const row = await findMenuRow(trx, rowKey);
    if ((row?.revision ?? 0) !== revision) return conflict;
    const before = row ? salvageDraft(menu, row.items) : defaultDraft(menu, locale);
    const after = draftOf(menu, checked.items);
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, changed: false, revision };
    if (
      !(await writeMenuRow(trx, rowKey, revision, {
        items: checked.items,
        updatedBy: editor.actor.email,
        now: now.toISOString(),
      }))
    ) {
      return conflict;
    }
    await recordAudit(trx, {
      actor: editor.actor,
      action: "navigation.saved",
      target: { type: "navigation_menu", id: rowKey },
      details: {
        menu,
        ...(locale.tag === ENGLISH.tag ? {} : { locale: locale.tag }),
        revision: revision + 1,
        ...describeChanges(menu, before, after),
      },
      ip: editor.ip,
    });
    await enqueueCdnPurge(trx, [NAV_KEY]);
    return { ok: true, changed: true, revision: revision + 1 };
  });
  if (outcome.ok && outcome.changed) {
    forgetNavigation();
    // Every page draws the menus: this server's cached copies of all of them are out of date.
    announceContentChange({ type: "navigation", id: rowKey, paths: ["/*"] });
  }
  return outcome;
}

/** What a save changed, as lines a person reads in the audit log: "Company › About Us → /company/about". */
export function describeChanges(
  menu: MenuKey,
  before: MenuDraft,
  after: MenuDraft,
): { added: string[]; removed: string[]; reordered: boolean } {
  const lines = (draft: MenuDraft) =>
    draft.flatMap((group) => {
      const prefix = MENUS[menu].grouped ? `${group.label} › ` : "";
      return MENUS[menu].grouped && group.links.length === 0
        ? [group.label]
        : group.links.map((link) => `${prefix}${link.label} → ${link.to}`);
    });
  const old = lines(before);
  const next = lines(after);
  const added = next.filter((line) => !old.includes(line));
  const removed = old.filter((line) => !next.includes(line));
  // Moved: the addresses both versions link to, in a different order.
  const places = (draft: MenuDraft) =>
    draft.flatMap((group) => [`[${group.id}]`, ...group.links.map((link) => `${group.id} ${link.to}`)]);
  const [was, now] = [places(before), places(after)];
  const order = (list: string[], other: string[]) => list.filter((place) => other.includes(place)).join("\n");
  return { added, removed, reordered: order(was, now) !== order(now, was) };
}
