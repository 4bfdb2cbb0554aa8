import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { brandId, spriteDocument, symbolId } from "../../scripts/icon-sprite.mjs";

// The committed sprite (scripts/build-icons.mjs writes it) and the check that guards it.

type SpriteSymbol = { id: string; fill: string | undefined; paths: string[] };

/** The `<symbol>`s of a sprite, in order: ids, fill and path data. */
function parseSprite(svg: string): SpriteSymbol[] {
  return [...svg.matchAll(/<symbol\b([^>]*)>([\s\S]*?)<\/symbol>/g)].map(([, attributes = "", body = ""]) => ({
    id: /\bid="([^"]*)"/.exec(attributes)?.[1] ?? "",
    fill: /\bfill="([^"]*)"/.exec(attributes)?.[1],
    paths: [...body.matchAll(/<path\b[^>]*\bd="([^"]*)"/g)].map((match) => match[1] ?? ""),
  }));
}

describe("app/assets/icons.svg", () => {
  const symbols = parseSprite(readFileSync("app/assets/icons.svg", "utf8"));
  const byName = (name: string) => symbols.find((symbol) => symbol.id === symbolId(name));

  it("gives every symbol an id of its own", () => {
    expect(symbols.length).toBeGreaterThan(0);
    const ids = symbols.map((symbol) => symbol.id);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      "ids used twice",
    ).toEqual([]);
  });

  it("draws the X brand mark, not the close cross, for the footer's X link", () => {
    const icon = site.social.find((link) => link.name === "X")?.icon;
    expect(icon).toBe(brandId("x"));
    const mark = byName(icon!);
    const cross = byName("x");
    // A brand mark is filled; lucide glyphs are stroked.
    expect(mark?.fill).toBe("currentColor");
    expect(cross?.fill).toBe("none");
    expect(mark?.paths.length).toBeGreaterThan(0);
    expect(mark?.paths).not.toEqual(cross?.paths);
  });
});

describe("spriteDocument", () => {
  const symbol = (id: string) => ({ id, attributes: 'viewBox="0 0 24 24"', body: '<path d="M0 0h24"/>' });

  it("writes one symbol per entry, its id the icon's name under the sprite's prefix", () => {
    expect(parseSprite(spriteDocument([symbol("x"), symbol(brandId("x"))])).map((entry) => entry.id)).toEqual([
      "icon-x",
      "icon-brand-x",
    ]);
  });

  it("refuses two symbols with one id, naming it", () => {
    expect(() => spriteDocument([symbol("x"), symbol("check"), symbol("x")])).toThrow(/"x"/);
  });
});
