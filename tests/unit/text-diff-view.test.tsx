import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TextDiffView } from "~/ui/admin/text-diff";
import { diffFields } from "~/ui/admin/line-diff";

// What the revision pages (posts' and legal documents') show for a change too large to list.

const lines = (count: number, word: string) => Array.from({ length: count }, (_, index) => `${word} ${index}`).join("\n");
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");

describe("TextDiffView", () => {
  it("shows a summary, not 8,000 lines, for two different texts of 4,000 lines", () => {
    const [field] = diffFields({ body: lines(4000, "old") }, { body: lines(4000, "new") }, { body: "Text" });
    const html = renderToStaticMarkup(<TextDiffView label={field!.label} diff={field!.diff} />);
    expect(text(html)).toContain("Text (at least 4,000 lines added, at least 4,000 removed)");
    expect(text(html)).toContain(
      "Too many changes to show line by line: one of the texts is longer than 2,000 lines. The earlier text has 4,000 lines, the later 4,000 lines.",
    );
    expect(html).not.toContain("<ins");
    expect(html).not.toContain("<del");
  });

  it("says when more lines changed than a diff looks for", () => {
    const [field] = diffFields({ body: lines(500, "old") }, { body: lines(500, "new") }, { body: "Text" });
    const html = renderToStaticMarkup(<TextDiffView label={field!.label} diff={field!.diff} />);
    expect(text(html)).toContain(
      "Too many changes to show line by line: more than 200 lines were added or removed. The earlier text has 500 lines, the later 500 lines.",
    );
  });

  it("lists the lines of a change small enough to show", () => {
    const [field] = diffFields({ body: "one\ntwo" }, { body: "one\n2" }, { body: "Text" });
    const html = renderToStaticMarkup(<TextDiffView label={field!.label} diff={field!.diff} />);
    expect(text(html)).toContain("Text (1 line added, 1 removed)");
    expect(text(html)).not.toContain("Too many changes");
    expect(html).toContain("<ins");
  });
});
