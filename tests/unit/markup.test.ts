import { describe, expect, it } from "vitest";
import { renderMarkup } from "~/features/blog/markup.server";
import { isAllowedLinkUrl, parseLinkCard, videoEmbedFor } from "~/features/blog/markup/urls.server";

const squash = (html: string) => html.replace(/\n/g, "");

describe("post markup: every construct", () => {
  it("renders #, ##, ### as h2, h3, h4 and deeper hashes as text", () => {
    expect(squash(renderMarkup("# One\n## Two\n### Three\n#### Four"))).toBe(
      "<h2>One</h2><h3>Two</h3><h4>Three</h4><p>#### Four</p>",
    );
  });

  it("never skips a heading level below the page's h1", () => {
    expect(squash(renderMarkup("## Starts at two\n### Then three\n# Back to one\n### Skips"))).toBe(
      "<h2>Starts at two</h2><h3>Then three</h3><h2>Back to one</h2><h3>Skips</h3>",
    );
  });

  it("renders paragraphs as lines until a blank line", () => {
    expect(renderMarkup("first line\nsame paragraph\n\nsecond")).toBe("<p>first line\nsame paragraph</p>\n<p>second</p>\n");
  });

  it("renders bold, italic (both markers), underline and inline code", () => {
    expect(renderMarkup("**b** *i* _j_ __u__ `c <x>`")).toBe(
      "<p><strong>b</strong> <em>i</em> <em>j</em> <u>u</u> <code>c &lt;x&gt;</code></p>\n",
    );
  });

  it("renders links; external ones open in a new tab, site paths do not", () => {
    expect(renderMarkup("[ext](https://example.com/a) [site](/resources/blog) [anchor](#top) [mail](mailto:a@b.co)")).toBe(
      '<p><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">ext</a> <a href="/resources/blog">site</a> ' +
        '<a href="#top">anchor</a> <a href="mailto:a@b.co">mail</a></p>\n',
    );
  });

  it("nests bulleted lists by two spaces per level, with - and *", () => {
    expect(squash(renderMarkup("- a\n  - b\n    * c\n- d"))).toBe(
      "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul>",
    );
  });

  it("nests numbered lists by two spaces per level too", () => {
    expect(squash(renderMarkup("1. one\n  1. one.one\n    1. one.one.one\n  2. one.two\n2. two"))).toBe(
      "<ol><li>one<ol><li>one.one<ol><li>one.one.one</li></ol></li><li>one.two</li></ol></li><li>two</li></ol>",
    );
  });

  it("mixes the two kinds of list at two-space levels", () => {
    expect(squash(renderMarkup("1. step\n  - detail\n    1. sub-step\n2. next"))).toBe(
      "<ol><li>step<ul><li>detail<ol><li>sub-step</li></ol></li></ul></li><li>next</li></ol>",
    );
  });

  it("renders quotes", () => {
    expect(squash(renderMarkup("> quoted **text**\n> more"))).toBe(
      "<blockquote><p>quoted <strong>text</strong>\nmore</p></blockquote>".replace(/\n/g, ""),
    );
  });

  it("renders code fences verbatim and escaped, with an optional language", () => {
    expect(renderMarkup("```ts\nconst a = '<b>**not bold**</b>';\n```")).toBe(
      "<pre><code class=\"language-ts\">const a = '&lt;b&gt;**not bold**&lt;/b&gt;';\n</code></pre>\n",
    );
    expect(renderMarkup("```\nplain\n```")).toBe("<pre><code>plain\n</code></pre>\n");
  });

  it("renders an image line as a lazy figure with alt and a fixed aspect box", () => {
    const html = renderMarkup("![A diagram of the flow](https://cdn.example.com/flow.png)");
    expect(html).toMatch(
      /^<figure[^>]*><img src="https:\/\/cdn\.example\.com\/flow\.png" alt="A diagram of the flow" loading="lazy"/,
    );
    expect(html).toContain('width="1600" height="900"');
    expect(renderMarkup("![Site image](/images/a.png)")).toContain('src="/images/a.png"');
  });

  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://player.vimeo.com/video/76979871", "https://player.vimeo.com/video/76979871"],
  ])("embeds the video line %s", (line, src) => {
    const html = renderMarkup(`Intro\n\n${line}\n\nOutro`);
    expect(html).toContain(`<iframe src="${src}" title="`);
    expect(html).toContain('loading="lazy"');
  });

  it("gives each video frame a unique title", () => {
    const html = renderMarkup("https://youtu.be/dQw4w9WgXcQ\n\nhttps://vimeo.com/1\n\nhttps://youtu.be/dQw4w9WgXcQ");
    expect([...html.matchAll(/title="([^"]+)"/g)].map((match) => match[1])).toEqual([
      "YouTube video",
      "Vimeo video 2",
      "YouTube video 3",
    ]);
  });

  it("leaves a video link inside a sentence, or from another host, as text", () => {
    expect(renderMarkup("watch https://youtu.be/dQw4w9WgXcQ now")).not.toContain("<iframe");
    expect(renderMarkup("https://evil.example/watch?v=dQw4w9WgXcQ")).not.toContain("<iframe");
    expect(renderMarkup("https://youtu.be/not-an-id")).not.toContain("<iframe");
  });

  it("renders a LINK line as a card linking to its url", () => {
    const html = renderMarkup("LINK: https://example.com/guide - The guide - Everything you need");
    expect(html).toMatch(/^<a href="https:\/\/example\.com\/guide" target="_blank" rel="noopener noreferrer"/);
    expect(html).toContain(">The guide</span>");
    expect(html).toContain(">Everything you need</span>");
  });
});

describe("LINK cards split on the first two ' - '", () => {
  it("keeps hyphens inside words and later separators in the description", () => {
    expect(parseLinkCard("LINK: https://example.com/zero-trust - Zero-trust AI - A how-to - part 2 - final")).toEqual({
      url: "https://example.com/zero-trust",
      title: "Zero-trust AI",
      description: "A how-to - part 2 - final",
    });
  });
  it("accepts a card without description, and falls back to the url as title", () => {
    expect(parseLinkCard("LINK: /resources/blog - Our blog")).toEqual({
      url: "/resources/blog",
      title: "Our blog",
      description: "",
    });
    expect(parseLinkCard("LINK: https://example.com")).toEqual({
      url: "https://example.com",
      title: "https://example.com",
      description: "",
    });
  });
  it("refuses a card whose url is not allowed", () => {
    expect(parseLinkCard("LINK: javascript:alert(1) - Title - Description")).toBeUndefined();
    expect(renderMarkup("LINK: javascript:alert(1) - Title - Description")).toBe(
      "<p>LINK: javascript:alert(1) - Title - Description</p>\n",
    );
  });
});

describe("URL allow-list", () => {
  it.each([
    "http://example.com",
    "https://example.com/a?b=c",
    "mailto:hello@example.com",
    "/resources/blog",
    "#section",
    "HTTPS://EXAMPLE.COM",
  ])("allows %s", (url) => expect(isAllowedLinkUrl(url)).toBe(true));
  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<b>",
    "vbscript:msgbox",
    "//evil.com",
    "/\\evil.com",
    "relative/path",
    "ftp://example.com",
    "file:///etc/passwd",
    "",
  ])("refuses %s", (url) => expect(isAllowedLinkUrl(url)).toBe(false));
  it("renders a refused link as its plain text", () => {
    expect(renderMarkup("[x](relative/path) [y](//evil.com)")).toBe("<p>[x](relative/path) [y](//evil.com)</p>\n");
  });
  it("refuses images from other schemes", () => {
    expect(renderMarkup("![x](data:image/png;base64,AAAA)")).not.toContain("<img");
    expect(renderMarkup("![x](javascript:alert(1))")).not.toContain("<img");
  });
  it("only parses real video hosts", () => {
    expect(videoEmbedFor("https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ")).toBeUndefined();
  });
});

// Each input must render inert: no script, no handler attribute, no dangerous URL, no stray markup.
const hostile: string[] = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
  "<img src=x onerror=alert(1)>",
  "<svg onload=alert(1)>",
  "<iframe src=javascript:alert(1)></iframe>",
  '<a href="javascript:alert(1)">x</a>',
  "[x](javascript:alert(1))",
  "[x](JAVASCRIPT:alert(1))",
  "[x](java\nscript:alert(1))",
  "[x](&#106;avascript:alert(1))",
  "[x](javascript&#58;alert(1))",
  "[x](%6Aavascript:alert(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[x](vbscript:msgbox(1))",
  "[x](//evil.example)",
  '[x](https://ok.example "title" onmouseover=alert(1))',
  '[x](https://ok.example/"onmouseover="alert(1))',
  "![x](javascript:alert(1))",
  '![x" onerror="alert(1)](https://ok.example/a.png)',
  '![x](https://ok.example/a.png" onerror="alert(1))',
  "LINK: javascript:alert(1) - t - d",
  'LINK: https://ok.example/"onmouseover=alert(1) - <script>alert(1)</script> - <img src=x onerror=alert(1)>',
  'https://www.youtube.com/watch?v="><script>alert(1)</script>',
  '```"><script>alert(1)</script>\n<script>alert(1)</script>\n```',
  "```js onload=alert(1)\ncode\n```",
  "```\nunclosed fence <script>alert(1)</script>",
  "`<script>alert(1)</script>`",
  "**<script>alert(1)</script>**",
  "# <script>alert(1)</script>",
  "> <img src=x onerror=alert(1)>",
  "- <a href=javascript:alert(1)>x</a>\n  - <b onclick=alert(1)>y</b>",
  "[<img src=x onerror=alert(1)>](https://ok.example)",
  "<style>body{display:none}</style>",
  "<!-- comment --><meta http-equiv=refresh content=0;url=javascript:alert(1)>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "\u0000<script>\u0000alert(1)</script>",
  "[x]: javascript:alert(1)\n\n[x]",
  "<javascript:alert(1)>",
  "www.evil.example/javascript:alert(1)",
  `${"- ".repeat(10_000)}deep`,
  Array.from({ length: 10_000 }, (_, i) => `${" ".repeat(i * 2)}- level ${i}`)
    .slice(0, 2000)
    .join("\n"),
  `${">".repeat(10_000)} deep quote`,
  `${"> ".repeat(10_000)}deep quote`,
  "[".repeat(50_000) + "x" + "](https://ok.example)".repeat(10),
  "*_".repeat(20_000),
  "```".repeat(5_000),
];

describe("hostile corpus renders inert and bounded", () => {
  it("has at least 30 inputs", () => expect(hostile.length).toBeGreaterThanOrEqual(30));

  it.each(hostile.map((input, index) => [index, input] as const))("input %i", (_index, input) => {
    const start = performance.now();
    const html = renderMarkup(input);
    expect(performance.now() - start).toBeLessThan(5_000); // a stall guard, not a benchmark
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(style|svg|meta|object|embed|base|form|input)\b/i);
    // Text is escaped, so every raw "<" opens a real tag: inspect the tags themselves.
    const openTags = html.match(/<[a-z][^>]*>/gi) ?? [];
    for (const tag of openTags) {
      const attributeNames = tag.replace(/="[^"]*"/g, "");
      expect(attributeNames).not.toMatch(/\son[a-z]+/i);
      expect(tag).not.toMatch(/(href|src)="\s*(javascript|data|vbscript):/i);
      expect(tag).not.toMatch(/(href|src)="\/\//i);
      // Attribute values never contain a raw quote that could open another attribute.
      expect(tag).toMatch(/^<[a-z0-9]+(\s[a-z-]+(="[^"<>]*")?)*>$/i);
    }
    // Every iframe comes from an allowed player host.
    for (const match of html.matchAll(/<iframe src="([^"]*)"/g)) {
      expect(match[1]).toMatch(/^https:\/\/(www\.youtube-nocookie\.com\/embed\/[\w-]{11}|player\.vimeo\.com\/video\/\d+)$/);
    }
    // Only the fixed element set is ever emitted.
    const tags = new Set([...html.matchAll(/<([a-z][a-z0-9]*)/g)].map((match) => match[1]));
    for (const tag of tags) {
      expect([
        "h2",
        "h3",
        "h4",
        "p",
        "strong",
        "em",
        "u",
        "code",
        "pre",
        "a",
        "ul",
        "ol",
        "li",
        "blockquote",
        "figure",
        "img",
        "div",
        "iframe",
        "span",
        "br",
      ]).toContain(tag);
    }
    // Output stays proportional to input.
    expect(html.length).toBeLessThan(input.length * 12 + 1_000);
  });

  it("keeps a giant paragraph as escaped plain text instead of parsing it", () => {
    const html = renderMarkup(`${"**b** <i> ".repeat(10_000)}`);
    expect(html).toMatch(/^<p>\s*\*\*b\*\* &lt;i&gt; \*\*b\*\*/);
    expect(html).not.toContain("<strong>");
  });

  it("shows raw HTML as text", () => {
    expect(renderMarkup("<b>bold?</b>")).toBe("<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n");
  });

  it("caps list nesting depth and keeps the content", () => {
    const input = Array.from({ length: 30 }, (_, i) => `${" ".repeat(i * 2)}- level ${i}`).join("\n");
    const html = renderMarkup(input);
    expect(html.match(/<ul>/g)!.length).toBeLessThanOrEqual(8);
    expect(html).toContain("level 29");
  });
});
