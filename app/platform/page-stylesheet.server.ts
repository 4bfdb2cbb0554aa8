import { decodeHTMLAttribute } from "entities";
import postcss, { type ChildNode, type Container } from "postcss";
import selectorParser from "postcss-selector-parser";
import { documentHtmlElementId, PAGE_ONLY_ATTRIBUTE, STYLESHEET } from "~/platform/document-html";

// The site's stylesheet holds every utility class any page uses (the back office's included); a
// page uses a fraction of them. Parsing the sheet and matching it against the page is a large part
// of the browser's work on a page that runs no script before the first input, so a public page carries
// only the utility rules whose classes its own markup uses. Everything else in the sheet (theme
// variables, the base layer, registered properties, keyframes, our own rules) is always kept.
// Nothing of the page changes after the first paint without its scripts, and before those run
// the browser loads the whole sheet (app/features/site/script-priority.server.ts): what a client-side render
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
