import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { LANDING_PAGE_KEY } from "~/features/leads/landing-page";
import { scriptsAfterFirstPaint, type Hydration, type WholeAssets } from "~/features/site/script-priority.server";

// The router's scripts start loading after the first paint: its preload tags are dropped and its
// module script's static imports become dynamic ones behind a frame.

const through = (chunks: Buffer[], hydration?: Hydration, wholeAssets?: WholeAssets) =>
  text(Readable.from(chunks).pipe(scriptsAfterFirstPaint(hydration, wholeAssets)));

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

  it("on a public page, fetches the modules after a frame and evaluates them only after the first input and another frame", async () => {
    const out = await through([Buffer.from(html)], "on-first-input");
    const script = /<script nonce="n0nce" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1]!;
    const at = (text: string) => {
      const index = script.indexOf(text);
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    // The landing page is kept first, whatever happens next.
    expect(at(LANDING_PAGE_KEY)).toBeLessThan(at("requestAnimationFrame"));
    const prefetch = at(
      '["/assets/root-C.js", "/assets/home-D.js", "/assets/site-B.js", "/assets/entry.client-A.js"].forEach((url) => fetch(url)',
    );
    expect(at("requestAnimationFrame")).toBeLessThan(prefetch);
    const firstInput = at('"pointerup", "pointercancel", "pointermove", "keyup", "focusin", "input"');
    expect(prefetch).toBeLessThan(firstInput);
    // Nothing is evaluated before the input, and the input's own frame is drawn first.
    expect(script.indexOf("import(")).toBeGreaterThan(firstInput);
    expect(script.lastIndexOf("requestAnimationFrame")).toBeGreaterThan(firstInput);
    expect(script.lastIndexOf("requestAnimationFrame")).toBeLessThan(script.indexOf("import("));
    expect(script.indexOf("window.__reactRouterRouteModules")).toBeLessThan(
      script.indexOf('import("/assets/entry.client-A.js")'),
    );
  });

  it("on a public page whose inline sheet and sprite are cut, makes both whole after the input, before any module runs", async () => {
    const out = await through([Buffer.from(html)], "on-first-input", {
      stylesheetUrl: "/assets/app-E.css",
      iconSpriteUrl: "/assets/icons-F.svg",
    });
    const script = /<script nonce="n0nce" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1]!;
    const at = (text: string) => {
      const index = script.indexOf(text);
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    // Fetched with the modules, before the input.
    expect(
      at('"/assets/entry.client-A.js", "/assets/app-E.css", "/assets/icons-F.svg"].forEach((url) => fetch(url)'),
    ).toBeLessThan(at('"pointerup"'));
    // Linked only when the page's sheet is marked as cut, and waited for, before the first import.
    const linked = at('link.href = "/assets/app-E.css"');
    expect(at('getElementById("document-html-stylesheet")?.hasAttribute("data-page-only")')).toBeLessThan(linked);
    expect(at('"pointerup"')).toBeLessThan(linked);
    expect(linked).toBeLessThan(script.indexOf("import("));
    expect(script).not.toContain('import("/assets/app-E.css")');
    // The sprite likewise: filled only when marked as cut, and awaited before the first import.
    const filled = at('await fetch("/assets/icons-F.svg")');
    expect(at('getElementById("document-html-icons")')).toBeLessThan(filled);
    expect(at('sprite?.hasAttribute("data-page-only")')).toBeLessThan(filled);
    expect(at('"pointerup"')).toBeLessThan(filled);
    expect(filled).toBeLessThan(script.indexOf("import("));
  });

  it("adds to the page's sprite the symbols it lacks, from the sprite file, and leaves it when the file fails", async () => {
    const out = await through([Buffer.from(html)], "on-first-input", {
      stylesheetUrl: "/assets/app-E.css",
      iconSpriteUrl: "/assets/icons-F.svg",
    });
    const script = /<script nonce="n0nce" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1]!;
    const block = script.slice(
      script.indexOf("{ const sprite"),
      script.indexOf("}\n", script.indexOf(".catch(() => {}); }")) + 1,
    );
    /** Runs the step against a page whose sprite holds "icon-menu", and a fetch that answers `response`. */
    const run = async (response: { ok: boolean; text?: string }) => {
      const sprite = {
        children: [{ id: "icon-menu" }],
        added: [] as string[],
        marked: true,
        hasAttribute: (name: string) => name === "data-page-only" && sprite.marked,
        removeAttribute: () => (sprite.marked = false),
        insertAdjacentHTML: (where: string, markup: string) => sprite.added.push(`${where}: ${markup}`),
      };
      const document = { getElementById: (id: string) => (id === "document-html-icons" ? sprite : null) };
      const fetch = async () => ({ ...response, statusText: "Not Found", text: async () => response.text ?? "" });
      await new Function("document", "fetch", `return (async () => { ${block} })();`)(document, fetch);
      return sprite;
    };
    const whole = await run({
      ok: true,
      text:
        '<svg xmlns="http://www.w3.org/2000/svg">\n<symbol id="icon-a" viewBox="0 0 24 24"><path d="M0 0"/></symbol>' +
        '<symbol id="icon-menu"><path d="M1 1"/></symbol><symbol id="icon-b"></symbol>\n</svg>\n',
    });
    // The page's own symbol stays; the others are added after it, as the file writes them.
    expect(whole.added).toEqual([
      'beforeend: <symbol id="icon-a" viewBox="0 0 24 24"><path d="M0 0"/></symbol><symbol id="icon-b"></symbol>',
    ]);
    expect(whole.marked).toBe(false);
    const failed = await run({ ok: false });
    expect(failed.added).toEqual([]);
    expect(failed.marked).toBe(true);
  });
});
