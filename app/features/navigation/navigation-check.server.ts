import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/db/schema";
import { fieldNames, type MenuDraft, type MenuErrors } from "~/features/navigation/menu-form";
import { MENUS, NAV_LIMITS, type MenuKey, type NavGroup, type NavLink } from "~/features/navigation/navigation";
import { isLiveSitePath } from "~/features/site/site-paths.server";

// The one check of a menu: when an editor saves it, and when a stored menu is read for the site
// (a row written by another tool never went through the editor). Server-side only: the editor is a
// plain form whose answer carries the messages, so no schema reaches the browser.

/** Control characters: never part of a label. */
const CONTROL = /\p{Cc}/u;
/** Something that reads as HTML (a tag, a comment): labels are plain text, shown as typed. */
const MARKUP = /<[A-Za-z/!?]/;

const label = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter ${what}.`)
    .max(NAV_LIMITS.label, `At most ${NAV_LIMITS.label} characters.`)
    .refine((value) => !CONTROL.test(value), "Use one line of plain text.")
    .refine((value) => !MARKUP.test(value), "Labels are plain text: leave out HTML such as <script>.");

/** A page of this site (a path, perhaps with a query or fragment) or an https address. */
const href = z
  .string()
  .trim()
  .min(1, "Enter where the link goes: a page of this site such as /company/about, or an https:// address.")
  .max(NAV_LIMITS.link, `At most ${NAV_LIMITS.link} characters.`)
  .superRefine((value, context) => {
    const problem = linkProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

function linkProblem(value: string): string | undefined {
  if (/\s|\p{Cc}/u.test(value)) return "A link has no spaces.";
  if (value.startsWith("/")) {
    if (value.startsWith("//") || value.includes("\\")) return "Write a page of this site as its path, such as /company/about.";
    return undefined;
  }
  if (/^http:\/\//i.test(value)) return "An outside link must be secure: start it with https://.";
  if (!/^https:\/\//i.test(value)) return "A link is a page of this site (starting with /) or an https:// address.";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "This is not a web address.";
  }
  if (url.protocol !== "https:" || !url.hostname.includes(".")) return "This is not a web address.";
  if (url.username || url.password) return "A link may not carry a user name or password.";
  return undefined;
}

const linkSchema = z.object({ label: label("the link's text"), to: href });
const groupSchema = (maxLinks: number, groupLabel: z.ZodType<string>) =>
  z.object({
    id: z.string(),
    label: groupLabel,
    links: z.array(linkSchema).min(1, "Give it at least one link.").max(maxLinks, `At most ${maxLinks} links.`),
  });

export type CheckedMenu = { ok: true; items: NavGroup[] | NavLink[] } | { ok: false; errors: MenuErrors };

/**
 * Checks a menu's draft: every field's problem by its field name, or the menu as stored (trimmed,
 * groups with unique ids). `checkLinks: false` skips asking whether a site path exists (reading a
 * stored menu for the site, where it was checked when saved; a page gone since is a 404, as any
 * link to it would be).
 */
export async function checkMenu(db: Kysely<Database>, menu: MenuKey, draft: MenuDraft, checkLinks = true): Promise<CheckedMenu> {
  const { grouped, maxGroups, maxLinks } = MENUS[menu];
  const schema = z
    .array(groupSchema(maxLinks, grouped ? label(`the ${MENUS[menu].itemName}'s title`) : z.string()))
    .min(1, grouped ? `Keep at least one ${MENUS[menu].itemName}.` : "Keep at least one link.")
    .max(maxGroups, `At most ${maxGroups} ${MENUS[menu].itemName}s.`);
  const errors: MenuErrors = {};
  const result = schema.safeParse(draft);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = fieldOf(issue.path);
      errors[name] ??= issue.message;
    }
  }
  const groups = result.success ? result.data : undefined;

  // Within a group each address once (the menus key their links by it); an internal one must exist.
  const links = draft.flatMap((group, g) => group.links.map((link, l) => ({ g, l, to: link.to.trim() })));
  const seen = new Set<string>();
  for (const { g, l, to } of links) {
    const name = fieldNames.linkTo(g, l);
    if (errors[name] || !to) continue;
    if (seen.has(`${g} ${to}`)) errors[name] = "This group already has a link to this address.";
    seen.add(`${g} ${to}`);
    if (checkLinks && to.startsWith("/") && !errors[name] && !(await isLiveSitePath(db, to))) {
      errors[name] = "No page of this site has this address. Check the spelling, or publish the page first.";
    }
  }
  if (!groups || Object.keys(errors).length > 0) return { ok: false, errors };

  if (!grouped) return { ok: true, items: groups[0]!.links };
  const ids = new Set<string>();
  const items = groups.map((group) => {
    const id = uniqueId(/^[a-z0-9][a-z0-9-]{0,39}$/.test(group.id) ? group.id : slugOf(group.label), ids);
    ids.add(id);
    return { id, label: group.label, links: group.links };
  });
  return { ok: true, items };
}

function fieldOf(path: readonly PropertyKey[]): string {
  const [group, part, link, linkPart] = path;
  if (typeof group !== "number") return fieldNames.menu;
  if (part === "label") return fieldNames.groupLabel(group);
  if (part === "links" && typeof link === "number") {
    return linkPart === "to" ? fieldNames.linkTo(group, link) : fieldNames.linkLabel(group, link);
  }
  return fieldNames.groupLinks(group);
}

/** An id for the page's markup (the footer's headings and the mobile menu's lists are named by it). */
function slugOf(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 32) || "menu"
  );
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  return id;
}
