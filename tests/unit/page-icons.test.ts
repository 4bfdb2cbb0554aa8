import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pageIcons } from "~/platform/page-icons.server";

// A page carries the sprite's symbols in its body; a public page's copy is cut to the ones its
// markup refers to.

const SPRITE = readFileSync("app/assets/icons.svg", "utf8");
const icons = pageIcons(SPRITE);
const symbolIds = (html: string) => [...html.matchAll(/<symbol\b[^>]*\bid="([^"]+)"/g)].map((match) => match[1]);
const container = (symbols: string, attributes = "") =>
  `<svg id="document-html-icons" class="hidden" aria-hidden="true"${attributes}>${symbols}</svg>`;
const documentWith = (body: string) =>
  `<!DOCTYPE html><html lang="en"><head><style id="document-html-stylesheet">a{}</style></head><body>${container(icons.all)}${body}</body></html>`;
const icon = (name: string) => `<svg aria-hidden="true" class="size-5"><use href="#icon-${name}"></use></svg>`;

describe("the sprite's symbols", () => {
  it("are every symbol of the sprite, in its order", () => {
    expect(symbolIds(icons.all)).toEqual(symbolIds(SPRITE));
    expect(symbolIds(icons.all).length).toBeGreaterThan(50);
  });
});

describe("a page's icons", () => {
  it("keeps only the symbols the page refers to, once each, in the sprite's order, and marks the sprite as cut", () => {
    const html = icons.forPage(
      documentWith(`<header>${icon("menu")}${icon("search")}</header><main>${icon("menu")}${icon("activity")}</main>`),
    );
    const sprite = /<svg id="document-html-icons"[^>]*>[\s\S]*?<\/svg>/.exec(html)![0];
    expect(symbolIds(sprite)).toEqual(["icon-activity", "icon-menu", "icon-search"]);
    expect(sprite.startsWith(container("", ' data-page-only=""').replace("</svg>", ""))).toBe(true);
    // The symbols are the sprite's own, as written there.
    const menu = /<symbol id="icon-menu"[\s\S]*?<\/symbol>/.exec(SPRITE)![0];
    expect(sprite).toContain(menu);
    // The rest of the document is as it was.
    expect(html.replace(sprite, "")).toBe(
      documentWith(`<header>${icon("menu")}${icon("search")}</header><main>${icon("menu")}${icon("activity")}</main>`).replace(
        container(icons.all),
        "",
      ),
    );
  });

  it("leaves out a reference to no symbol, and any other link to a fragment", () => {
    const html = icons.forPage(documentWith(`${icon("no-such-icon")}<a href="#main">Skip</a><a href="#icon-x">x</a>`));
    expect(symbolIds(html)).toEqual(["icon-x"]);
  });

  it("cuts a page without icons to an empty sprite", () => {
    const html = icons.forPage(documentWith("<p>Nothing to draw</p>"));
    expect(html).toContain(container("", ' data-page-only=""'));
    expect(symbolIds(html)).toEqual([]);
  });

  it("returns a document without the sprite as it is", () => {
    const html = `<html><body>${icon("menu")}</body></html>`;
    expect(icons.forPage(html)).toBe(html);
  });
});
