import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { DocumentState } from "~/features/content/documents.server";
import type { Editor, PublishOutcome, SaveOutcome, TranslationWrite } from "~/features/content/core.server";
import { blockRegistry, blockTypes, validateBlock, type BlockType } from "~/features/pages/blocks/registry.server";
import { renderBlockHtml, viewEnv } from "~/features/pages/blocks/render.server";
import { findPageForEditor, publishPage, savePage } from "~/features/pages/page-documents.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import {
  blockPrefix,
  entryMarker,
  fieldName,
  MAX_BLOCKS,
  type EditorBlockType,
  type EditorField,
  type PageEdit,
} from "~/features/pages/page-form";
import { recordPathMove } from "~/features/redirects/redirects.server";
import { BLOG_PATH } from "~/features/blog/posts";
import { claimOf, fixedRoutes } from "~/features/site/site-paths.server";
import { isSitePath, markupLinks } from "~/features/pages/blocks/fields.server";

// The page editor's server side: the form read back into a page, the editing buttons (add, move,
// duplicate, remove a block or a list's entry) applied to it, a new path checked against the
// site's own routes, and a published page's move leaving a redirect at its old address.

type Db = Kysely<Database>;

/** A page as the form holds it: not checked yet (the save checks it). */
export type PageDraft = {
  path: string;
  title: string;
  description: string;
  image?: string;
  canonicalPath?: string;
  noindex: boolean;
  blocks: Record<string, unknown>[];
};

/** Every block type with what its editor needs (plain data for the back office's page). */
export function editorBlockTypes(): EditorBlockType[] {
  return blockTypes.map((type) => {
    const { label, description, fields } = blockRegistry[type];
    return { type, label, description, fields };
  });
}

const isBlockType = (type: string): type is BlockType => Object.hasOwn(blockRegistry, type);

type FormLike = { get(name: string): FormDataEntryValue | null; has(name: string): boolean };

function textOf(form: FormLike, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

const numeric = (field: EditorField) =>
  Boolean(field.options?.length && field.options.every((option) => /^\d+$/.test(option.value)));

function readField(form: FormLike, name: string, field: EditorField): unknown {
  switch (field.kind) {
    case "checkbox":
      return form.has(name);
    case "number": {
      const value = textOf(form, name);
      return value === undefined ? undefined : Number(value);
    }
    case "select": {
      const value = textOf(form, name);
      return value !== undefined && numeric(field) ? Number(value) : value;
    }
    case "image": {
      const image = {
        src: textOf(form, `${name}.src`),
        alt: textOf(form, `${name}.alt`),
        width: textOf(form, `${name}.width`),
        height: textOf(form, `${name}.height`),
      };
      if (Object.values(image).every((value) => value === undefined)) return undefined;
      const size = (value: string | undefined) => (value === undefined ? undefined : Number(value));
      return { ...image, width: size(image.width), height: size(image.height) };
    }
    case "group": {
      const group = readFields(form, name, field.fields ?? []);
      return Object.keys(group).length ? group : undefined;
    }
    case "list": {
      const entries: unknown[] = [];
      const fields = field.fields ?? [];
      const plain = fields.length === 1 && fields[0]!.name === "";
      // One past the most a list may hold, so a list over its limit is refused, not cut.
      for (let index = 0; index <= (field.max ?? 50); index++) {
        const entry = `${name}.${index}`;
        if (!form.has(entryMarker(entry))) break;
        entries.push(plain ? (form.get(entry) ?? "") : readFields(form, entry, fields));
      }
      return entries;
    }
    default:
      return textOf(form, name);
  }
}

function readFields(form: FormLike, prefix: string, fields: readonly EditorField[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of fields) {
    const read = readField(form, fieldName(prefix, field.name), field);
    if (read !== undefined) value[field.name] = read;
  }
  return value;
}

/** The page the editor's form holds (its blocks by position, each read by its type's fields). */
export function readPageForm(form: FormLike): PageDraft {
  const blocks: Record<string, unknown>[] = [];
  for (let index = 0; index <= MAX_BLOCKS; index++) {
    const prefix = blockPrefix(index);
    const type = form.get(`${prefix}.type`);
    if (typeof type !== "string") break;
    blocks.push(isBlockType(type) ? { type, ...readFields(form, prefix, blockRegistry[type].fields) } : { type });
  }
  const optional = (name: string) => textOf(form, name)?.trim();
  return {
    path: String(form.get("path") ?? "").trim(),
    title: String(form.get("title") ?? ""),
    description: String(form.get("description") ?? ""),
    ...(optional("image") ? { image: optional("image") } : {}),
    ...(optional("canonicalPath") ? { canonicalPath: optional("canonicalPath") } : {}),
    noindex: form.has("noindex"),
    blocks,
  };
}

/** A new entry for a list: a copy of its last one, or one made from the fields' first choices. */
function newEntry(fields: readonly EditorField[], last: unknown): unknown {
  if (last !== undefined) return structuredClone(last);
  const starter = (field: EditorField): unknown => {
    if (field.kind === "link") return "/";
    if (field.kind === "select" || field.kind === "icon") return field.options?.[0]?.value;
    if (field.kind === "list" || field.kind === "group" || field.kind === "image" || !field.required) return undefined;
    return field.label;
  };
  if (fields.length === 1 && fields[0]!.name === "") return starter({ ...fields[0]!, required: true });
  return Object.fromEntries(
    fields.map((field) => [field.name, starter(field)] as const).filter(([, value]) => value !== undefined),
  );
}

/** The editor field that describes the list at `path` ("blocks.2.groups.0.links"), found through the block's type. */
function listFieldAt(draft: PageDraft, path: string[]): EditorField | undefined {
  const block = draft.blocks[Number(path[1])];
  const type = typeof block?.type === "string" ? block.type : "";
  if (!isBlockType(type)) return undefined;
  let fields: readonly EditorField[] = blockRegistry[type].fields;
  let found: EditorField | undefined;
  for (const segment of path.slice(2)) {
    if (/^\d+$/.test(segment)) continue;
    found = fields.find((field) => field.name === segment);
    if (!found) return undefined;
    fields = found.fields ?? [];
  }
  return found?.kind === "list" ? found : undefined;
}

/** The value at `path` of the draft, own properties only. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

export type EditedPage = { ok: true; draft: PageDraft; focus: string } | { ok: false; problem: string };

const move = <T>(list: T[], from: number, to: number) => {
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item!);
};

/**
 * An editing button applied to the form's page: the page as it should now be, and the control
 * (by name) that takes focus. Anything that names no block or list of this page is refused.
 */
export function applyPageEdit(input: PageDraft, edit: PageEdit): EditedPage {
  const draft = structuredClone(input);
  const nothing: EditedPage = { ok: false, problem: "That part of the page is no longer there. Reload the page and try again." };
  if (edit.verb === "block-add") {
    if (!isBlockType(edit.type)) return { ok: false, problem: "Choose a type of block to add." };
    if (draft.blocks.length >= MAX_BLOCKS) return { ok: false, problem: `A page holds at most ${MAX_BLOCKS} blocks.` };
    draft.blocks.push(structuredClone(blockRegistry[edit.type].defaultValue) as Record<string, unknown>);
    return { ok: true, draft, focus: blockPrefix(draft.blocks.length - 1) };
  }
  const path = edit.target.split(".");
  if (edit.verb.startsWith("block-")) {
    const index = Number(path[1]);
    if (path.length !== 2 || !(index < draft.blocks.length)) return nothing;
    const last = draft.blocks.length - 1;
    switch (edit.verb) {
      case "block-up":
        if (index === 0) return nothing;
        move(draft.blocks, index, index - 1);
        return { ok: true, draft, focus: blockPrefix(index - 1) };
      case "block-down":
        if (index === last) return nothing;
        move(draft.blocks, index, index + 1);
        return { ok: true, draft, focus: blockPrefix(index + 1) };
      case "block-move": {
        const to = edit.to ?? Number.NaN;
        if (!Number.isInteger(to) || to < 0 || to > last) return nothing;
        move(draft.blocks, index, to);
        return { ok: true, draft, focus: blockPrefix(to) };
      }
      case "block-duplicate":
        if (draft.blocks.length >= MAX_BLOCKS) return { ok: false, problem: `A page holds at most ${MAX_BLOCKS} blocks.` };
        draft.blocks.splice(index + 1, 0, structuredClone(draft.blocks[index]!));
        return { ok: true, draft, focus: blockPrefix(index + 1) };
      default:
        draft.blocks.splice(index, 1);
        return { ok: true, draft, focus: "blocks" };
    }
  }
  // A list's entries: the target is the list ("entry-add") or one of its entries.
  const listPath = edit.verb === "entry-add" ? path : path.slice(0, -1);
  const field = listFieldAt(draft, listPath);
  const list = valueAt(draft, listPath);
  if (!field || !Array.isArray(list)) return nothing;
  const listName = listPath.join(".");
  if (edit.verb === "entry-add") {
    if (list.length >= (field.max ?? 50)) return { ok: false, problem: `${field.label} holds at most ${field.max} entries.` };
    list.push(newEntry(field.fields ?? [], list.at(-1)));
    return { ok: true, draft, focus: `${listName}.${list.length - 1}` };
  }
  const index = Number(path.at(-1));
  if (!/^\d+$/.test(path.at(-1) ?? "") || !(index < list.length)) return nothing;
  if (edit.verb === "entry-remove") {
    list.splice(index, 1);
    return { ok: true, draft, focus: listName };
  }
  const to = edit.verb === "entry-up" ? index - 1 : index + 1;
  if (to < 0 || to >= list.length) return nothing;
  move(list, index, to);
  return { ok: true, draft, focus: `${listName}.${to}` };
}

/**
 * Why a page cannot live at `path`, if it cannot: the site's own routes (the back office, feeds,
 * files, the forms' and legal documents' pages) and the blog's addresses are not for pages. Another
 * page at the same path is refused by the content core.
 */
export async function pagePathProblem(db: Db, path: string): Promise<string | undefined> {
  if (path === BLOG_PATH || path.startsWith(`${BLOG_PATH}/`)) return `Path ${path} belongs to the blog.`;
  const claim = await fixedRoutes(db, path);
  return claim ? `Path ${path} is not free: ${claim.reason}` : undefined;
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );

/** Whether the form's page is what is saved already (so publishing needs no new revision). */
export function sameAsSaved(draft: unknown, saved: unknown): boolean {
  const a = validatePageDocument(draft);
  const b = validatePageDocument(saved);
  return a.ok && b.ok && stable(a.page) === stable(b.page);
}

/** Every address of this site a block's fields link to, by the control that holds it. */
function siteLinks(draft: PageDraft): { name: string; path: string }[] {
  const links: { name: string; path: string }[] = [];
  const collect = (name: string, field: EditorField, text: unknown) => {
    if (typeof text !== "string") return;
    const urls = field.kind === "link" ? [text] : field.kind === "markup" ? markupLinks(text) : [];
    for (const url of urls) if (isSitePath(url)) links.push({ name, path: url.split(/[?#]/, 1)[0]! });
  };
  const walk = (value: unknown, prefix: string, fields: readonly EditorField[]) => {
    if (typeof value !== "object" || value === null) return;
    for (const field of fields) {
      const name = fieldName(prefix, field.name);
      const item = (value as Record<string, unknown>)[field.name];
      if (field.kind === "list" && Array.isArray(item)) {
        // A list of plain entries (one unnamed field) holds the values themselves.
        const plain = field.fields?.length === 1 && field.fields[0]!.name === "" ? field.fields[0]! : undefined;
        item.forEach((entry, index) =>
          plain ? collect(`${name}.${index}`, plain, entry) : walk(entry, `${name}.${index}`, field.fields ?? []),
        );
      } else if (field.kind === "group") walk(item, name, field.fields ?? []);
      else collect(name, field, item);
    }
  };
  draft.blocks.forEach((block, index) => {
    if (isBlockType(String(block.type))) walk(block, blockPrefix(index), blockRegistry[block.type as BlockType].fields);
  });
  return links;
}

/**
 * A link to an address where the site has nothing (no page, post, form or file, drafted or live)
 * is refused next to its control. A link to a page not public yet is kept: publishing checks it.
 */
async function unknownLinkErrors(db: Db, draft: PageDraft): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const known = new Map<string, boolean>();
  for (const { name, path } of siteLinks(draft)) {
    if (path === draft.path || errors[name]) continue;
    if (!known.has(path)) known.set(path, (await claimOf(db, path)) !== undefined);
    if (!known.get(path)) errors[name] = `No page of the site is at ${path}. Link to one that exists, or create that page first.`;
  }
  return errors;
}

/** Saves the form's page as a new revision of its draft: its path and links checked first. */
export async function savePageDraft(
  db: Db,
  editor: Editor,
  input: { id?: string; baseRevision: number; draft: PageDraft; previousPath?: string; translation?: TranslationWrite },
): Promise<SaveOutcome> {
  const errors: Record<string, string> = {};
  if (input.draft.path !== input.previousPath) {
    const problem = await pagePathProblem(db, input.draft.path);
    if (problem) errors.path = problem;
  }
  Object.assign(errors, await unknownLinkErrors(db, input.draft));
  if (Object.keys(errors).length) return { ok: false, errors };
  return savePage(db, editor, {
    id: input.id,
    baseRevision: input.baseRevision,
    page: input.draft,
    ...(input.translation ? { translation: input.translation } : {}),
  });
}

/**
 * Publishes (or schedules) the page's saved draft; when it moves a page visitors could open, its
 * old address is sent to the new one (a redirect the list of redirects shows).
 */
export async function publishPageDraft(
  db: Db,
  editor: Editor,
  input: { id: string; baseRevision: number; at?: string },
): Promise<PublishOutcome> {
  const before = await findPageForEditor(db, input.id);
  const outcome = await publishPage(db, editor, input);
  const from = before?.publishedPath ?? before?.scheduledPath;
  if (outcome.ok && from && from !== outcome.path) {
    await recordPathMove(db, from, outcome.path, { id: editor.actor.id, email: editor.actor.email, ip: editor.ip });
  }
  return outcome;
}

export const PAGE_STATE_LABELS: Record<DocumentState, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

/** A new page: its address and title, described by its title until the editor writes more, and a hero. */
export function newPageDraft({ path, title }: { path: string; title: string }): PageDraft {
  const hero = { ...structuredClone(blockRegistry.hero.defaultValue), title: title || blockRegistry.hero.defaultValue.title };
  return { path, title, description: title, noindex: false, blocks: [hero] };
}

export type PreviewProblem = { block: number | null; field: string; message: string };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

const previewNote = (text: string) =>
  `<div class="mx-auto my-6 max-w-3xl rounded-lg border border-dashed border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">${escapeHtml(text)}</div>`;

/**
 * The page's blocks as the public renderer draws them, for the editor's preview: every block that
 * passes its schema drawn by its own view, one that does not replaced by a note naming it (the
 * preview follows the editor while a field is half written), and the problems found.
 */
export function renderPagePreview(draft: Pick<PageDraft, "path" | "blocks">): { html: string; problems: PreviewProblem[] } {
  const problems: PreviewProblem[] = [];
  const path = typeof draft.path === "string" && draft.path.startsWith("/") ? draft.path : "/";
  const env = viewEnv(path, "");
  const pieces = draft.blocks.map((input, index) => {
    const checked = validateBlock(input, ["blocks", index]);
    const label = isBlockType(String(input.type)) ? blockRegistry[input.type as BlockType].label : "Block";
    if (!checked.ok) {
      for (const problem of checked.problems) problems.push({ block: index, field: problem.path, message: problem.message });
      return previewNote(`Block ${index + 1} (${label}) is not shown until its fields are fixed.`);
    }
    if (blockRegistry[checked.value.type].live)
      return previewNote(`Block ${index + 1} (${label}): the newest blog posts show here on the site.`);
    return renderBlockHtml(checked.value, env);
  });
  return { html: pieces.join(""), problems };
}

/** The English source's fields beside a translation's: the page's own, and each block's by its editor labels. */
export type PageSourceColumn = {
  fields: { label: string; text: string }[];
  blocks: { label: string; fields: { label: string; text: string }[] }[];
};

/** A field's value as a translator reads it: text as it is, lists and groups as indented lines. */
function sourceText(value: unknown, indent = ""): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value))
    return value.map((item, index) => `${indent}${index + 1}. ${sourceText(item, `${indent}   `).trimStart()}`).join("\n");
  if (typeof value === "object")
    return Object.entries(value)
      .map(([key, item]) =>
        item && typeof item === "object"
          ? `${indent}${key}:\n${sourceText(item, `${indent}  `)}`
          : `${indent}${key}: ${String(item)}`,
      )
      .join("\n");
  return `${indent}${String(value)}`;
}

export function pageSourceColumn(page: PageDraft): PageSourceColumn {
  return {
    fields: [
      { label: "Address", text: page.path },
      { label: "Title", text: page.title },
      { label: "Description", text: page.description },
    ],
    blocks: page.blocks.map((block, index) => {
      const type = String(block.type);
      if (!isBlockType(type)) return { label: `Block ${index + 1}: ${type}`, fields: [] };
      const { label, fields } = blockRegistry[type];
      return {
        label: `Block ${index + 1}: ${label}`,
        fields: fields
          .filter((field) => block[field.name] !== undefined && block[field.name] !== "")
          .map((field) => ({ label: field.label, text: sourceText(block[field.name]) })),
      };
    }),
  };
}
