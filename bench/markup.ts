// How long the post markup renderer takes on big and hostile input (target: a 1 MB post in under 200 ms),
// and whether the stream that gives a rendered page its own stylesheet and icons stays linear in the
// page's size.
// Run: npm run bench:markup
import { readFileSync } from "node:fs";
import { renderMarkup } from "../app/features/blog/markup.server";
import { pageCut, pageCutStream } from "../app/platform/page-cut-stream.server";
import { pageIcons } from "../app/platform/page-icons.server";
import { pageStylesheets } from "../app/platform/page-stylesheet.server";

const paragraph =
  "Sentinel inspects **every prompt** and _every response_ for leaks, with `inline code`, __underlined terms__ " +
  "and [a link](https://example.com/docs) to the docs.\n\n";
const section = [
  "## A section heading\n\n",
  paragraph.repeat(4),
  "- first point\n  - nested point\n    - deeper point\n- second point\n\n",
  "1. step one\n  1. sub-step\n2. step two\n\n",
  "> A quote with **emphasis**.\n\n",
  "```ts\nconst policy = { redact: true };\n```\n\n",
  "![A diagram](https://example.com/diagram.png)\n\n",
  "https://www.youtube.com/watch?v=dQw4w9WgXcQ\n\n",
  "LINK: https://example.com/guide - Zero-trust AI - A practical guide - with hyphens\n\n",
].join("");

function repeatTo(unit: string, bytes: number) {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

const inputs: Record<string, string> = {
  "1 MB realistic post": repeatTo(section, 1024 * 1024),
  "1 MB of one paragraph line": repeatTo("word **bold** _it_ `c` [l](/x) ", 1024 * 1024),
  "10,000 nested list levels (two-space indents)": Array.from(
    { length: 10_000 },
    (_, i) => `${" ".repeat((i % 500) * 2)}- level ${i}`,
  ).join("\n"),
  "10,000 nested list markers on one line": `${"- ".repeat(10_000)}x`,
  "10,000 nested quotes": `${">".repeat(10_000)} x`,
  "10,000 nested quotes, spaced": `${"> ".repeat(10_000)}x`,
  "100,000 unmatched brackets": "[".repeat(100_000),
  "100,000 unmatched emphasis markers": "*_".repeat(50_000),
  "unclosed fence + 1 MB": `\`\`\`js\n${repeatTo("let x = 1; <script>\n", 1024 * 1024)}`,
};

function time(fn: () => void, runs = 5) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)]!, max: times[runs - 1]! };
}

renderMarkup(inputs["1 MB realistic post"]!); // warm up the JIT
console.log("input".padEnd(48), "size".padStart(10), "median ms".padStart(10), "max ms".padStart(8), "out KB".padStart(8));
for (const [name, input] of Object.entries(inputs)) {
  let output = "";
  const { median, max } = time(() => (output = renderMarkup(input)));
  console.log(
    name.padEnd(48),
    `${(input.length / 1024).toFixed(0)} KB`.padStart(10),
    median.toFixed(1).padStart(10),
    max.toFixed(1).padStart(8),
    (output.length / 1024).toFixed(0).padStart(8),
  );
}

/** A page of `bytes` around the article, written the way React writes a document: in 2 KB chunks. */
function pageChunks(bytes: number): Buffer[] {
  const style = '<style id="document-html-stylesheet">@layer utilities{.flex{display:flex}.grid{display:grid}}</style>';
  const sprite = `<svg id="document-html-icons" class="hidden">${icons.all}</svg>`;
  const menu = '<svg aria-hidden="true"><use href="#icon-menu"></use></svg>';
  const article = repeatTo('<p class="flex">Governance that engineers follow is governance that fits their tools.</p>', bytes);
  const page = Buffer.from(
    `<!DOCTYPE html><html><head>${style}</head><body>${sprite}<header>${menu}</header><main>${article}</main></body></html>`,
  );
  const chunks: Buffer[] = [];
  for (let start = 0; start < page.length; start += 2048) chunks.push(page.subarray(start, start + 2048));
  return chunks;
}

async function streamMs(chunks: Buffer[]): Promise<number> {
  const started = performance.now();
  const stream = pageCutStream(cut);
  stream.resume();
  const ended = new Promise((resolve) => stream.on("end", resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return performance.now() - started;
}

// Per byte, a 1 MB page against a 64 KB one: about 1 when the stream's work grows with the page;
// a stream that copied what it holds for every chunk gave 32 here, and a 1 MB page 300 ms.
const icons = pageIcons(readFileSync("app/assets/icons.svg", "utf8"));
const cut = pageCut(pageStylesheets("@layer utilities{.flex{display:flex}.grid{display:grid}}"), icons);
const small = pageChunks(64 * 1024);
const large = pageChunks(1024 * 1024);
/** Median time per 2 KB chunk: the chunks are all of one size, so the ratio of two is per byte. */
const msPerChunk = async (chunks: Buffer[]) => {
  const times: number[] = [];
  for (let i = 0; i < 9; i++) times.push(await streamMs(chunks));
  return times.sort((a, b) => a - b)[4]! / chunks.length;
};
await msPerChunk(large); // warm up the JIT
const [smallMs, largeMs] = [await msPerChunk(small), await msPerChunk(large)];
console.log(
  `\npage cut stream (stylesheet and icons), 1 MB page vs 64 KB in 2 KB chunks: ${(largeMs * large.length).toFixed(1)} ms vs ` +
    `${(smallMs * small.length).toFixed(2)} ms; per byte ${(largeMs / smallMs).toFixed(2)}× (linear ≈ 1)`,
);
