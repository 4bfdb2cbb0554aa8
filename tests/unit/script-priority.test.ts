import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "~/lib/script-priority.server";

// The router's scripts start loading after the first paint: its preload tags are dropped and its
// module script's static imports become dynamic ones behind a frame.

const through = (chunks: Buffer[]) => text(Readable.from(chunks).pipe(scriptsAfterFirstPaint()));

const chunked = (bytes: Buffer, size: number) => {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
};

/** The shape React Router's <Links> and <Scripts> render (the nonce before or after the type). */
function routerDocument(moduleScriptTag: string) {
  return (
    '<html><head><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/site-B.js"/>' +
    '<link rel="modulepreload" href="/assets/root-C.js"/><style>a{}</style></head><body><p>Grüße — “quotes” 🚀</p>' +
    '<script type="application/ld+json">{"@type":"Organization"}</script>' +
    `${moduleScriptTag};\nimport * as route0 from "/assets/root-C.js";\nimport * as route1 from "/assets/home-D.js";\n` +
    '  window.__reactRouterManifest = {"entry":{"module":"/assets/entry.client-A.js"}};\n' +
    '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-A.js");</script>' +
    "<script>window.__reactRouterContext.streamController.close();</script></body></html>"
  );
}

describe("scripts after the first paint", () => {
  const html = routerDocument('<script nonce="n0nce" type="module" async="">');

  it("drops the preloads and loads the modules from the module script after a frame, the entry last", async () => {
    const out = await through([Buffer.from(html)]);
    expect(out).not.toContain("modulepreload");
    expect(out).not.toMatch(/^import \* as/m);
    const script = /<script nonce="n0nce" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1]!;
    expect(script.indexOf("requestAnimationFrame")).toBeLessThan(script.indexOf("import("));
    expect(script).toContain(
      'const [route0, route1] = await Promise.all([import("/assets/root-C.js"), import("/assets/home-D.js"), ' +
        'import("/assets/site-B.js"), fetch("/assets/entry.client-A.js").catch(() => {})]);',
    );
    // The globals are set before the entry module, which hydrates, is imported.
    expect(script.indexOf("window.__reactRouterRouteModules")).toBeLessThan(
      script.indexOf('import("/assets/entry.client-A.js")'),
    );
    // Everything else is as rendered.
    expect(out).toContain("<p>Grüße — “quotes” 🚀</p>");
    expect(out).toContain('<script type="application/ld+json">{"@type":"Organization"}</script>');
    expect(out).toContain("<script>window.__reactRouterContext.streamController.close();</script></body></html>");
  });

  it("finds the module script whichever attribute comes first", async () => {
    const out = await through([Buffer.from(routerDocument('<script type="module" async="" nonce="n0nce">'))]);
    expect(out).toContain('<script type="module" async="" nonce="n0nce">await new Promise(');
  });

  it("gives the same document whatever the chunk boundaries, even inside a tag or a character", async () => {
    const whole = await through([Buffer.from(html)]);
    for (let size = 1; size <= 64; size += 1) expect(await through(chunked(Buffer.from(html), size))).toBe(whole);
  });

  it("leaves a module script of another shape alone and puts the preloads back in front of it", async () => {
    const other =
      '<html><head><link rel="modulepreload" href="/assets/a.js"/></head><body>' +
      '<script type="module">console.log("hi");</script></body></html>';
    expect(await through([Buffer.from(other)])).toBe(
      '<html><head></head><body><link rel="modulepreload" href="/assets/a.js"/><script type="module">console.log("hi");</script></body></html>',
    );
  });
});
