import { MENUS, NAV_LIMITS, type MenuKey, type NavGroup, type NavLink } from "~/features/navigation/navigation";

// A menu as its editor's form holds it: groups of links as typed (strings), read from the form and
// rearranged by the editor's buttons. A list menu (the footer's bottom links) is one group whose
// label nobody sees. Browser-safe: the editor and the server's action share it.

export type DraftLink = { label: string; to: string };
export type DraftGroup = { id: string; label: string; links: DraftLink[] };
export type MenuDraft = DraftGroup[];

/** Problems by field name (the names below), plus one for the menu as a whole. */
export type MenuErrors = Record<string, string>;

export const fieldNames = {
  groupId: (group: number) => `group-${group}-id`,
  groupLabel: (group: number) => `group-${group}-label`,
  linkLabel: (group: number, link: number) => `group-${group}-link-${link}-label`,
  linkTo: (group: number, link: number) => `group-${group}-link-${link}-to`,
  /** The error of a group as a whole (too many links, say). */
  groupLinks: (group: number) => `group-${group}-links`,
  menu: "menu-items",
} as const;

/** A stored menu as the form's draft. */
export function draftOf(menu: MenuKey, items: NavGroup[] | NavLink[]): MenuDraft {
  if (MENUS[menu].grouped) {
    return (items as NavGroup[]).map((group) => ({ id: group.id, label: group.label, links: group.links.map(copyLink) }));
  }
  return [{ id: "", label: "", links: (items as NavLink[]).map(copyLink) }];
}

const copyLink = (link: NavLink): DraftLink => ({ label: link.label, to: link.to });

/**
 * Reads a menu's form as typed. Anything missing is empty. A hostile form may name thousands of
 * groups or links: reading stops one past each limit, which is enough for the check to refuse it.
 */
export function readMenuForm(menu: MenuKey, form: URLSearchParams | FormData): MenuDraft {
  const { grouped, maxGroups, maxLinks } = MENUS[menu];
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const groups: MenuDraft = [];
  for (let group = 0; group <= (grouped ? maxGroups : 0); group += 1) {
    const label = text(fieldNames.groupLabel(group));
    if (grouped && label === undefined) break;
    const links: DraftLink[] = [];
    for (let link = 0; link <= maxLinks; link += 1) {
      const linkLabel = text(fieldNames.linkLabel(group, link));
      const to = text(fieldNames.linkTo(group, link));
      if (linkLabel === undefined && to === undefined) break;
      links.push({ label: linkLabel ?? "", to: to ?? "" });
    }
    groups.push(
      grouped ? { id: text(fieldNames.groupId(group)) ?? "", label: label ?? "", links } : { id: "", label: "", links },
    );
  }
  return groups;
}

/** The editor's buttons that rearrange a menu without saving. */
export type MenuEdit =
  | { kind: "add-group" }
  | { kind: "up-group" | "down-group" | "remove-group" | "add-link"; group: number }
  | { kind: "up-link" | "down-link" | "remove-link"; group: number; link: number };

export function parseMenuEdit(intent: string): MenuEdit | undefined {
  if (intent === "add-group") return { kind: "add-group" };
  const groupEdit = /^(up-group|down-group|remove-group|add-link):(\d{1,2})$/.exec(intent);
  if (groupEdit) return { kind: groupEdit[1] as "up-group", group: Number(groupEdit[2]) };
  const linkEdit = /^(up-link|down-link|remove-link):(\d{1,2}):(\d{1,2})$/.exec(intent);
  if (linkEdit) return { kind: linkEdit[1] as "up-link", group: Number(linkEdit[2]), link: Number(linkEdit[3]) };
  return undefined;
}

/** The draft after one edit (out-of-range positions change nothing), and the field that should get focus. */
export function applyMenuEdit(menu: MenuKey, draft: MenuDraft, edit: MenuEdit): { draft: MenuDraft; focus?: string } {
  const { grouped, maxGroups, maxLinks } = MENUS[menu];
  const groups = draft.map((group) => ({ ...group, links: [...group.links] }));
  if (edit.kind === "add-group") {
    if (!grouped || groups.length >= maxGroups) return { draft: groups };
    groups.push({ id: "", label: "", links: [{ label: "", to: "" }] });
    return { draft: groups, focus: fieldNames.groupLabel(groups.length - 1) };
  }
  const group = groups[edit.group];
  if (!group) return { draft: groups };
  switch (edit.kind) {
    case "add-link":
      if (group.links.length >= maxLinks) return { draft: groups };
      group.links.push({ label: "", to: "" });
      return { draft: groups, focus: fieldNames.linkLabel(edit.group, group.links.length - 1) };
    case "remove-group":
      if (!grouped) return { draft: groups };
      groups.splice(edit.group, 1);
      return { draft: groups };
    case "up-group":
    case "down-group": {
      const target = edit.kind === "up-group" ? edit.group - 1 : edit.group + 1;
      if (!grouped || !swap(groups, edit.group, target)) return { draft: groups };
      return { draft: groups, focus: fieldNames.groupLabel(target) };
    }
    case "remove-link":
      if (edit.link >= group.links.length) return { draft: groups };
      group.links.splice(edit.link, 1);
      return { draft: groups };
    case "up-link":
    case "down-link": {
      const target = edit.kind === "up-link" ? edit.link - 1 : edit.link + 1;
      if (!swap(group.links, edit.link, target)) return { draft: groups };
      return { draft: groups, focus: fieldNames.linkLabel(edit.group, target) };
    }
  }
}

function swap<T>(items: T[], from: number, to: number): boolean {
  if (from < 0 || to < 0 || from >= items.length || to >= items.length) return false;
  [items[from], items[to]] = [items[to]!, items[from]!];
  return true;
}

export { NAV_LIMITS };
