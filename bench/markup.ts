// How long the post markup renderer takes on big and hostile input (target: a 1 MB post in under 200 ms).
// Run: npm run bench:markup
import { renderMarkup } from "../app/lib/blog/markup.server";

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
