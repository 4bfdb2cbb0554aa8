import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/db/schema";
import type { ContentExporter, ExportFile } from "~/features/content/content-exporter.server";
import type { ContentProblem } from "~/features/content/content-files.server";
import { parseYaml, stringifyYaml } from "~/features/content/content-yaml.server";
import { findMenuRow, listMenuRows, writeMenuRow } from "~/features/navigation/db/navigation.server";
import { draftOf, type MenuDraft, type MenuErrors } from "~/features/navigation/menu-form";
import { checkMenu } from "~/features/navigation/navigation-check.server";
import {
  MENU_KEYS,
  MENUS,
  isMenuKey,
  menuRowKey,
  type MenuKey,
  type NavGroup,
  type NavLink,
} from "~/features/navigation/navigation";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { contentLocales, filesByLanguage, folderOf, localeOfFolder } from "~/features/content/translation-files.server";
import { salvageDraft } from "~/features/navigation/navigation.server";

// The menus as content files: DIR/navigation/<menu>.yaml (header, footer, footer-links), one per
// menu an editor saved; another language's in its folder (DIR/navigation/de/header.yaml). A grouped menu is a list of groups (id, label, links), the footer's
// bottom links a list of links (label, to). Read and checked by the back office's own check of a
// menu (navigation-check.server.ts); a menu without a file is left as it is.

type Db = Kysely<Database>;
const FOLDER = "navigation";

/** A menu file that passed the checks that need no database. */
export type MenuFile = { file: string; menu: MenuKey; locale: string; draft: MenuDraft; items: NavGroup[] | NavLink[] };

const text = z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") });
const linkShape = z.strictObject({ label: text, to: text });
const links = z.array(linkShape, { error: "must be a list of links, each with label and to" });
const groupShape = z.strictObject({ id: text.optional(), label: text, links });
const fileShape = (menu: MenuKey) =>
  MENUS[menu].grouped
    ? z.array(groupShape, { error: `must be a list of ${MENUS[menu].itemName}s, each with id, label and links` })
    : links;

/** The field of a file that a problem of the menu's form field `name` is about: "1.links.0.to". */
function fileField(menu: MenuKey, name: string): string {
  const match = /^group-(\d+)-(?:link-(\d+)-(label|to)|(id|label|links))$/.exec(name);
  if (!match) return "menu";
  const [, group, link, linkPart, groupPart] = match;
  if (!MENUS[menu].grouped) return link === undefined ? "menu" : `${link}.${linkPart}`;
  return link === undefined ? `${group}.${groupPart}` : `${group}.links.${link}.${linkPart}`;
}

const problemsOf = (file: string, menu: MenuKey, errors: MenuErrors): ContentProblem[] =>
  Object.entries(errors).map(([name, message]) => ({ path: file, field: fileField(menu, name), message }));

/**
 * One menu file's text, read and checked as the back office checks a save, except whether each
 * link's page exists (that needs the pages the import brings: `checkMenuLinks`).
 */
export async function parseMenuFile(
  db: Db,
  file: string,
  menu: MenuKey,
  source: string,
  locale: string = SOURCE_LOCALE,
): Promise<{ menu?: MenuFile; problems: ContentProblem[] }> {
  let value: unknown;
  try {
    value = parseYaml(source);
  } catch (error) {
    return {
      problems: [{ path: file, field: "menu", message: `is not valid YAML (${(error as Error).message.split("\n")[0]})` }],
    };
  }
  const shape = fileShape(menu).safeParse(value);
  if (!shape.success) {
    return {
      problems: shape.error.issues.map((issue) =>
        issue.code === "unrecognized_keys"
          ? {
              path: file,
              field: [...issue.path, issue.keys.join(", ")].join("."),
              message: "is not a known field (check the spelling)",
            }
          : { path: file, field: issue.path.join(".") || "menu", message: issue.message },
      ),
    };
  }
  const draft: MenuDraft = MENUS[menu].grouped
    ? (shape.data as z.infer<typeof groupShape>[]).map((group) => ({
        id: group.id ?? "",
        label: group.label,
        links: group.links,
      }))
    : [{ id: "", label: "", links: shape.data as z.infer<typeof linkShape>[] }];
  const checked = await checkMenu(db, menu, draft, false);
  if (!checked.ok) return { problems: problemsOf(file, menu, checked.errors) };
  return { menu: { file, menu, locale, draft, items: checked.items }, problems: [] };
}

/** DIR/navigation/*.yaml and each language's DIR/navigation/<language>/*.yaml, read and checked; a missing folder has none (the menus stay as they are). */
export async function readMenuFiles(db: Db, dir: string): Promise<{ menus: MenuFile[]; problems: ContentProblem[] }> {
  const listed = filesByLanguage(
    path.join(dir, FOLDER),
    (name) => /\.ya?ml$/.test(name),
    (file) => path.relative(dir, file).split(path.sep).join("/"),
  );
  const menus: MenuFile[] = [];
  const problems: ContentProblem[] = [...listed.problems];
  const seen = new Map<string, string>();
  for (const absolute of listed.files) {
    const file = path.relative(dir, absolute).split(path.sep).join("/");
    const locale = localeOfFolder(absolute) ?? SOURCE_LOCALE;
    const menu = path.basename(absolute).replace(/\.ya?ml$/, "");
    if (!isMenuKey(menu)) {
      problems.push({
        path: file,
        field: "file",
        message: `is not a menu: name it ${MENU_KEYS.map((key) => `${key}.yaml`).join(", ")}`,
      });
      continue;
    }
    const other = seen.get(menuRowKey(menu, locale));
    if (other) {
      problems.push({ path: file, field: "file", message: `is the ${menu} menu, as is ${other}` });
      continue;
    }
    seen.set(menuRowKey(menu, locale), file);
    const read = await parseMenuFile(db, file, menu, readFileSync(absolute, "utf8"), locale);
    problems.push(...read.problems);
    if (read.menu) menus.push(read.menu);
  }
  return { menus, problems };
}

/** Each internal link of the menus leads to a page (asked inside the import, after its pages and posts are written). */
export async function checkMenuLinks(db: Db, menus: readonly MenuFile[]): Promise<ContentProblem[]> {
  const problems: ContentProblem[] = [];
  for (const { file, menu, draft } of menus) {
    const checked = await checkMenu(db, menu, draft, true);
    if (!checked.ok) problems.push(...problemsOf(file, menu, checked.errors));
  }
  return problems;
}

/** `menu` is the stored row's key: the menu's name, another language's with its tag (de:header). */
export type MenuChange = { file: string; menu: string; action: "create" | "update" | "unchanged" };

/**
 * Stores the menus of the files in the import's transaction: a menu without a row gets one, a
 * stored menu that differs gets the file's as its next revision. Saved by nobody in particular
 * (the command line), as imported posts and pages are.
 */
export async function writeMenus(db: Db, menus: readonly MenuFile[], now = new Date()): Promise<MenuChange[]> {
  const changes: MenuChange[] = [];
  for (const { file, menu, locale, items } of menus) {
    const key = menuRowKey(menu, locale);
    const row = await findMenuRow(db, key);
    const same = row !== undefined && isDeepStrictEqual(salvageDraft(menu, row.items), draftOf(menu, items));
    changes.push({ file, menu: key, action: !row ? "create" : same ? "unchanged" : "update" });
    if (same) continue;
    if (!(await writeMenuRow(db, key, row?.revision ?? 0, { items, updatedBy: "", now: now.toISOString() })))
      throw new Error(`the ${key} menu was saved by someone else during the import; import again`);
  }
  return changes;
}

/** A stored menu as its file holds it: the fields in a fixed order. */
function fileValue(menu: MenuKey, items: NavGroup[] | NavLink[]) {
  const link = ({ label, to }: NavLink) => ({ label, to });
  return MENUS[menu].grouped
    ? (items as NavGroup[]).map((group) => ({ id: group.id, label: group.label, links: group.links.map(link) }))
    : (items as NavLink[]).map(link);
}

/**
 * Every saved menu, as visitors see it (a menu still the code's own has no row and no file). A
 * menu the import would refuse (a link to a page no longer on the site, a row another tool wrote)
 * is reported instead: fix it in the back office and export again.
 */
export const menusExporter: ContentExporter = {
  folder: FOLDER,
  extensions: [".yaml", ".yml"],
  async export(db) {
    const rows = await listMenuRows(db);
    const files: ExportFile[] = [];
    const problems: ContentProblem[] = [];
    let count = 0;
    for (const locale of contentLocales()) {
      for (const menu of MENU_KEYS) {
        const row = rows.find((candidate) => candidate.menu === menuRowKey(menu, locale.tag));
        if (!row) continue;
        count += 1;
        const file = locale.tag === SOURCE_LOCALE ? `${FOLDER}/${menu}.yaml` : `${FOLDER}/${folderOf(locale)}/${menu}.yaml`;
        const checked = await checkMenu(db, menu, salvageDraft(menu, row.items), true);
        if (!checked.ok) {
          problems.push(...problemsOf(file, menu, checked.errors));
          continue;
        }
        const source = stringifyYaml(fileValue(menu, checked.items));
        // Read back by the import's own reader: what it makes of the file must be the menu as shown.
        const readBack = await parseMenuFile(db, file, menu, source, locale.tag);
        problems.push(...readBack.problems);
        if (readBack.menu && !isDeepStrictEqual(readBack.menu.items, checked.items))
          problems.push({ path: file, field: "menu", message: "would not import back as stored" });
        files.push({ path: file, text: source });
      }
    }
    return { files, problems, summary: count ? `${count} menu${count === 1 ? "" : "s"}` : "", check: () => [] };
  },
};
