import { z } from "zod";
import { iconNames, type IconName } from "~/assets/icon-names";
import { checkMarkup } from "~/features/blog/markup/check.server";
import { isAllowedImageUrl } from "~/features/blog/markup/urls.server";
import type { EditorField, FieldKind } from "~/features/pages/page-form";

// The building bricks of block schemas, each with the rule the editor and the public renderer
// share: plain text never carries HTML, markup goes through the post markup's own checker, links
// stay on the site or go to https, icons come from the site's set, images have alt text.

export type { EditorField, FieldKind };

export const LIMITS = {
  label: 80,
  title: 200,
  text: 1_000,
  markup: 5_000,
  code: 10_000,
  href: 500,
} as const;

/** An HTML tag or comment opener: a text field is plain text, shown as written. */
const HTML_TAG = /<\s*\/?\s*[a-z!?]/i;

const required = (what: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? "is required" : `must be ${what}`),
});

/** Plain text on one line or several: trimmed, required, no HTML. */
export function text(max: number = LIMITS.title) {
  return z
    .string(required("text"))
    .trim()
    .min(1, "is required")
    .max(max, `is longer than ${max} characters`)
    .refine((value) => !HTML_TAG.test(value), "is plain text: HTML such as <script> is not allowed");
}

/** Post markup (paragraphs, emphasis, links, inline code), refused where the renderer would drop or show it as text. */
export function markup(max: number = LIMITS.markup) {
  return z
    .string(required("text"))
    .trim()
    .min(1, "is required")
    .max(max, `is longer than ${max} characters`)
    .superRefine((value, context) => {
      for (const problem of checkMarkup(value))
        context.addIssue({ code: "custom", message: `line ${problem.line}: ${problem.message}` });
      for (const url of markupLinks(value))
        if (/^http:/i.test(url))
          context.addIssue({ code: "custom", message: `the link to "${url.slice(0, 80)}" must use https` });
    });
}

/** Code shown as written (escaped), so it may hold any characters. */
export function code(max: number = LIMITS.code) {
  return z.string(required("text")).min(1, "is required").max(max, `is longer than ${max} characters`);
}

const INLINE_LINK = /(^|[^!\\])\[[^\]\n]*\]\(\s*([^)\s]*)(?:\s+"[^"\n]*")?\s*\)/g;

/** The URLs of a markup text's links. */
export function markupLinks(value: string): string[] {
  return [...value.matchAll(INLINE_LINK)].map((match) => match[2]!);
}

/** A path of this site: "/…", never "//…" or "/\…", no spaces or control characters. */
export function isSitePath(value: string): boolean {
  return /^\/(?![/\\])[^\s\\]*$/.test(value);
}

/** Where a link may go: a path of this site, an https address, or an email address. */
export function link() {
  return z
    .string(required("a link"))
    .trim()
    .min(1, "is required")
    .max(LIMITS.href, `is longer than ${LIMITS.href} characters`)
    .refine(
      (value) => isSitePath(value) || isHttpsUrl(value) || /^mailto:[^\s<>]+@[^\s<>]+$/i.test(value),
      "must be a path of this site (/…), an https:// address or a mailto: address",
    );
}

function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return Boolean(new URL(value).host);
  } catch {
    return false;
  }
}

/** A path of this site a page lives at. */
export function sitePath() {
  return z
    .string(required("a path"))
    .trim()
    .max(LIMITS.href, `is longer than ${LIMITS.href} characters`)
    .refine(
      (value) => /^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/.test(value),
      "must be a path such as /company/about (lowercase letters, digits, -)",
    );
}

const ICONS: ReadonlySet<string> = new Set(iconNames.filter((name) => !name.startsWith("brand-") && name !== "logo"));

/** An icon of the site's set (app/assets/icon-names.ts); brand marks are for the footer only. */
export function icon() {
  return z
    .string(required("an icon name"))
    .refine((value) => ICONS.has(value), {
      error: (issue) => `"${String(issue.input).slice(0, 40)}" is not an icon of the site's set`,
    })
    .transform((value) => value as IconName);
}

export const iconOptions = [...ICONS].map((name) => ({ value: name, label: name }));

/** An image: on this site or https, with alt text and its size (so its box is reserved before it loads). */
export function image() {
  return z.strictObject({
    src: z
      .string(required("an image address"))
      .trim()
      .min(1, "is required")
      .max(LIMITS.href)
      .refine(
        (value) => isAllowedImageUrl(value) && !/^http:/i.test(value) && !/\s/.test(value),
        "must be a path of this site (/media/…) or an https:// address",
      ),
    alt: z
      .string({ error: () => "alt text is required" })
      .trim()
      .min(1, "alt text is required")
      .max(300)
      .refine((value) => !HTML_TAG.test(value), "is plain text"),
    width: z
      .number({ error: () => "is required (pixels)" })
      .int()
      .min(1)
      .max(8000),
    height: z
      .number({ error: () => "is required (pixels)" })
      .int()
      .min(1)
      .max(8000),
  });
}

/** A list of at most `max` entries (at least one). */
export function list<Item extends z.ZodType>(item: Item, max: number) {
  return z.array(item, required("a list")).min(1, "needs at least one entry").max(max, `holds at most ${max} entries`);
}

/** A section's anchor: its id on the page (#anchor) and its heading's id (anchor-heading). */
export function anchor() {
  return z
    .string()
    .trim()
    .max(60)
    .refine((value) => /^[a-z][a-z0-9-]*$/.test(value), "must start with a letter and hold only lowercase letters, digits and -");
}

/** The fields every section-like block starts with. */
export const sectionFields = {
  anchor: anchor().optional(),
  title: text(LIMITS.title),
  intro: markup(1_000).optional(),
};

export const sectionEditorFields: readonly EditorField[] = [
  { name: "title", label: "Heading", kind: "text", required: true, max: LIMITS.title },
  { name: "intro", label: "Introduction", kind: "markup", max: 1_000, help: "A sentence under the heading." },
  {
    name: "anchor",
    label: "Anchor",
    kind: "text",
    max: 60,
    help: "The section's address on the page (#anchor): lowercase letters, digits and -.",
  },
];

/** A call to action: a link drawn as a button. */
export const action = z.strictObject({
  label: text(LIMITS.label),
  href: link(),
  style: z.enum(["primary", "secondary"], { error: () => "must be primary or secondary" }).default("primary"),
  /** Words only screen readers hear after the label ("about Sentinel"), so several "Learn More" stay distinct. */
  screenReaderSuffix: text(LIMITS.label).optional(),
});

export const actionEditorFields: readonly EditorField[] = [
  { name: "label", label: "Label", kind: "text", required: true, max: LIMITS.label },
  {
    name: "href",
    label: "Link",
    kind: "link",
    required: true,
    help: "A path of this site (/contact-sales) or an https:// address.",
  },
  {
    name: "style",
    label: "Style",
    kind: "select",
    options: [
      { value: "primary", label: "Primary" },
      { value: "secondary", label: "Secondary" },
    ],
  },
  {
    name: "screenReaderSuffix",
    label: "Words for screen readers",
    kind: "text",
    max: LIMITS.label,
    help: "Read after the label, e.g. “about Sentinel” after “Learn More”.",
  },
];

/** An entry of a grid: icon, title, a short line above the text, the text. */
export const item = z.strictObject({
  icon: icon().optional(),
  title: text(LIMITS.title),
  meta: text(LIMITS.label).optional(),
  text: text(LIMITS.text).optional(),
});

export const itemEditorFields: readonly EditorField[] = [
  { name: "icon", label: "Icon", kind: "icon", options: iconOptions },
  { name: "title", label: "Title", kind: "text", required: true, max: LIMITS.title },
  {
    name: "meta",
    label: "Detail line",
    kind: "text",
    max: LIMITS.label,
    help: "A short line under the title (format, place, time).",
  },
  { name: "text", label: "Text", kind: "textarea", max: LIMITS.text },
];
