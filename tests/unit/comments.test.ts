import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// A comment states the rule it relies on. A reader who has only this repository has no product
// documents or issue tracker to look up, so a comment that cites a section or an issue number
// tells them nothing.

const CITATION = /\b(?:SPEC|DESIGN)\.md\b|§\s*\d|\bissues?\s+#?\d+/i;
const SOURCE = /\.(?:[cm]?[jt]sx?|conf|service)$/;
const THIS_FILE = "tests/unit/comments.test.ts";

function trackedSources(): string[] {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" });
  return files.split("\n").filter((file) => SOURCE.test(file) && file !== THIS_FILE);
}

describe("comments", () => {
  it("cite no section of a document outside the repository and no issue number", () => {
    const citations = trackedSources().flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) => (CITATION.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(citations).toEqual([]);
  });

  it("the check recognises a citation", () => {
    expect(CITATION.test("// Field caps (DESIGN.md §8).")).toBe(true);
    expect(CITATION.test("// The careers form (issue 5).")).toBe(true);
    expect(CITATION.test("// Field caps: names 100, email 254.")).toBe(false);
  });
});
