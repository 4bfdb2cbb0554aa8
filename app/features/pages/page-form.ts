// The page editor's form, as both sides name it: every field of a page and of its blocks is one
// form control whose name is its path in the page ("title", "blocks.2.items.0.icon"), so a refusal
// the server reports for a path lands next to the control of that name. A list entry carries a
// marker ("blocks.2.items.0.#") so an entry whose fields are all empty is still counted.

/**
 * The most bytes a post of the page editor's form may have (the server's cap for /admin/pages, in
 * LARGE_FORM_LIMITS): the editor refuses a larger form before sending it, next to its largest field.
 */
export const PAGE_FORM_MAX_BYTES = 2 * 1024 * 1024;

/** A page's most blocks, and the most bytes its block list may take (as JSON). */
export const MAX_BLOCKS = 60;
export const MAX_BLOCKS_BYTES = 512 * 1024;

/** How an editor draws a field (plain data: the editor module renders it). */
export type FieldKind =
  "text" | "textarea" | "markup" | "link" | "icon" | "image" | "select" | "list" | "group" | "code" | "number" | "checkbox";

export type EditorField = {
  name: string;
  label: string;
  kind: FieldKind;
  help?: string;
  required?: boolean;
  /** Text and markup: the longest value; lists: the most entries. */
  max?: number;
  options?: readonly { value: string; label: string }[];
  /** A list's entry, or a group's fields. */
  fields?: readonly EditorField[];
};

/** A block type as the editor offers it. */
export type EditorBlockType = { type: string; label: string; description: string; fields: readonly EditorField[] };

/** The page's own fields, above its blocks. */
export const PAGE_FIELDS = ["path", "title", "description", "image", "canonicalPath", "noindex"] as const;

/** The control name of `field` under `prefix` (a list of plain text has entries named by their position only). */
export const fieldName = (prefix: string, field: string) => (field ? (prefix ? `${prefix}.${field}` : field) : prefix);

export const blockPrefix = (index: number) => `blocks.${index}`;
export const entryMarker = (entry: string) => `${entry}.#`;

/** A control's id: names hold dots, which CSS selectors would read as classes. */
export const controlId = (name: string) => `page-${name.replaceAll(".", "-").replaceAll("#", "entry")}`;

/** The editing buttons' intents: `<verb>:<target>`, the target a block index or a list's name. */
export const PAGE_EDITS = [
  "block-up",
  "block-down",
  "block-duplicate",
  "block-remove",
  "block-move",
  "entry-add",
  "entry-up",
  "entry-down",
  "entry-remove",
] as const;
export type PageEditVerb = (typeof PAGE_EDITS)[number];
export type PageEdit = { verb: PageEditVerb; target: string; to?: number } | { verb: "block-add"; type: string };

/** An editing intent, or undefined for anything else ("save", "publish"…). */
export function parsePageEdit(intent: string, form: { get(name: string): unknown }): PageEdit | undefined {
  if (intent === "block-add") return { verb: "block-add", type: String(form.get("newBlockType") ?? "") };
  const colon = intent.indexOf(":");
  if (colon < 0) return undefined;
  const verb = intent.slice(0, colon);
  const target = intent.slice(colon + 1);
  if (!(PAGE_EDITS as readonly string[]).includes(verb) || !/^blocks(\.[0-9]{1,3}(\.[A-Za-z]{1,40})?)*$/.test(target))
    return undefined;
  // A dragged block: where it was dropped.
  const to = verb === "block-move" ? Number(form.get("moveTo")) : undefined;
  return { verb: verb as PageEditVerb, target, ...(to !== undefined ? { to } : {}) };
}
