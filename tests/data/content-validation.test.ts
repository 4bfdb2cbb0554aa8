import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatProblem, loadContent, splitLegalSections } from "~/features/content/content-files.server";
import { toIso } from "~/db/normalize";

// Validation of content files, before any database is involved.

const post = (fields: Record<string, string>, body = "Some text.") =>
  `---\n${Object.entries({
    title: "A title",
    slug: "a-title",
    excerpt: "An excerpt",
    category: "Security",
    author: "Ada",
    published_date: "2025-01-02",
    read_time: "5",
    image_url: "null",
    featured: "false",
    published: "true",
    ...fields,
  })
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n")}\n---\n${body}\n`;

describe("content validation", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-validate-"));
    mkdirSync(path.join(dir, "posts"));
    mkdirSync(path.join(dir, "legal"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
  const problems = () => loadContent(dir).problems.map((problem) => formatProblem({ ...problem, path: path.basename(problem.path) }));

  it("accepts a well-formed post and normalises its date to ISO", () => {
    write("posts/ok.md", post({}));
    const set = loadContent(dir);
    expect(set.problems).toEqual([]);
    expect(set.posts[0]!.value).toMatchObject({ slug: "a-title", published_date: "2025-01-02T00:00:00.000Z", read_time: 5, image_url: null, content: "Some text." });
  });

  it("reports every bad field of every bad file as path: field: problem", () => {
    write("posts/one.md", post({ read_time: "soon", published: "maybe", slug: "Not A Slug" }));
    write("posts/two.md", post({ slug: "two", title: "", publised: "true", image_url: "javascript:alert(1)" }));
    write("posts/three.md", post({ slug: "", published_date: "someday" }));
    expect(problems().sort()).toEqual(
      [
        "one.md: slug: must be lowercase letters, digits and single hyphens, e.g. ai-governance-basics",
        "one.md: read_time: must be a whole number of minutes",
        "one.md: published: must be true or false",
        "two.md: publised: is not a known field (check the spelling)",
        "two.md: title: is required",
        "two.md: image_url: must be an http(s) URL or a site path starting with /",
        "three.md: published_date: must be a date such as 2025-03-14 or 2025-03-14T09:30:00Z",
        "three.md: id: is required when there is no slug (a post without a slug is keyed and linked by its id)",
      ].sort(),
    );
  });

  it("rejects duplicate slugs, empty bodies and YAML that does not parse", () => {
    write("posts/a.md", post({ slug: "same" }));
    write("posts/b.md", post({ slug: "same" }));
    write("posts/c.md", post({ slug: "c" }, ""));
    write("posts/d.md", "---\ntitle: [unclosed\n---\nText\n");
    const found = problems();
    expect(found).toContain('b.md: slug: "same" is also used by ' + path.relative(process.cwd(), path.join(dir, "posts/a.md")));
    expect(found).toContain("c.md: body: is empty (the post text goes below the front matter)");
    expect(found.some((line) => line.startsWith("d.md: front matter: is not valid YAML"))).toBe(true);
  });

  it("checks legal documents: type, quoted version, and the sections structure", () => {
    write("legal/p.md", "---\ndocument_type: privacy-policy\ntitle: Privacy\nversion: 1.0\nlast_updated: 2025-01-01\npublished: true\n---\n## A\nText\n");
    write("legal/t.md", "---\ndocument_type: cookie-policy\ntitle: T\nlast_updated: 2025-01-01\npublished: true\n---\nPreamble\n## A\nText\n");
    expect(problems().sort()).toEqual(
      [
        'p.md: version: must be quoted text, e.g. version: "1.0" (YAML reads 1.0 as the number 1)',
        "t.md: body: has text before the first '## ' section heading",
        "t.md: document_type: must be one of privacy-policy, terms-of-use",
      ].sort(),
    );
  });

  it("defaults a legal document's version to 1.0 and splits its body on ## headings", () => {
    write("legal/t.md", "---\ndocument_type: terms-of-use\ntitle: Terms\nlast_updated: 2025-01-01\npublished: true\n---\n## First\nLine one\n\nLine two\n## Second\n- item\n");
    const set = loadContent(dir);
    expect(set.problems).toEqual([]);
    expect(set.legal[0]!.value).toMatchObject({
      version: "1.0",
      content: { sections: [{ title: "First", content: "Line one\n\nLine two" }, { title: "Second", content: "- item" }] },
    });
    expect(splitLegalSections("## Empty\n\n## Full\nx").error).toBe('section "Empty" has no text');
    expect(splitLegalSections("no headings").error).toBe("has text before the first '## ' section heading");
  });

  it("reports a missing folder", () => {
    expect(loadContent(path.join(dir, "nope")).problems.map((problem) => problem.message)).toEqual(["does not exist"]);
  });
});

describe("toIso", () => {
  it("reads zone-less timestamps as UTC and keeps ISO strings and Dates exact", () => {
    expect(toIso("2025-01-02 03:04:05")).toBe("2025-01-02T03:04:05.000Z");
    expect(toIso("2025-01-02")).toBe("2025-01-02T00:00:00.000Z");
    expect(toIso("2025-01-02T03:04:05.678+02:00")).toBe("2025-01-02T01:04:05.678Z");
    expect(toIso(new Date(Date.UTC(2025, 0, 2)))).toBe("2025-01-02T00:00:00.000Z");
    expect(() => toIso("not a date")).toThrow();
  });
});
