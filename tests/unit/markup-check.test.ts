import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { checkMarkup } from "~/features/blog/markup/check.server";
import { renderMarkup } from "~/features/blog/markup.server";

describe("checkMarkup", () => {
  it("finds nothing in the sample posts, which render as written", () => {
    const folder = path.resolve("content/posts");
    // Every language's posts: English ones at the top, translations in a folder per language.
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md"));
    expect(files.length).toBeGreaterThan(11);
    for (const file of files) {
      const body = matter(readFileSync(path.join(folder, file), "utf8")).content;
      expect(checkMarkup(body), file).toEqual([]);
    }
  });

  // Each case: the markup, and what the renderer does with it, proving the flag is deserved.
  const cases: { name: string; markup: string; rendered: (html: string) => boolean }[] = [
    { name: "an unsafe link", markup: "Click [here](javascript:alert(1)) now", rendered: (html) => !html.includes("<a ") },
    { name: "a data: image", markup: "![chart](data:image/png;base64,AAAA)", rendered: (html) => !html.includes("<img") },
    { name: "a broken link card", markup: "LINK: javascript:alert(1) - Title", rendered: (html) => !html.includes("<a ") },
    { name: "raw HTML", markup: "<script>alert(1)</script>", rendered: (html) => html.includes("&lt;script&gt;") },
    { name: "a table", markup: "| a | b |\n| --- | --- |\n| 1 | 2 |", rendered: (html) => !html.includes("<table") },
    { name: "a horizontal rule", markup: "Before\n\n***\n\nAfter", rendered: (html) => !html.includes("<hr") },
    { name: "a deep heading", markup: "#### Deep", rendered: (html) => !html.includes("<h5") && html.includes("<p>#### Deep") },
    { name: "a reference link", markup: "[a][1]\n\n[1]: https://example.com", rendered: (html) => !html.includes("<a ") },
    { name: "an angle-bracket link", markup: "<https://example.com>", rendered: (html) => !html.includes("<a ") },
  ];
  for (const { name, markup, rendered } of cases) {
    it(`flags ${name}, which the renderer refuses or drops`, () => {
      expect(rendered(renderMarkup(markup))).toBe(true);
      expect(checkMarkup(markup).length).toBeGreaterThan(0);
    });
  }

  it("gives line numbers and ignores code blocks", () => {
    const problems = checkMarkup("Intro\n\n```html\n<div>fine in code</div>\n```\n\nSee [x](vbscript:y)");
    expect(problems).toEqual([{ line: 7, message: expect.stringContaining('"vbscript:y" is not allowed') }]);
  });
});
