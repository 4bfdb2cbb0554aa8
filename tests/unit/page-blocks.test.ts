import { describe, expect, it } from "vitest";
import {
  blockRegistry,
  blockTypes,
  describeProblem,
  internalLinksOf,
  validateBlock,
  validateBlocks,
  type Block,
  type BlockType,
} from "~/features/pages/blocks/registry.server";
import { renderBlockHtml, renderSegments, viewEnv } from "~/features/pages/blocks/render.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import { faqJsonLd } from "~/features/pages/page-loader.server";

// The editor's validation and the public renderer agree, type by type: a block the schema accepts
// renders (every word it holds reaches the page), and what the schema refuses is named by its field.

const env = viewEnv("/example", "");
const escapeHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");

/** The words a block holds (its type name and its choices among fixed options aside). */
function wordsOf(value: unknown, key = ""): string[] {
  if (typeof value === "string")
    return ["type", "style", "visual", "marker", "columns"].includes(key) ? [] : [value.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")];
  if (Array.isArray(value)) return value.flatMap((entry) => wordsOf(entry, key));
  if (typeof value === "object" && value) return Object.entries(value).flatMap(([name, child]) => wordsOf(child, name));
  return [];
}

const clone = <T>(value: T): T => structuredClone(value);

/** A block of the type with every optional field filled, for the invalid cases to break. */
const full: { [Type in BlockType]?: Record<string, unknown> } = {
  hero: {
    type: "hero",
    eyebrow: "Campaign",
    title: "A landing page",
    lede: "A sentence with [a link](/contact-sales).",
    actions: [{ label: "Contact Sales", href: "/contact-sales", style: "primary" }],
    visual: "image",
    image: { src: "/media/1/cover.jpg", alt: "A cover", width: 1600, height: 900 },
  },
  "item-grid": {
    type: "item-grid",
    title: "Features",
    columns: 3,
    items: [{ icon: "lock", title: "Encryption", text: "At rest." }],
  },
};

type Invalid = {
  name: string;
  type: BlockType;
  change: (block: Record<string, unknown>) => void;
  path: string;
  message?: RegExp;
};

const invalid: Invalid[] = [
  {
    name: "a missing required field",
    type: "hero",
    change: (block) => delete block.title,
    path: "title",
    message: /is required/,
  },
  {
    name: "an unknown icon",
    type: "item-grid",
    change: (block) => ((block.items as { icon: string }[])[0]!.icon = "skull"),
    path: "items.0.icon",
    message: /"skull" is not an icon/,
  },
  {
    name: "an image without alt text",
    type: "hero",
    change: (block) => ((block.image as { alt: string }).alt = " "),
    path: "image.alt",
    message: /alt text is required/,
  },
  {
    name: "an image without its size",
    type: "hero",
    change: (block) => delete (block.image as { width?: number }).width,
    path: "image.width",
  },
  {
    name: "an outside link that is not https",
    type: "hero",
    change: (block) => ((block.actions as { href: string }[])[0]!.href = "http://example.com"),
    path: "actions.0.href",
    message: /https/,
  },
  {
    name: "a javascript: link",
    type: "hero",
    change: (block) => ((block.actions as { href: string }[])[0]!.href = "javascript:alert(1)"),
    path: "actions.0.href",
  },
  {
    name: "a protocol-relative link",
    type: "hero",
    change: (block) => ((block.actions as { href: string }[])[0]!.href = "//evil.example"),
    path: "actions.0.href",
  },
  {
    name: "an http link in markup",
    type: "hero",
    change: (block) => (block.lede = "See [this](http://example.com)."),
    path: "lede",
    message: /must use https/,
  },
  {
    name: "a script in a text field",
    type: "item-grid",
    change: (block) => (block.title = "Hello <script>alert(1)</script>"),
    path: "title",
    message: /plain text/,
  },
  {
    name: "HTML in a markup field",
    type: "hero",
    change: (block) => (block.lede = "<script>alert(1)</script>"),
    path: "lede",
    message: /HTML is not part of the post markup/,
  },
  {
    name: "an oversize string",
    type: "item-grid",
    change: (block) => (block.title = "x".repeat(201)),
    path: "title",
    message: /longer than 200/,
  },
  {
    name: "an oversize list",
    type: "item-grid",
    change: (block) => (block.items = Array.from({ length: 25 }, (_, index) => ({ title: `Item ${index}` }))),
    path: "items",
    message: /at most 24/,
  },
  { name: "an empty list", type: "item-grid", change: (block) => (block.items = []), path: "items", message: /at least one/ },
  { name: "an unknown field", type: "item-grid", change: (block) => (block.colour = "red"), path: "" },
  {
    name: "more than two calls to action",
    type: "hero",
    change: (block) => (block.actions = Array(3).fill({ label: "Go", href: "/" })),
    path: "actions",
  },
  { name: "a bad anchor", type: "item-grid", change: (block) => (block.anchor = "Has Spaces"), path: "anchor" },
];

describe("block types", () => {
  it("are listed once each, with a view and editor fields", () => {
    expect(new Set(blockTypes).size).toBe(blockTypes.length);
    for (const type of blockTypes) {
      const definition = blockRegistry[type];
      expect(definition.type).toBe(type);
      expect(definition.view, type).toBeTypeOf("function");
      expect(definition.label, type).toBeTruthy();
      expect(Array.isArray(definition.fields), type).toBe(true);
    }
  });

  for (const type of blockTypes) {
    describe(type, () => {
      const definition = blockRegistry[type];

      it("its default validates and renders every word it holds", () => {
        const checked = validateBlock(clone(definition.defaultValue));
        expect(checked.ok ? [] : checked.problems.map(describeProblem)).toEqual([]);
        const html = renderBlockHtml(definition.defaultValue, env);
        expect(html.length).toBeGreaterThan(0);
        for (const word of wordsOf(definition.defaultValue)) expect(html, word).toContain(escapeHtml(word));
      });

      it("every editor field names a field of the schema, and every required one is refused when missing", () => {
        const shape = (definition.schema as unknown as { shape: Record<string, unknown> }).shape;
        for (const field of definition.fields) {
          expect(Object.keys(shape), `${type}.${field.name}`).toContain(field.name);
          if (!field.required) continue;
          const block = clone(definition.defaultValue) as Record<string, unknown>;
          delete block[field.name];
          const checked = validateBlock(block);
          expect(checked.ok, `${type} without ${field.name}`).toBe(false);
          if (!checked.ok) expect(checked.problems.map((problem) => problem.path)).toContain(field.name);
        }
      });

      it("refuses a script in every required text field, naming it", () => {
        for (const field of definition.fields.filter(
          (entry) => entry.required && ["text", "textarea", "markup"].includes(entry.kind),
        )) {
          const block = clone(definition.defaultValue) as Record<string, unknown>;
          block[field.name] = "<script>alert(1)</script>";
          const checked = validateBlock(block);
          expect(checked.ok, `${type}.${field.name}`).toBe(false);
          if (!checked.ok) expect(checked.problems[0]!.path).toBe(field.name);
        }
      });
    });
  }
});

describe("invalid blocks are refused with the field named", () => {
  for (const { name, type, change, path, message } of invalid) {
    it(`${type}: ${name}`, () => {
      const block = clone(full[type] ?? blockRegistry[type].defaultValue) as Record<string, unknown>;
      expect(validateBlock(clone(block)).ok, "before the change").toBe(true);
      change(block);
      const checked = validateBlock(block);
      expect(checked.ok).toBe(false);
      if (checked.ok) return;
      const problem = checked.problems.find((entry) => entry.path === path);
      expect(problem, JSON.stringify(checked.problems)).toBeDefined();
      if (message) expect(problem!.message).toMatch(message);
      if (path) expect(describeProblem(problem!)).toMatch(new RegExp(`^${path.replaceAll(".", "\\.")}: `));
    });
  }

  it("an unknown block type, by name", () => {
    const checked = validateBlock({ type: "carousel" });
    expect(checked.ok).toBe(false);
    if (!checked.ok)
      expect(checked.problems[0]).toMatchObject({
        path: "type",
        message: expect.stringMatching(/"carousel" is not a block type/),
      });
  });

  it("a block list too long or too large, and each bad block by its index", () => {
    const many = Array.from({ length: 61 }, () => ({ type: "proof-band" }));
    expect(validateBlocks(many)).toMatchObject({
      ok: false,
      problems: [{ path: "blocks", message: expect.stringMatching(/at most 60/) }],
    });
    const huge = [{ type: "rich-text", body: "x".repeat(10 * 1024 * 1024) }];
    expect(validateBlocks(huge)).toMatchObject({
      ok: false,
      problems: [{ path: "blocks", message: expect.stringMatching(/KB/) }],
    });
    const checked = validateBlocks([{ type: "proof-band" }, { type: "quote", title: "Q" }]);
    expect(checked).toMatchObject({ ok: false, problems: [{ path: "blocks.1.text" }] });
  });

  it("a page document's fields and its blocks, by path", () => {
    const checked = validatePageDocument({ path: "/Bad Path", title: "T", description: "D", blocks: [{ type: "hero" }] });
    expect(checked.ok).toBe(false);
    if (!checked.ok)
      expect(checked.problems.map((problem) => problem.path)).toEqual(expect.arrayContaining(["path", "blocks.0.title"]));
  });
});

describe("rendering", () => {
  it("draws markup safely: text escaped, links kept, no paragraph wrapper in an introduction", () => {
    const block = {
      type: "item-grid",
      title: "T",
      intro: "Install `pkg` and see [the docs](/resources/documentation).",
      columns: 3,
      items: [{ title: "A & B" }],
    } satisfies Block;
    const html = renderBlockHtml(block, env);
    expect(html).toMatch(/<code class="[^"]*font-mono[^"]*">pkg<\/code>/);
    expect(html).toMatch(/<a class="font-semibold text-brand-700 underline" href="\/resources\/documentation">the docs<\/a>/);
    expect(html).toContain("A &amp; B");
    expect(html).not.toMatch(/<div class="mt-3[^"]*"><div[^>]*><p>/);
  });

  it("keeps the campaign's parameters in the careers Apply Now link", () => {
    const hero = { type: "hero", title: "Careers", actions: [], visual: "none", application: { label: "Apply Now" } } as Block;
    const html = renderBlockHtml(hero, viewEnv("/company/careers", "?utm_source=x&other=y"));
    expect(html).toContain('href="/company/careers?utm_source=x&amp;apply=1"');
  });

  it("draws runs of static blocks as one piece, and leaves the live ones to the browser", () => {
    const page = validatePageDocument({
      path: "/landing",
      title: "Landing",
      description: "A landing page.",
      blocks: [
        { type: "hero", title: "Hi" },
        { type: "proof-band" },
        { type: "latest-insights" },
        { type: "quote", title: "Q", text: "T" },
      ],
    });
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const segments = renderSegments(page.page, "");
    expect(segments.map((segment) => segment.kind)).toEqual(["html", "latest-insights", "html"]);
  });

  it("gives an FAQ block FAQPage structured data, its answers as text", () => {
    const page = validatePageDocument({
      path: "/faq",
      title: "FAQ",
      description: "Questions.",
      blocks: [
        {
          type: "faq",
          title: "FAQ",
          items: [{ question: "Is it private?", answer: "Yes: see [trust](/terms/trust-transparency) & more." }],
        },
      ],
    });
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    expect(faqJsonLd(page.page)).toEqual([
      {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: [
          { "@type": "Question", name: "Is it private?", acceptedAnswer: { "@type": "Answer", text: "Yes: see trust & more." } },
        ],
      },
    ]);
  });

  it("lists a block's links to this site, for the content core to check", () => {
    const block = {
      type: "link-groups",
      title: "Explore",
      intro: "Or [ask us](/contact-sales?topic=x) or [read](https://example.com).",
      groups: [
        {
          title: "Build",
          links: [
            { label: "Docs", href: "/resources/documentation#start" },
            { label: "Out", href: "https://example.com" },
          ],
        },
      ],
    } as Block;
    expect(internalLinksOf(block).sort()).toEqual(["/contact-sales", "/resources/documentation"]);
  });
});
