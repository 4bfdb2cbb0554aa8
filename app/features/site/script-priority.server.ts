import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { documentHtmlElementId, ICON_SPRITE, PAGE_ONLY_ATTRIBUTE, STYLESHEET } from "~/platform/document-html";
import { LANDING_PAGE_KEY } from "~/features/leads/landing-page";

// Our pages are complete HTML that works without JavaScript, so the browser paints first and
// fetches the JavaScript after. The router's <Scripts> would start every fetch during parsing:
// `<link rel="modulepreload">` tags in the head and static imports in its module script, which
// then hydrates as soon as they arrive, at times before the first paint. This rewrite of the
// rendered stream drops the preload tags and turns the module script's static imports into
// dynamic ones that start once the first frame is drawn (at once in a hidden tab, which draws none).
// The module script keeps its nonce, and `import()` from it is allowed by 'strict-dynamic'.
// Were the router's output ever not in the expected shape, the script is left as it was and the
// preloads are put back in front of it.
//
// A public page goes one step further: its modules are fetched after the first frame but evaluated,
// and the page hydrated, only once the visitor first does something (a pointer moved or released,
// a key released, a field focused or typed in). Until then its menus (native <details>), links and
// forms work as the HTML they are, and a visitor who only reads spends nothing on the main thread.
// The hydration starts a frame after that first input, so the input's own answer is painted first.
// A page whose inline stylesheet holds only its own rules (app/platform/page-stylesheet.server.ts) gets
// the whole stylesheet, fetched with the modules, in place before any module runs: what React
// renders once hydrated (a validation message, the next page) may need any rule. Its icon sprite,
// cut the same way (app/platform/page-icons.server.ts), is made whole then too.

/** When the page's modules are evaluated and the page hydrated. */
export type Hydration = "after-first-frame" | "on-first-input";

/** The whole copies of what a page that hydrates at the first input carries only its part of. */
export type WholeAssets = { stylesheetUrl: string; iconSpriteUrl: string };

const PRELOAD = /<link rel="modulepreload"[^>]*?\shref="([^"]+)"[^>]*>/g;
/** The router's module script's start tag (its nonce may come before or after the type). */
const MODULE_SCRIPT_TAG = /<script\b[^>]*\stype="module"[^>]*>/;
const SCRIPT_END = "</script>";
const STATIC_IMPORT = /^import \* as (\w+) from ("[^"]+");\n/gm;
const ENTRY_IMPORT = /^import\(("[^"]+")\);\s*$/m;
/**
 * A frame callback runs just before its frame is drawn; one in the next frame runs once the first
 * has been drawn and shown.
 */
const AFTER_FIRST_FRAME =
  'await new Promise((resolve) => (document.visibilityState === "hidden" ? resolve() : requestAnimationFrame(() => requestAnimationFrame(resolve))));\n';
/**
 * The page the tab's visit began on, kept before anything else can happen: the visitor may follow
 * a link before the page hydrates, and the lead form of a later page sends where the visit began
 * (app/features/leads/visit-memory.ts).
 */
const KEEP_LANDING_PAGE =
  `try { sessionStorage.getItem(${JSON.stringify(LANDING_PAGE_KEY)}) ?? ` +
  `sessionStorage.setItem(${JSON.stringify(LANDING_PAGE_KEY)}, JSON.stringify({ url: location.href, referrer: document.referrer })); } catch {}\n`;
/**
 * Resolves at the visitor's first input: a mouse moving, a press released (never in the middle of
 * one, so a tap's own click is not kept waiting), a key released, a field focused or typed in.
 */
const FIRST_INPUT =
  "await new Promise((resolve) => {\n" +
  '  const types = ["pointerdown", "pointerup", "pointercancel", "pointermove", "keyup", "focusin", "input"];\n' +
  "  let pressed = false;\n" +
  "  const done = () => { types.forEach((type) => removeEventListener(type, onInput, true)); resolve(); };\n" +
  "  const onInput = (event) => {\n" +
  '    if (event.type === "pointerdown") pressed = true;\n' +
  '    else if (event.type === "pointerup" || event.type === "pointercancel") pressed = false;\n' +
  '    else if (event.type === "pointermove" && event.pointerType !== "mouse") return;\n' +
  "    if (!pressed) done();\n" +
  "  };\n" +
  "  types.forEach((type) => addEventListener(type, onInput, { capture: true, passive: true }));\n" +
  "  if (document.activeElement && document.activeElement !== document.body) done();\n" +
  "});\n";

/**
 * Puts the whole stylesheet in place when the inline one holds only the page's own rules, and
 * resolves once it has loaded (or failed to: the page stays as drawn, and hydrating still beats not).
 */
const wholeStylesheet = (url: string) =>
  `if (document.getElementById(${JSON.stringify(documentHtmlElementId(STYLESHEET))})?.hasAttribute(${JSON.stringify(PAGE_ONLY_ATTRIBUTE)})) await new Promise((resolve) => {\n` +
  '  const link = document.createElement("link");\n' +
  `  link.rel = "stylesheet"; link.href = ${JSON.stringify(url)}; link.onload = link.onerror = resolve;\n` +
  "  document.head.append(link);\n" +
  "});\n";

/**
 * Adds the symbols the page's sprite lacks when it holds only the page's own, once fetched: the
 * page's own stay as they are, so no icon on the page is drawn again. A sprite that fails to load
 * leaves the page's icons as they are, and hydration goes on.
 */
const wholeIconSprite = (url: string) =>
  `{ const sprite = document.getElementById(${JSON.stringify(documentHtmlElementId(ICON_SPRITE))});\n` +
  `  if (sprite?.hasAttribute(${JSON.stringify(PAGE_ONLY_ATTRIBUTE)})) await fetch(${JSON.stringify(url)})\n` +
  "    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(response.statusText))))\n" +
  "    .then((text) => {\n" +
  "      const have = new Set(Array.from(sprite.children, (symbol) => symbol.id));\n" +
  '      const missing = (text.match(/<symbol\\b[\\s\\S]*?<\\/symbol>/g) ?? []).filter((symbol) => !have.has(/\\sid="([^"]*)"/.exec(symbol)?.[1]));\n' +
  '      sprite.insertAdjacentHTML("beforeend", missing.join(""));\n' +
  `      sprite.removeAttribute(${JSON.stringify(PAGE_ONLY_ATTRIBUTE)});\n` +
  "    })\n" +
  "    .catch(() => {}); }\n";

/** A module script whose imports start after the first frame, or null when it is not the router's shape. */
export function deferModuleScript(
  script: string,
  preloads: readonly string[],
  hydration: Hydration = "after-first-frame",
  wholeAssets?: WholeAssets,
): string | null {
  const bodyStart = script.indexOf(">") + 1;
  const bodyEnd = script.lastIndexOf(SCRIPT_END);
  const body = script.slice(bodyStart, bodyEnd);
  const routes = [...body.matchAll(STATIC_IMPORT)];
  const entry = ENTRY_IMPORT.exec(body)?.[1];
  if (routes.length === 0 || !entry) return null;
  // The entry module hydrates when it runs, so it is imported last, as before, but fetched into the
  // HTTP cache alongside the route modules and the other preloaded modules (shared chunks).
  const routeUrls = new Set(routes.map((match) => match[2]));
  const shared = preloads.map((url) => JSON.stringify(url)).filter((url) => url !== entry && !routeUrls.has(url));
  const modules = [...routes.map((match) => match[2]!), ...shared];
  const evaluate = (imports: string[]) =>
    `const [${routes.map((match) => match[1]).join(", ")}] = await Promise.all([${imports.join(", ")}]);\n`;
  const importModules = modules.map((url) => `import(${url})`);
  const wholeUrls = wholeAssets ? [wholeAssets.stylesheetUrl, wholeAssets.iconSpriteUrl].map((url) => JSON.stringify(url)) : [];
  const deferred =
    hydration === "after-first-frame"
      ? AFTER_FIRST_FRAME + evaluate([...importModules, `fetch(${entry}).catch(() => {})`])
      : // Everything is fetched into the HTTP cache now, so the first input waits for no network.
        KEEP_LANDING_PAGE +
        AFTER_FIRST_FRAME +
        `[${[...modules, entry, ...wholeUrls].join(", ")}].forEach((url) => fetch(url).catch(() => {}));\n` +
        FIRST_INPUT +
        AFTER_FIRST_FRAME +
        (wholeAssets ? wholeStylesheet(wholeAssets.stylesheetUrl) + wholeIconSprite(wholeAssets.iconSpriteUrl) : "") +
        evaluate(importModules);
  return script.slice(0, bodyStart) + deferred + body.replace(STATIC_IMPORT, "") + script.slice(bodyEnd);
}

/**
 * A stream that defers the router's JavaScript until after the first paint, or the first input
 * (see above). `wholeAssets`: the whole stylesheet and icon sprite, put in place before hydration
 * when the page's own copies are cut to what it uses.
 */
export function scriptsAfterFirstPaint(hydration: Hydration = "after-first-frame", wholeAssets?: WholeAssets): Transform {
  const decoder = new StringDecoder("utf8");
  const preloads: string[] = [];
  let carry = "";
  let script: string | null = null;

  const withoutPreloads = (html: string) =>
    html.replace(PRELOAD, (_tag, url: string) => {
      preloads.push(url);
      return "";
    });

  const rewrite = (text: string, final: boolean): string => {
    let out = "";
    let rest = text;
    for (;;) {
      if (script !== null) {
        // The end tag may straddle chunks: look for it in everything held so far.
        const held = script + rest;
        const end = held.indexOf(SCRIPT_END);
        if (end === -1) {
          script = held;
          if (final) out += script;
          return out;
        }
        const whole = held.slice(0, end + SCRIPT_END.length);
        rest = held.slice(end + SCRIPT_END.length);
        script = null;
        const deferred = deferModuleScript(whole, preloads, hydration, wholeAssets);
        out += deferred ?? preloads.map((url) => `<link rel="modulepreload" href="${url}"/>`).join("") + whole;
        continue;
      }
      const tag = MODULE_SCRIPT_TAG.exec(rest);
      if (tag) {
        out += withoutPreloads(rest.slice(0, tag.index));
        script = tag[0];
        rest = rest.slice(tag.index + tag[0].length);
        continue;
      }
      // A tag cut by the chunk boundary waits for the next chunk: keep from the last "<" on when
      // the tag it opens is not closed yet.
      const lastOpen = rest.lastIndexOf("<");
      const cut = !final && lastOpen !== -1 && rest.indexOf(">", lastOpen) === -1 ? lastOpen : rest.length;
      carry = rest.slice(cut);
      return out + withoutPreloads(rest.slice(0, cut));
    }
  };

  return new Transform({
    // Text written to it (the page stylesheet's cut document) is read as it is.
    decodeStrings: false,
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = carry + (typeof chunk === "string" ? chunk : decoder.write(chunk));
      carry = "";
      callback(null, rewrite(text, false));
    },
    flush(callback) {
      const text = carry + decoder.end();
      carry = "";
      callback(null, rewrite(text, true));
    },
  });
}
