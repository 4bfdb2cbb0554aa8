import { diffArrays } from "diff";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { diffFields, diffTexts, MAX_DIFF_EDITS, MAX_DIFF_LINES } from "~/ui/admin/line-diff";

vi.mock("diff", async (importOriginal) => {
  const original = await importOriginal<typeof import("diff")>();
  return { ...original, diffArrays: vi.fn(original.diffArrays) };
});

const numbered = (count: number, word: string) => Array.from({ length: count }, (_, index) => `${word} ${index}`);

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

describe("diffTexts on texts too different to show", () => {
  beforeEach(() => {
    vi.mocked(diffArrays).mockClear();
  });

  it("summarises two different texts of 4,000 lines without comparing them line by line", () => {
    const diff = diffTexts(numbered(4000, "before").join("\n"), numbered(4000, "after").join("\n"));
    expect(diff).toEqual({
      hunks: [],
      added: 4000,
      removed: 4000,
      tooLarge: { beforeLines: 4000, afterLines: 4000, reason: "lines" },
    });
    expect(MAX_DIFF_LINES).toBeLessThan(4000);
    expect(vi.mocked(diffArrays)).not.toHaveBeenCalled();
  });

  it("summarises two different texts of MAX_DIFF_LINES lines, having looked for at most MAX_DIFF_EDITS changes", () => {
    const diff = diffTexts(numbered(MAX_DIFF_LINES, "before").join("\n"), numbered(MAX_DIFF_LINES, "after").join("\n"));
    expect(diff).toEqual({
      hunks: [],
      added: MAX_DIFF_LINES,
      removed: MAX_DIFF_LINES,
      tooLarge: { beforeLines: MAX_DIFF_LINES, afterLines: MAX_DIFF_LINES, reason: "edits" },
    });
    expect(vi.mocked(diffArrays)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(diffArrays).mock.calls[0]![2]).toMatchObject({ maxEditLength: MAX_DIFF_EDITS });
    expect(MAX_DIFF_EDITS).toBeLessThanOrEqual(200);
  });

  it("shows a change of MAX_DIFF_EDITS lines, and summarises one more", () => {
    const before = numbered(1000, "line");
    const replaced = (count: number) =>
      before.map((line, index) => (index % 4 === 0 && index / 4 < count ? `${line} edited` : line));
    const largest = diffTexts(before.join("\n"), replaced(MAX_DIFF_EDITS / 2).join("\n"));
    expect(largest).toMatchObject({ added: MAX_DIFF_EDITS / 2, removed: MAX_DIFF_EDITS / 2 });
    expect(largest.tooLarge).toBeUndefined();
    const larger = diffTexts(before.join("\n"), [...replaced(MAX_DIFF_EDITS / 2), "one more"].join("\n"));
    expect(larger).toMatchObject({ hunks: [], added: MAX_DIFF_EDITS / 2 + 1, removed: MAX_DIFF_EDITS / 2 });
    expect(larger.tooLarge).toEqual({ beforeLines: 1000, afterLines: 1001, reason: "edits" });
  });

  it("summarises a text longer than MAX_DIFF_LINES without comparing it line by line", () => {
    const long = numbered(MAX_DIFF_LINES + 1, "line");
    const diff = diffTexts(long.join("\n"), [...long.slice(1), "new"].join("\n"));
    expect(diff).toEqual({
      hunks: [],
      added: 1,
      removed: 1,
      tooLarge: { beforeLines: MAX_DIFF_LINES + 1, afterLines: MAX_DIFF_LINES + 1, reason: "lines" },
    });
    expect(vi.mocked(diffArrays)).not.toHaveBeenCalled();
  });
});

describe("diffFields", () => {
  it("lists only the fields that differ, with their labels", () => {
    const changes = diffFields({ title: "A", body: "x" }, { title: "B", body: "x" }, { title: "Title", body: "Body" });
    expect(changes.map((change) => change.label)).toEqual(["Title"]);
  });
});
