import path from "node:path";
import { decodeHTML } from "entities";
import { parseDocument } from "htmlparser2";
import type { Element } from "domhandler";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { PageEditor, type PageEditorValues } from "~/features/pages/admin/page-editor";
import { applyPageEdit, editorBlockTypes, readPageForm, type PageDraft } from "~/features/pages/page-editor.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import { readPageFiles } from "~/features/pages/page-documents.server";
import { PAGE_FORM_MAX_BYTES, parsePageEdit } from "~/features/pages/page-form";
import { formLimitFor } from "~/features/leads/forms/body.server";

// The page editor's form, as a browser would submit it: the real component drawn to HTML, its
// controls read back as form data, and the server's reader turning them into the page again. Every
// seed page comes back exactly as it was: no field of any block is lost by editing it.

const seedPages = readPageFiles(path.resolve("content/pages")).files;

/** The form data a browser would send for the editor's form (no button pressed). */
function submitted(values: PageEditorValues): FormData {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <PageEditor id="x" revision={1} values={values} blockTypes={editorBlockTypes()} errors={{}} publishing={null} />
      ),
    },
  ]);
  const html = renderToStaticMarkup(<Stub initialEntries={["/"]} />);
  const form = new FormData();
  const walk = (node: Element) => {
    const { name, attribs } = node;
    if (name === "input" && attribs.name) {
      if (attribs.type === "checkbox") {
        if ("checked" in attribs) form.append(attribs.name, "on");
      } else form.append(attribs.name, attribs.value ?? "");
    } else if (name === "textarea" && attribs.name) {
      // A textarea's text is raw to the parser; a browser decodes its entities.
      form.append(attribs.name, decodeHTML(node.children.map((child) => ("data" in child ? child.data : "")).join("")));
    } else if (name === "select" && attribs.name) {
      const options = node.children.filter((child): child is Element => (child as Element).name === "option");
      const chosen = options.find((option) => "selected" in option.attribs) ?? options[0];
      form.append(attribs.name, chosen?.attribs.value ?? "");
    }
    for (const child of node.children ?? []) if ((child as Element).name) walk(child as Element);
  };
  for (const child of parseDocument(html, { decodeEntities: true }).children) if ((child as Element).name) walk(child as Element);
  return form;
}

describe("the page editor's form", () => {
  it("has the seed's pages to read", () => expect(seedPages.length).toBeGreaterThanOrEqual(13));

  it("refuses in the browser exactly what the server would not read", () => {
    for (const path of ["/admin/pages/x", "/admin/pages/live-preview"]) expect(formLimitFor(path)).toBe(PAGE_FORM_MAX_BYTES);
  });

  for (const file of seedPages) {
    it(`gives back ${file.path} unchanged when saved without an edit`, () => {
      const before = validatePageDocument(file.value);
      expect(before.ok).toBe(true);
      const read = readPageForm(submitted(file.value as PageEditorValues));
      const after = validatePageDocument(read);
      expect(after.ok ? [] : after.problems).toEqual([]);
      expect(after.ok && after.page).toEqual(before.ok && before.page);
    });
  }
});

describe("the editing buttons", () => {
  const page = (): PageDraft => ({
    path: "/x",
    title: "X",
    description: "X",
    noindex: false,
    blocks: [
      { type: "hero", title: "One", actions: [], visual: "none" },
      { type: "item-grid", title: "Two", columns: 3, items: [{ title: "A" }, { title: "B" }] },
      { type: "proof-band" },
    ],
  });
  const edit = (intent: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return parsePageEdit(intent, form);
  };
  const types = (draft: PageDraft) => draft.blocks.map((block) => block.type);

  it("move, duplicate, drag and remove blocks, focus following", () => {
    const down = applyPageEdit(page(), edit("block-down:blocks.0")!);
    expect(down.ok && types(down.draft)).toEqual(["item-grid", "hero", "proof-band"]);
    expect(down.ok && down.focus).toBe("blocks.1");
    const dragged = applyPageEdit(page(), edit("block-move:blocks.2", { moveTo: "0" })!);
    expect(dragged.ok && types(dragged.draft)).toEqual(["proof-band", "hero", "item-grid"]);
    const copy = applyPageEdit(page(), edit("block-duplicate:blocks.1")!);
    expect(copy.ok && types(copy.draft)).toEqual(["hero", "item-grid", "item-grid", "proof-band"]);
    const removed = applyPageEdit(page(), edit("block-remove:blocks.0")!);
    expect(removed.ok && types(removed.draft)).toEqual(["item-grid", "proof-band"]);
    const added = applyPageEdit(page(), edit("block-add", { newBlockType: "faq" })!);
    expect(added.ok && added.draft.blocks.at(-1)?.type).toBe("faq");
  });

  it("add, move and remove a list's entries; a new entry copies the last", () => {
    const added = applyPageEdit(page(), edit("entry-add:blocks.1.items")!);
    expect(added.ok && added.draft.blocks[1]!.items).toEqual([{ title: "A" }, { title: "B" }, { title: "B" }]);
    const up = applyPageEdit(page(), edit("entry-up:blocks.1.items.1")!);
    expect(up.ok && up.draft.blocks[1]!.items).toEqual([{ title: "B" }, { title: "A" }]);
    const removed = applyPageEdit(page(), edit("entry-remove:blocks.1.items.0")!);
    expect(removed.ok && removed.draft.blocks[1]!.items).toEqual([{ title: "B" }]);
    const first = applyPageEdit(page(), edit("entry-add:blocks.0.actions")!);
    expect(first.ok && first.draft.blocks[0]!.actions).toEqual([{ label: "Label", href: "/", style: "primary" }]);
  });

  it("refuse what names no block or list of the page, changing nothing", () => {
    const original = page();
    for (const [intent, fields] of [
      ["block-up:blocks.0", {}],
      ["block-down:blocks.2", {}],
      ["block-remove:blocks.9", {}],
      ["block-move:blocks.0", { moveTo: "7" }],
      ["entry-add:blocks.1.constructor", {}],
      ["entry-remove:blocks.1.items.5", {}],
      ["entry-add:blocks.0.title", {}],
      ["block-add", { newBlockType: "script" }],
    ] as const) {
      const parsed = edit(intent, fields);
      expect(parsed, intent).toBeDefined();
      expect(applyPageEdit(original, parsed!).ok, intent).toBe(false);
    }
    expect(original).toEqual(page());
    expect(edit("entry-add:blocks.1.__proto__")).toBeUndefined();
    expect(edit("publish")).toBeUndefined();
  });
});
