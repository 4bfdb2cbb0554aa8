import { describe, expect, it } from "vitest";
import { diffFields, diffTexts } from "~/lib/admin/text-diff";

describe("diffTexts", () => {
  it("marks added and removed lines and counts them", () => {
    const diff = diffTexts("one\ntwo\nthree\n", "one\n2\nthree\nfour\n");
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(1);
    expect(diff.hunks.flatMap((hunk) => hunk.lines)).toEqual([
      { kind: "same", text: "one" },
      { kind: "removed", text: "two" },
      { kind: "added", text: "2" },
      { kind: "same", text: "three" },
      { kind: "added", text: "four" },
    ]);
  });

  it("folds long unchanged stretches to three lines of context around each change", () => {
    const before = Array.from({ length: 40 }, (_, index) => `line ${index}`).join("\n");
    const after = before.replace("line 20", "line twenty");
    const diff = diffTexts(before, after);
    expect(diff.hunks).toHaveLength(1);
    expect(diff.hunks[0]!.skippedBefore).toBe(17);
    expect(diff.hunks[0]!.lines.map((line) => line.text)).toEqual([
      "line 17",
      "line 18",
      "line 19",
      "line 20",
      "line twenty",
      "line 21",
      "line 22",
      "line 23",
    ]);
  });

  it("finds no hunks between equal texts", () => {
    expect(diffTexts("same", "same")).toEqual({ hunks: [], added: 0, removed: 0 });
  });
});

describe("diffFields", () => {
  it("lists only the fields that differ, with their labels", () => {
    const changes = diffFields({ title: "A", body: "x" }, { title: "B", body: "x" }, { title: "Title", body: "Body" });
    expect(changes.map((change) => change.label)).toEqual(["Title"]);
  });
});
