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
import {
  defaultNavigation,
  MENU_KEYS,
  MENUS,
  type MenuKey,
  type NavGroup,
  type NavLink,
  type SiteNavigation,
} from "~/features/navigation/navigation";

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

let held: Held | undefined;
let reading: Promise<void> | undefined;
let failureLoggedAt = 0;

/**
 * The menus visitors see, or undefined while they are the code's own (the page then carries no
 * copy of them: its HTML is byte for byte what it was before menus could be edited).
 */
export async function publicNavigation(): Promise<SiteNavigation | undefined> {
  if (!held || Date.now() - held.readAt >= FRESH_MS) {
    reading ??= readNavigation().finally(() => (reading = undefined));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([reading, new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS)))]);
    clearTimeout(timer);
  }
  return held?.custom ? held.navigation : undefined;
}

/** Forget the copy in memory: the next page reads the menus again. */
export function forgetNavigation(): void {
  held = held && { ...held, readAt: 0 };
}

async function readNavigation(): Promise<void> {
  try {
    const db = getDb();
    const rows = await listMenuRows(db);
    const navigation = { ...defaultNavigation };
    for (const key of MENU_KEYS) {
      const row = rows.find((candidate) => candidate.menu === key);
      const items = row && (await storedItems(db, key, row));
      if (items) (navigation as Record<MenuKey, unknown>)[key] = items;
    }
    const custom = MENU_KEYS.some((key) => JSON.stringify(navigation[key]) !== JSON.stringify(defaultNavigation[key]));
    held = { navigation, custom, readAt: Date.now() };
  } catch (error) {
    held = { navigation: held?.navigation ?? defaultNavigation, custom: held?.custom ?? false, readAt: Date.now() };
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
  logger.error({ menu, fields: Object.keys(checked.errors) }, "a stored menu is not valid: the site shows the default one");
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

export async function menuEditorViews(db: Db): Promise<MenuEditorView[]> {
  const rows = await listMenuRows(db);
  return Promise.all(
    MENU_KEYS.map(async (menu) => {
      const row = rows.find((candidate) => candidate.menu === menu);
      if (!row) {
        return { menu, revision: 0, draft: defaultDraft(menu), isDefault: true, updatedAt: null, updatedBy: "", invalid: false };
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

export function defaultDraft(menu: MenuKey): MenuDraft {
  return draftOf(menu, defaultNavigation[menu]);
}

/** Who saves, and from where (the audit entry's actor and address). */
export type Editor = { actor: NonNullable<Actor>; ip: string };

export type SaveOutcome =
  { ok: true; changed: boolean; revision: number } | { ok: false; status: 400 | 409; problem: string; errors: MenuErrors };

/**
 * Saves a menu an editor opened at `revision` (0: still the default). Bad fields: a message per
 * field, nothing written. Saved by someone else since: refused, nothing written. A save and its
 * audit entry are stored together or not at all.
 */
export async function saveMenu(
  db: Db,
  editor: Editor,
  request: { menu: MenuKey; revision: number; draft: MenuDraft },
  now = new Date(),
): Promise<SaveOutcome> {
  const { menu, revision } = request;
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
    const row = await findMenuRow(trx, menu);
    if ((row?.revision ?? 0) !== revision) return conflict;
    const before = row ? salvageDraft(menu, row.items) : defaultDraft(menu);
    const after = draftOf(menu, checked.items);
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, changed: false, revision };
    if (
      !(await writeMenuRow(trx, menu, revision, { items: checked.items, updatedBy: editor.actor.email, now: now.toISOString() }))
    ) {
      return conflict;
    }
    await recordAudit(trx, {
      actor: editor.actor,
      action: "navigation.saved",
      target: { type: "navigation_menu", id: menu },
      details: { menu, revision: revision + 1, ...describeChanges(menu, before, after) },
      ip: editor.ip,
    });
    return { ok: true, changed: true, revision: revision + 1 };
  });
  if (outcome.ok && outcome.changed) {
    forgetNavigation();
    // Every page draws the menus: this server's cached copies of all of them are out of date.
    announceContentChange({ type: "navigation", id: menu, paths: ["/*"] });
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
