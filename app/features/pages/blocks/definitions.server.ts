import { z } from "zod";
import {
  action,
  actionEditorFields,
  code,
  image,
  item,
  itemEditorFields,
  LIMITS,
  link,
  list,
  markup,
  sectionEditorFields,
  sectionFields,
  text,
  anchor,
  type EditorField,
} from "~/features/pages/blocks/fields.server";

// Every block type's schema, default and editor fields. The views are in ~/features/pages/blocks/views.server;
// ~/features/pages/blocks/registry.server puts the two together. Server code only: Zod and the
// editor's metadata never reach a public page's JavaScript.

const plainList = (max: number, length: number = LIMITS.text) => list(text(length), max);

const hero = z.strictObject({
  type: z.literal("hero"),
  eyebrow: text(LIMITS.label).optional(),
  title: text(LIMITS.title),
  lede: markup(2_000).optional(),
  actions: z.array(action).max(2, "holds at most 2 calls to action").default([]),
  visual: z
    .enum(["none", "product-illustration", "image"], { error: () => "must be none, product-illustration or image" })
    .default("none"),
  image: image().optional(),
  /** The support page's help-centre search box (a placeholder: it searches nothing). */
  search: z
    .strictObject({ label: text(LIMITS.label), placeholder: text(LIMITS.label), buttonLabel: text(LIMITS.label) })
    .optional(),
  /** The careers page's Apply Now link, which opens the job application form. */
  application: z.strictObject({ label: text(LIMITS.label) }).optional(),
});

const itemGrid = z.strictObject({
  type: z.literal("item-grid"),
  ...sectionFields,
  columns: z.union([z.literal(2), z.literal(3), z.literal(4)], { error: () => "must be 2, 3 or 4" }).default(3),
  items: list(item, 24),
});

const cards = z.strictObject({
  type: z.literal("cards"),
  ...sectionFields,
  columns: z.union([z.literal(2), z.literal(3), z.literal(4)], { error: () => "must be 2, 3 or 4" }).default(3),
  /** Every card's button: "Download", "Register"… It does nothing yet (a placeholder for a feature to come). */
  button: z.strictObject({
    label: text(LIMITS.label),
    /** Words before the card's title in the button's accessible name ("for" → "Register for <title>"). */
    subjectPrefix: text(LIMITS.label).optional(),
  }),
  items: list(item, 24),
});

const figures = z.strictObject({
  type: z.literal("figures"),
  ...sectionFields,
  items: list(z.strictObject({ value: text(20), label: text(LIMITS.label) }), 8),
});

const proofBand = z.strictObject({ type: z.literal("proof-band") });

const visual = z.strictObject({
  type: z.literal("visual"),
  ...sectionFields,
  visual: z.enum(["how-it-works"], { error: () => "must be how-it-works" }),
});

const linkGroups = z.strictObject({
  type: z.literal("link-groups"),
  ...sectionFields,
  groups: list(
    z.strictObject({
      title: text(LIMITS.label).optional(),
      links: list(z.strictObject({ label: text(LIMITS.label), href: link(), description: text(300).optional() }), 12),
    }),
    8,
  ),
});

const codeSample = z.strictObject({
  type: z.literal("code-sample"),
  ...sectionFields,
  caption: text(LIMITS.title),
  code: code(),
});

const richText = z.strictObject({
  type: z.literal("rich-text"),
  ...sectionFields,
  title: text(LIMITS.title).optional(),
  body: markup(20_000),
});

const ctaBand = z.strictObject({
  type: z.literal("cta-band"),
  ...sectionFields,
  actions: list(action, 2),
});

const faq = z.strictObject({
  type: z.literal("faq"),
  ...sectionFields,
  items: list(z.strictObject({ question: text(300), answer: markup(3_000) }), 30),
});

const latestInsights = z.strictObject({ type: z.literal("latest-insights") });

const productBand = z.strictObject({
  type: z.literal("product-band"),
  anchor: anchor().default("products"),
  eyebrow: text(LIMITS.label).optional(),
  title: text(LIMITS.title),
  text: text(LIMITS.text).optional(),
  items: list(item, 8),
  /** The first is drawn white on the band, the second outlined. */
  actions: z
    .array(action.omit({ style: true }))
    .max(2, "holds at most 2 calls to action")
    .default([]),
});

const bulletColumns = z.strictObject({
  type: z.literal("bullet-columns"),
  ...sectionFields,
  columns: list(
    z.strictObject({
      title: text(LIMITS.label).optional(),
      marker: z.enum(["check", "cross"], { error: () => "must be check or cross" }).default("check"),
      items: plainList(20),
    }),
    4,
  ),
});

const steps = z.strictObject({
  type: z.literal("steps"),
  ...sectionFields,
  steps: plainList(8),
});

const quote = z.strictObject({
  type: z.literal("quote"),
  ...sectionFields,
  text: text(LIMITS.text),
});

const numberedCards = z.strictObject({
  type: z.literal("numbered-cards"),
  ...sectionFields,
  items: list(z.strictObject({ title: text(LIMITS.title), text: text(LIMITS.text) }), 12),
});

const panels = z.strictObject({
  type: z.literal("panels"),
  ...sectionFields,
  items: list(z.strictObject({ title: text(LIMITS.title), text: text(LIMITS.text) }), 4),
});

const textList = z.strictObject({
  type: z.literal("text-list"),
  ...sectionFields,
  items: plainList(24, LIMITS.title),
});

const statusPanel = z.strictObject({
  type: z.literal("status-panel"),
  ...sectionFields,
  summary: text(LIMITS.title),
  figures: plainList(6, LIMITS.title),
  componentsTitle: text(LIMITS.label),
  components: plainList(12, LIMITS.label),
  componentState: text(LIMITS.label),
});

const definitions = z.strictObject({
  type: z.literal("definitions"),
  ...sectionFields,
  items: list(z.strictObject({ term: text(LIMITS.title), text: text(LIMITS.text) }), 12),
});

const endpoints = z.strictObject({
  type: z.literal("endpoints"),
  ...sectionFields,
  items: list(
    z.strictObject({
      method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"], { error: () => "must be GET, POST, PUT, PATCH or DELETE" }),
      path: text(LIMITS.title),
      text: text(LIMITS.text),
    }),
    40,
  ),
});

const noteCards = z.strictObject({
  type: z.literal("note-cards"),
  ...sectionFields,
  items: list(z.strictObject({ title: text(LIMITS.title), text: text(LIMITS.text), note: text(LIMITS.title).optional() }), 24),
});

/** Every block type's schema, by type name. */
export const blockSchemas = {
  hero,
  "item-grid": itemGrid,
  cards,
  figures,
  "proof-band": proofBand,
  visual,
  "link-groups": linkGroups,
  "code-sample": codeSample,
  "rich-text": richText,
  "cta-band": ctaBand,
  faq,
  "latest-insights": latestInsights,
  "product-band": productBand,
  "bullet-columns": bulletColumns,
  steps,
  quote,
  "numbered-cards": numberedCards,
  panels,
  "text-list": textList,
  "status-panel": statusPanel,
  definitions,
  endpoints,
  "note-cards": noteCards,
};

export type BlockType = keyof typeof blockSchemas;
export type BlockOf<Type extends BlockType> = z.output<(typeof blockSchemas)[Type]>;
export type Block = { [Type in BlockType]: BlockOf<Type> }[BlockType];
export type BlockInput = { [Type in BlockType]: z.input<(typeof blockSchemas)[Type]> }[BlockType];

export const blockTypes = Object.keys(blockSchemas) as BlockType[];

/** What the editor shows and offers for each type. */
export type BlockMeta<Type extends BlockType> = {
  label: string;
  description: string;
  /** A valid block a new one starts from. */
  defaultValue: BlockOf<Type>;
  fields: readonly EditorField[];
};

const columnsField: EditorField = {
  name: "columns",
  label: "Columns on wide screens",
  kind: "select",
  options: [
    { value: "2", label: "2" },
    { value: "3", label: "3" },
    { value: "4", label: "4" },
  ],
};
const itemsField = (max: number): EditorField => ({ name: "items", label: "Items", kind: "list", max, fields: itemEditorFields });
const textItems = (name: string, label: string, max: number, fields: readonly EditorField[]): EditorField => ({
  name,
  label,
  kind: "list",
  max,
  fields,
});
const plainItems = (name: string, label: string, max: number): EditorField => ({
  name,
  label,
  kind: "list",
  max,
  fields: [{ name: "", label: "Entry", kind: "text", required: true }],
});
const titleAndText: readonly EditorField[] = [
  { name: "title", label: "Title", kind: "text", required: true, max: LIMITS.title },
  { name: "text", label: "Text", kind: "textarea", required: true, max: LIMITS.text },
];

export const blockMeta: { [Type in BlockType]: BlockMeta<Type> } = {
  hero: {
    label: "Hero",
    description: "The band at the top of a page with its one main heading.",
    defaultValue: { type: "hero", title: "A new page", actions: [], visual: "none" },
    fields: [
      { name: "eyebrow", label: "Eyebrow", kind: "text", max: LIMITS.label, help: "A short line above the heading." },
      { name: "title", label: "Main heading", kind: "text", required: true, max: LIMITS.title },
      { name: "lede", label: "Introduction", kind: "markup", max: 2_000 },
      { name: "actions", label: "Calls to action", kind: "list", max: 2, fields: actionEditorFields },
      {
        name: "visual",
        label: "Picture",
        kind: "select",
        options: [
          { value: "none", label: "None" },
          { value: "product-illustration", label: "The product illustration" },
          { value: "image", label: "An uploaded image" },
        ],
      },
      { name: "image", label: "Image", kind: "image", help: "Used when the picture is an uploaded image; alt text is required." },
      {
        name: "search",
        label: "Help-centre search box",
        kind: "group",
        help: "A placeholder: it searches nothing yet.",
        fields: [
          { name: "label", label: "Label", kind: "text", required: true },
          { name: "placeholder", label: "Placeholder", kind: "text", required: true },
          { name: "buttonLabel", label: "Button", kind: "text", required: true },
        ],
      },
      {
        name: "application",
        label: "Job application",
        kind: "group",
        help: "The careers page's Apply Now link, which opens the application form.",
        fields: [{ name: "label", label: "Link label", kind: "text", required: true }],
      },
    ],
  },
  "item-grid": {
    label: "Grid of items",
    description: "Features, benefits, channels: an icon, a title and a text each.",
    defaultValue: { type: "item-grid", title: "Features", columns: 3, items: [{ icon: "shield-check", title: "A feature" }] },
    fields: [...sectionEditorFields, columnsField, itemsField(24)],
  },
  cards: {
    label: "Cards with a button",
    description: "Downloads, events: each card has a button (which does nothing yet).",
    defaultValue: {
      type: "cards",
      title: "Downloads",
      columns: 3,
      button: { label: "Download" },
      items: [{ icon: "file-text", title: "A guide", meta: "PDF" }],
    },
    fields: [
      ...sectionEditorFields,
      columnsField,
      {
        name: "button",
        label: "Button",
        kind: "group",
        fields: [
          { name: "label", label: "Label", kind: "text", required: true },
          {
            name: "subjectPrefix",
            label: "Words before the card's title",
            kind: "text",
            help: "For screen readers: “for” makes “Register for <title>”.",
          },
        ],
      },
      itemsField(24),
    ],
  },
  figures: {
    label: "Figures",
    description: "Headline numbers, each with what it counts.",
    defaultValue: { type: "figures", title: "In numbers", items: [{ value: "100+", label: "Customers" }] },
    fields: [
      ...sectionEditorFields,
      textItems("items", "Figures", 8, [
        { name: "value", label: "Value", kind: "text", required: true, max: 20 },
        { name: "label", label: "Label", kind: "text", required: true, max: LIMITS.label },
      ]),
    ],
  },
  "proof-band": {
    label: "Proof points",
    description: "The service figures and frameworks band, with the link to the trust page.",
    defaultValue: { type: "proof-band" },
    fields: [],
  },
  visual: {
    label: "Product diagram",
    description: "A section holding one of the product's drawings.",
    defaultValue: { type: "visual", title: "How it works", visual: "how-it-works" },
    fields: [
      ...sectionEditorFields,
      {
        name: "visual",
        label: "Drawing",
        kind: "select",
        options: [{ value: "how-it-works", label: "How it works (deployment diagram and steps)" }],
      },
    ],
  },
  "link-groups": {
    label: "Groups of links",
    description: "Links with a line of description, in titled groups.",
    defaultValue: {
      type: "link-groups",
      title: "Explore",
      groups: [{ title: "Learn", links: [{ label: "Blog", href: "/resources/blog" }] }],
    },
    fields: [
      ...sectionEditorFields,
      textItems("groups", "Groups", 8, [
        {
          name: "title",
          label: "Group heading",
          kind: "text",
          help: "One group without a heading is drawn as a single narrow list.",
        },
        textItems("links", "Links", 12, [
          { name: "label", label: "Label", kind: "text", required: true },
          { name: "href", label: "Link", kind: "link", required: true },
          { name: "description", label: "Description", kind: "text" },
        ]),
      ]),
    ],
  },
  "code-sample": {
    label: "Code sample",
    description: "A captioned piece of code, shown as written.",
    defaultValue: { type: "code-sample", title: "Quick start", caption: "TypeScript", code: 'console.log("Hello");' },
    fields: [
      ...sectionEditorFields,
      { name: "caption", label: "Caption", kind: "text", required: true },
      { name: "code", label: "Code", kind: "code", required: true, max: LIMITS.code },
    ],
  },
  "rich-text": {
    label: "Rich text",
    description: "Paragraphs in the post markup: emphasis, links, lists.",
    defaultValue: { type: "rich-text", title: "About", body: "A paragraph." },
    fields: [
      { name: "title", label: "Heading", kind: "text", max: LIMITS.title },
      ...sectionEditorFields.filter((field) => field.name !== "title"),
      { name: "body", label: "Text", kind: "markup", required: true, max: 20_000 },
    ],
  },
  "cta-band": {
    label: "Call to action",
    description: "A heading, a sentence and up to two buttons.",
    defaultValue: {
      type: "cta-band",
      title: "See it on your own data",
      actions: [{ label: "Request Demo", href: "/request-demo", style: "primary" }],
    },
    fields: [
      ...sectionEditorFields,
      { name: "actions", label: "Calls to action", kind: "list", max: 2, fields: actionEditorFields },
    ],
  },
  faq: {
    label: "Frequently asked questions",
    description: "Questions and answers; search engines get them as FAQPage structured data.",
    defaultValue: {
      type: "faq",
      title: "Frequently asked questions",
      items: [{ question: "A question?", answer: "The answer." }],
    },
    fields: [
      ...sectionEditorFields,
      textItems("items", "Questions", 30, [
        { name: "question", label: "Question", kind: "text", required: true },
        { name: "answer", label: "Answer", kind: "markup", required: true },
      ]),
    ],
  },
  "latest-insights": {
    label: "Latest Insights",
    description: "The newest blog posts (the featured one first).",
    defaultValue: { type: "latest-insights" },
    fields: [],
  },
  "product-band": {
    label: "Product band",
    description: "A dark band presenting a product: heading, text, features and two buttons.",
    defaultValue: {
      type: "product-band",
      anchor: "products",
      title: "Our product",
      items: [{ icon: "lock", title: "A feature" }],
      actions: [],
    },
    fields: [
      { name: "eyebrow", label: "Eyebrow", kind: "text" },
      { name: "title", label: "Heading", kind: "text", required: true },
      { name: "text", label: "Text", kind: "textarea" },
      itemsField(8),
      {
        name: "actions",
        label: "Calls to action",
        kind: "list",
        max: 2,
        fields: actionEditorFields.filter((field) => field.name !== "style"),
      },
      { name: "anchor", label: "Anchor", kind: "text" },
    ],
  },
  "bullet-columns": {
    label: "Bullet lists",
    description: "Short statements with a tick or a cross, in titled columns.",
    defaultValue: {
      type: "bullet-columns",
      title: "Do and don't",
      columns: [{ title: "Do", marker: "check", items: ["A statement."] }],
    },
    fields: [
      ...sectionEditorFields,
      textItems("columns", "Columns", 4, [
        {
          name: "title",
          label: "Column heading",
          kind: "text",
          help: "One column without a heading is drawn as a single narrow list.",
        },
        {
          name: "marker",
          label: "Marker",
          kind: "select",
          options: [
            { value: "check", label: "Tick" },
            { value: "cross", label: "Cross" },
          ],
        },
        plainItems("items", "Statements", 20),
      ]),
    ],
  },
  steps: {
    label: "Steps",
    description: "Numbered steps; “Title: detail” shows the title in bold.",
    defaultValue: { type: "steps", title: "How it works", steps: ["Connect your tools."] },
    fields: [...sectionEditorFields, plainItems("steps", "Steps", 8)],
  },
  quote: {
    label: "Quote",
    description: "A statement set apart (a mission statement).",
    defaultValue: { type: "quote", title: "Mission statement", text: "Our mission." },
    fields: [...sectionEditorFields, { name: "text", label: "Text", kind: "textarea", required: true }],
  },
  "numbered-cards": {
    label: "Numbered cards",
    description: "Principles or commitments, numbered.",
    defaultValue: { type: "numbered-cards", title: "Principles", items: [{ title: "A principle", text: "What it means." }] },
    fields: [...sectionEditorFields, textItems("items", "Cards", 12, titleAndText)],
  },
  panels: {
    label: "Panels",
    description: "Two to four tinted panels side by side (mission and vision).",
    defaultValue: { type: "panels", title: "Mission and vision", items: [{ title: "Our mission", text: "What we do." }] },
    fields: [...sectionEditorFields, textItems("items", "Panels", 4, titleAndText)],
  },
  "text-list": {
    label: "List of titles",
    description: "Short entries in a two-column list (popular articles).",
    defaultValue: { type: "text-list", title: "Popular articles", items: ["An article"] },
    fields: [...sectionEditorFields, plainItems("items", "Entries", 24)],
  },
  "status-panel": {
    label: "Status panel",
    description: "A fixed status summary: figures and components (not a live feed).",
    defaultValue: {
      type: "status-panel",
      title: "System status",
      summary: "All systems operational",
      figures: ["99.9% uptime"],
      componentsTitle: "Components",
      components: ["API"],
      componentState: "Operational",
    },
    fields: [
      ...sectionEditorFields,
      { name: "summary", label: "Summary", kind: "text", required: true },
      plainItems("figures", "Figures", 6),
      { name: "componentsTitle", label: "Components heading", kind: "text", required: true },
      plainItems("components", "Components", 12),
      { name: "componentState", label: "Components' state", kind: "text", required: true },
    ],
  },
  definitions: {
    label: "Definitions",
    description: "Terms and what they mean, as cards.",
    defaultValue: { type: "definitions", title: "Basics", items: [{ term: "Authentication", text: "How to authenticate." }] },
    fields: [
      ...sectionEditorFields,
      textItems("items", "Terms", 12, [
        { name: "term", label: "Term", kind: "text", required: true },
        { name: "text", label: "Meaning", kind: "textarea", required: true },
      ]),
    ],
  },
  endpoints: {
    label: "API endpoints",
    description: "HTTP method, path and what it does.",
    defaultValue: { type: "endpoints", title: "Endpoints", items: [{ method: "GET", path: "/scans", text: "List scans." }] },
    fields: [
      ...sectionEditorFields,
      textItems("items", "Endpoints", 40, [
        {
          name: "method",
          label: "Method",
          kind: "select",
          options: ["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => ({ value: method, label: method })),
        },
        { name: "path", label: "Path", kind: "text", required: true },
        { name: "text", label: "Description", kind: "textarea", required: true },
      ]),
    ],
  },
  "note-cards": {
    label: "Cards with a note",
    description: "Title, text and a highlighted note (subprocessors and their location).",
    defaultValue: {
      type: "note-cards",
      title: "Subprocessors",
      items: [{ title: "A company", text: "What it does.", note: "Location: EU" }],
    },
    fields: [
      ...sectionEditorFields,
      textItems("items", "Cards", 24, [...titleAndText, { name: "note", label: "Note", kind: "text" }]),
    ],
  },
};
