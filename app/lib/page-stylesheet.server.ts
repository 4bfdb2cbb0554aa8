import { Transform } from "node:stream";
import { decodeHTMLAttribute } from "entities";
import postcss, { type ChildNode, type Container } from "postcss";
import selectorParser from "postcss-selector-parser";
import { documentHtmlElementId, PAGE_ONLY_ATTRIBUTE, STYLESHEET } from "~/lib/document-html";

// The site's stylesheet holds every utility class any page uses (the back office's included); a
// page uses a fraction of them. Parsing the sheet and matching it against the page is a large part
// of the browser's work on a page that runs no script before the first input, so a public page carries
// only the utility rules whose classes its own markup uses. Everything else in the sheet (theme
// variables, the base layer, registered properties, keyframes, our own rules) is always kept.
// Nothing of the page changes after the first paint without its scripts, and before those run
// the browser loads the whole sheet (app/lib/script-priority.server.ts): what a client-side render
// draws is styled as before.

/** A piece of the stylesheet: kept always, kept when the page uses its classes, or a block around pieces. */
type Piece =
  | { kind: "always"; css: string }
  /** Kept when, for one of its selectors, the page uses every class the selector needs. */
  | { kind: "rule"; css: string; alternatives: string[][] }
  | { kind: "block"; open: string; close: string; pieces: Piece[] };

const UTILITIES_LAYER = "utilities";

/**
 * The classes a selector needs on the page to ever match: those of its own compounds. A class
 * inside a pseudo-class's argument (`:not(.a)`, `:is(.a, .b)`) may be optional and is not counted,
 * so such a rule is kept more often than it needs to be, never dropped when it could apply.
 */
function neededClasses(selector: string): string[][] {
  const alternatives: string[][] = [];
  selectorParser((selectors) => {
    selectors.each((complex) => {
      const classes: string[] = [];
      complex.each((node) => {
        if (node.type === "class") classes.push(node.value);
      });
      alternatives.push(classes);
    });
  }).processSync(selector);
  return alternatives;
}

function piecesOf(container: Container, inUtilities: boolean): Piece[] {
  const pieces: Piece[] = [];
  container.each((node: ChildNode) => {
    if (node.type === "rule" && inUtilities) {
      pieces.push({ kind: "rule", css: node.toString(), alternatives: neededClasses(node.selector) });
    } else if (
      node.type === "atrule" &&
      node.nodes &&
      (inUtilities || (node.name === "layer" && node.params === UTILITIES_LAYER))
    ) {
      pieces.push({
        kind: "block",
        open: `@${node.name}${node.params ? ` ${node.params}` : ""}{`,
        close: "}",
        pieces: piecesOf(node, true),
      });
    } else if (node.type !== "comment") {
      // A statement (`@layer components;`) ends with a semicolon postcss keeps outside the node.
      pieces.push({ kind: "always", css: node.toString() + (node.type === "atrule" && !node.nodes ? ";" : "") });
    }
  });
  return pieces;
}

function render(pieces: readonly Piece[], used: ReadonlySet<string>): string {
  let css = "";
  for (const piece of pieces) {
    if (piece.kind === "always") css += piece.css;
    else if (piece.kind === "rule") {
      if (piece.alternatives.some((classes) => classes.every((name) => used.has(name)))) css += piece.css;
    } else {
      const inner = render(piece.pieces, used);
      if (inner) css += piece.open + inner + piece.close;
    }
  }
  return css;
}

const CLASS_ATTRIBUTE = /\sclass=(?:"([^"]*)"|'([^']*)')/g;

/** Every class name the markup's elements carry. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(CLASS_ATTRIBUTE)) {
    for (const name of decodeHTMLAttribute(match[1] ?? match[2] ?? "").split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The stylesheet, parsed once, from which each page's own is cut. */
export function pageStylesheets(stylesheet: string) {
  const pieces = piecesOf(postcss.parse(stylesheet), false);
  return {
    /** The part of the stylesheet that can apply to this markup. */
    forPage: (html: string) => render(pieces, classesIn(html)),
  };
}

export type PageStylesheets = ReturnType<typeof pageStylesheets>;

const STYLE_OPEN = `<style id="${documentHtmlElementId(STYLESHEET)}"`;
const STYLE_START = `${STYLE_OPEN}>`;
const STYLE_END = "</style>";

/** The document with its inline stylesheet cut to what the document uses, or null when it has none. */
export function withPageStylesheet(html: string, stylesheets: PageStylesheets): string | null {
  const start = html.indexOf(STYLE_START);
  const end = start === -1 ? -1 : html.indexOf(STYLE_END, start);
  if (end === -1) return null;
  const css = stylesheets.forPage(html.slice(0, start) + html.slice(end));
  return `${html.slice(0, start)}${STYLE_OPEN} ${PAGE_ONLY_ATTRIBUTE}="">${css}${html.slice(end)}`;
}

const DOCUMENT_END = Buffer.from("</html>");
/** How much of the bytes so far is looked at for the document's end: its closing tag and whitespace after it. */
const TAIL_BYTES = DOCUMENT_END.length + 64;
const ASCII_WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** Whether the document's last bytes are its closing tag, followed by whitespace at most. */
function endsDocument(tail: Buffer): boolean {
  let end = tail.length;
  while (end > 0 && ASCII_WHITESPACE.has(tail[end - 1]!)) end -= 1;
  return end >= DOCUMENT_END.length && tail.subarray(end - DOCUMENT_END.length, end).equals(DOCUMENT_END);
}

/**
 * A stream that sends the document with its page's stylesheet when the renderer writes the whole
 * document at once, which it does when nothing on the page waits for slow data. A document still
 * incomplete once the renderer's write is over (a part streams in later, with classes nobody has
 * seen yet) is sent as it comes, with the whole stylesheet.
 *
 * The chunks are held as they come and joined once: a document of a megabyte arrives in hundreds
 * of chunks, and adding each to a growing string, then reading that string's end, would copy the
 * whole document again for every chunk.
 */
export function pageStylesheetStream(stylesheets: PageStylesheets): Transform {
  let held: Buffer[] | null = [];
  /** The last bytes received: enough to see the document's end, whatever the chunks' sizes. */
  let tail: Buffer = Buffer.alloc(0);
  let waiting: NodeJS.Immediate | undefined;

  /** Everything held, as one document with its own stylesheet when it is whole. */
  const document = (chunks: Buffer[], whole: boolean): Buffer | string => {
    const bytes = Buffer.concat(chunks);
    if (!whole) return bytes;
    const html = bytes.toString("utf8");
    return withPageStylesheet(html, stylesheets) ?? html;
  };
  /** What is held, once: from then on, chunks pass as they come. */
  const take = () => {
    const chunks = held;
    held = null;
    clearImmediate(waiting);
    return chunks;
  };
  const release = (stream: Transform, whole: boolean) => {
    const chunks = take();
    if (chunks) stream.push(document(chunks, whole));
  };

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (held === null) return callback(null, chunk);
      held.push(chunk);
      tail = chunk.length >= TAIL_BYTES ? chunk.subarray(-TAIL_BYTES) : Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
      if (endsDocument(tail)) {
        // The document's own end, not the text "</html>" somewhere inside it. It is cut in a turn
        // of the event loop of its own: rendering a large page and cutting it are then two short
        // pauses for the other requests instead of one long one.
        clearImmediate(waiting);
        waiting = setImmediate(() => release(this, true));
      }
      // The renderer writes what is ready in one go: the next turn of the event loop means the rest streams.
      else waiting ??= setImmediate(() => release(this, false));
      callback();
    },
    flush(callback) {
      if (held === null) return callback();
      // Ended in the turn it was written in: cut in a turn of its own, as above.
      clearImmediate(waiting);
      waiting = setImmediate(() => callback(null, document(take() ?? [], true)));
    },
  });
  // Text out: the document is text once cut, and the next step (app/lib/script-priority.server.ts)
  // reads text; a megabyte is then not encoded here only to be decoded there.
  stream.setEncoding("utf8");
  return stream;
}
