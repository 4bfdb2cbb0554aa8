import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { pageCutStream } from "~/platform/page-cut-stream.server";
import { classesIn, pageStylesheets, withPageStylesheet } from "~/platform/page-stylesheet.server";

// A public page's inline stylesheet keeps the sheet's every part except the utility rules whose
// classes the page does not use.

/** The shape Tailwind's build writes, minified. */
const SHEET = [
  "@layer theme{:root,:host{--color-ink:#0f172a}}",
  "@layer base{*,:after,:before{box-sizing:border-box}abbr:where([title]){text-decoration:underline dotted}}",
  "@layer components;",
  "@layer utilities{",
  ".flex{display:flex}",
  ".grid{display:grid}",
  "@media (min-width:48rem){.md\\:grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}.md\\:hidden{display:none}}",
  ".hover\\:underline:hover{text-decoration-line:underline}",
  ".\\[\\&_p\\]\\:mt-2 p{margin-top:.5rem}",
  ".not-last\\:border-b:not(:last-child){border-bottom-width:1px}",
  ".group-open\\:rotate-180:is(:where(.group):is([open]) *){rotate:180deg}",
  ".space-y-4>:not(:last-child){margin-block-end:1rem}",
  ".peer:checked~.peer-checked\\:block{display:block}",
  "}",
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
  "@keyframes pulse{50%{opacity:.5}}",
  "summary{list-style:none}",
].join("");

const sheet = pageStylesheets(SHEET);

describe("a page's stylesheet", () => {
  it("keeps the utilities the markup uses, variants and escaped names included, in their order", () => {
    const css = sheet.forPage(
      "<div class=\"flex md:grid-cols-2 hover:underline [&amp;_p]:mt-2\"><p class='space-y-4'>x</p></div>",
    );
    expect(css).toContain("@layer components;@layer utilities{.flex{display:flex}");
    expect(css).toContain("@media (min-width:48rem){.md\\:grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}}");
    expect(css).toContain(".hover\\:underline:hover{text-decoration-line:underline}");
    expect(css).toContain(".\\[\\&_p\\]\\:mt-2 p{margin-top:.5rem}");
    expect(css).toContain(".space-y-4>:not(:last-child)");
    expect(css.indexOf(".flex{")).toBeLessThan(css.indexOf("@media"));
    expect(css.indexOf("@media")).toBeLessThan(css.indexOf(".hover\\:underline"));
  });

  it("drops the utilities it does not use, and a block left empty", () => {
    const css = sheet.forPage('<div class="flex"></div>');
    expect(css).not.toContain(".grid{");
    expect(css).not.toContain("@media");
    expect(css).not.toContain("md\\:hidden");
    expect(css).not.toContain("hover\\:underline");
  });

  it("keeps everything that is not a utility, whatever the markup", () => {
    const css = sheet.forPage("<p>no classes</p>");
    expect(css).toContain("@layer theme{:root,:host{--color-ink:#0f172a}}");
    expect(css).toContain("abbr:where([title])");
    expect(css).toContain("}@layer components;@property");
    expect(css).toContain("@property --tw-shadow");
    expect(css).toContain("@keyframes pulse");
    expect(css).toContain("summary{list-style:none}");
    // The utilities layer itself, left empty, goes: no rule of it applies.
    expect(css).not.toContain("@layer utilities");
  });

  it("needs only the classes of a selector's own compounds, never one inside a pseudo-class", () => {
    expect(sheet.forPage('<li class="not-last:border-b"></li>')).toContain(".not-last\\:border-b:not(:last-child)");
    // The `group` ancestor sits inside :is(): the rule stays with its own class alone.
    expect(sheet.forPage('<svg class="group-open:rotate-180"></svg>')).toContain(".group-open\\:rotate-180");
    // A sibling combinator's two compounds are both needed.
    expect(sheet.forPage('<div class="peer-checked:block"></div>')).not.toContain(".peer:checked");
    expect(sheet.forPage('<input class="peer"><div class="peer-checked:block"></div>')).toContain(".peer:checked");
  });

  it("reads class attributes in either quote, with entities decoded", () => {
    expect([...classesIn(`<a class="a  b\n c"></a><b class='d'></b><i data-class="e"></i><u class="x&amp;y"></u>`)]).toEqual([
      "a",
      "b",
      "c",
      "d",
      "x&y",
    ]);
  });
});

const STYLE = `<style id="document-html-stylesheet">${SHEET}</style>`;
const documentWith = (body: string) => `<!DOCTYPE html><html><head>${STYLE}</head><body>${body}</body></html>`;

describe("a document's stylesheet", () => {
  it("is cut to the document's classes and marked as such", () => {
    const html = withPageStylesheet(documentWith('<main class="grid"></main>'), sheet)!;
    expect(html).toContain('<style id="document-html-stylesheet" data-page-only="">');
    expect(html).toContain(".grid{display:grid}");
    expect(html).not.toContain(".flex{");
    expect(html).toContain('<main class="grid"></main>');
  });

  it("is left alone in a document without it", () => {
    expect(withPageStylesheet("<html><body></body></html>", sheet)).toBeNull();
  });
});

describe("the document stream", () => {
  it("cuts the stylesheet of a document written at once, however it is chunked", async () => {
    const html = documentWith('<p class="flex">Grüße 🚀</p>');
    const bytes = Buffer.from(html);
    const stream = pageCutStream((html) => withPageStylesheet(html, sheet) ?? html);
    const out = text(stream);
    for (let start = 0; start < bytes.length; start += 7) stream.write(bytes.subarray(start, start + 7));
    stream.end();
    const result = await out;
    expect(result).toContain("data-page-only");
    expect(result).not.toContain(".grid{");
    expect(result).toContain("Grüße 🚀");
  });

  it("cuts a whole document in a turn of the event loop of its own, not in the renderer's", async () => {
    const stream = pageCutStream((html) => withPageStylesheet(html, sheet) ?? html);
    const received: string[] = [];
    stream.on("data", (chunk: string) => received.push(chunk));
    stream.write(documentWith('<p class="flex">x</p>'));
    await Promise.resolve(); // the renderer's turn goes on: its microtasks run, the cut does not
    expect(received).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.join("")).toContain("data-page-only");
    // Text, as the next step of the document reads it.
    expect(typeof received[0]).toBe("string");
  });

  it("waits for the document's end, not the first text that looks like it", async () => {
    const stream = pageCutStream((html) => withPageStylesheet(html, sheet) ?? html);
    const out = text(stream);
    stream.write(`<!DOCTYPE html><html><head>${STYLE}</head><body><pre>&lt;/html&gt;</pre><script>"</html>"</script>`);
    stream.end('<p class="grid">after</p></body></html>');
    const result = await out;
    expect(result).toContain("data-page-only");
    expect(result).toContain(".grid{display:grid}");
  });

  it("sends a document whose rest streams in later as it comes, with the whole stylesheet", async () => {
    const stream = pageCutStream((html) => withPageStylesheet(html, sheet) ?? html);
    const received: string[] = [];
    const sink = stream.pipe(new PassThrough());
    sink.on("data", (chunk: Buffer) => received.push(chunk.toString()));
    stream.write(`<!DOCTYPE html><html><head>${STYLE}</head><body><p class="flex">shell</p>`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The shell went out before the rest arrived, unchanged.
    expect(received.join("")).toContain(STYLE);
    stream.end('<div class="grid">late</div></body></html>');
    await new Promise((resolve) => sink.on("end", resolve));
    expect(received.join("")).toBe(documentWith('<p class="flex">shell</p><div class="grid">late</div>'));
  });
});
