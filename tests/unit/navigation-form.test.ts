import { describe, expect, it } from "vitest";
import { applyMenuEdit, parseMenuEdit, readMenuForm, type MenuDraft } from "~/features/navigation/menu-form";

// The navigation editor's form: read as typed (bounded, whatever a hostile form sends) and
// rearranged by its buttons without saving.

const draft: MenuDraft = [
  {
    id: "a",
    label: "A",
    links: [
      { label: "One", to: "/" },
      { label: "Two", to: "/community" },
    ],
  },
  { id: "b", label: "B", links: [{ label: "Three", to: "https://quorvant.com" }] },
];

describe("reading a menu's form", () => {
  it("reads groups and links by position, as typed", () => {
    const form = new URLSearchParams({
      "group-0-id": "a",
      "group-0-label": " A ",
      "group-0-link-0-label": "One",
      "group-0-link-0-to": "/",
      "group-0-link-1-to": "/community",
      "group-1-label": "B",
    });
    expect(readMenuForm("header", form)).toEqual([
      {
        id: "a",
        label: " A ",
        links: [
          { label: "One", to: "/" },
          { label: "", to: "/community" },
        ],
      },
      { id: "", label: "B", links: [] },
    ]);
  });

  it("stops one past each limit, so the check refuses instead of reading thousands", () => {
    const form = new URLSearchParams();
    for (let group = 0; group < 50; group += 1) {
      form.set(`group-${group}-label`, `G${group}`);
      for (let link = 0; link < 50; link += 1) form.set(`group-${group}-link-${link}-label`, "x");
    }
    const read = readMenuForm("footer", form);
    expect(read).toHaveLength(5);
    expect(read[0]!.links).toHaveLength(11);
    expect(readMenuForm("footer-links", form)).toEqual([{ id: "", label: "", links: expect.any(Array) }]);
  });
});

describe("rearranging a menu", () => {
  it("moves, adds and removes links and groups, with focus on what moved", () => {
    expect(applyMenuEdit("header", draft, parseMenuEdit("down-link:0:0")!)).toEqual({
      draft: [{ ...draft[0]!, links: [draft[0]!.links[1], draft[0]!.links[0]] }, draft[1]],
      focus: "group-0-link-1-label",
    });
    expect(applyMenuEdit("header", draft, parseMenuEdit("up-group:1")!).draft.map((group) => group.id)).toEqual(["b", "a"]);
    expect(applyMenuEdit("header", draft, parseMenuEdit("remove-group:0")!).draft.map((group) => group.id)).toEqual(["b"]);
    expect(applyMenuEdit("header", draft, parseMenuEdit("remove-link:0:1")!).draft[0]!.links).toEqual([draft[0]!.links[0]]);
    expect(applyMenuEdit("header", draft, parseMenuEdit("add-link:1")!)).toMatchObject({ focus: "group-1-link-1-label" });
    expect(applyMenuEdit("header", draft, { kind: "add-group" })).toMatchObject({ focus: "group-2-label" });
    // The original is never changed.
    expect(draft[0]!.links[0]!.label).toBe("One");
  });

  it("changes nothing out of range, past a limit, or on a list menu's groups", () => {
    expect(applyMenuEdit("header", draft, parseMenuEdit("up-link:0:0")!).draft).toEqual(draft);
    expect(applyMenuEdit("header", draft, parseMenuEdit("down-group:1")!).draft).toEqual(draft);
    expect(applyMenuEdit("header", draft, parseMenuEdit("remove-link:7:0")!).draft).toEqual(draft);
    expect(applyMenuEdit("footer-links", draft.slice(0, 1), { kind: "add-group" }).draft).toHaveLength(1);
    const full = Array.from({ length: 4 }, (_, index) => ({ id: `${index}`, label: "G", links: [] }));
    expect(applyMenuEdit("footer", full, { kind: "add-group" }).draft).toHaveLength(4);
    expect(parseMenuEdit("save")).toBeUndefined();
    expect(parseMenuEdit("up-link:0")).toBeUndefined();
  });
});
