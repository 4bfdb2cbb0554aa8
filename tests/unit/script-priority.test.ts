import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "~/lib/script-priority.server";

const through = (chunks: Buffer[]) => text(Readable.from(chunks).pipe(lowPriorityModulePreloads()));

describe("module preloads at low priority", () => {
  const html =
    "<html><head><style>a{}</style></head><body><p>Grüße — “quotes” 🚀</p>" +
    '<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/site-B.js"/>' +
    '<script type="module">import("/assets/entry.client-A.js");</script></body></html>';
  const expected = html.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

  it("marks every module preload, and nothing else", async () => {
    expect(await through([Buffer.from(html)])).toBe(expected);
  });

  it("gives the same document whatever the chunk boundaries, even inside a tag or a character", async () => {
    const bytes = Buffer.from(html);
    for (let size = 1; size <= 40; size += 1) {
      const chunks: Buffer[] = [];
      for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
      expect(await through(chunks)).toBe(expected);
    }
  });
});
