// The sprite assembly of scripts/build-icons.mjs, apart from lucide and the file system so the
// rules below can be exercised on any input.

/** Brand marks live under their own prefix: a brand never takes a UI glyph's name ("x" is both). */
export const BRAND_PREFIX = "brand-";
export const brandId = (name) => `${BRAND_PREFIX}${name}`;

/**
 * A symbol's id in the sprite: the icon's name under a prefix of its own, since the sprite's
 * symbols are put inside the page (app/platform/page-icons.server.ts), whose ids they must not take.
 */
export const SYMBOL_ID_PREFIX = "icon-";
export const symbolId = (name) => `${SYMBOL_ID_PREFIX}${name}`;

/**
 * The sprite document for these symbols, in order. Two symbols with one id are refused: a
 * `<use href="#id">` silently draws the first of them.
 * @param {{ id: string, attributes: string, body: string }[]} symbols
 */
export function spriteDocument(symbols) {
  const seen = new Set();
  for (const { id } of symbols) {
    if (seen.has(id)) throw new Error(`two icon symbols have the id "${id}"; give one of them another name`);
    seen.add(id);
  }
  const lines = symbols.map(({ id, attributes, body }) => `<symbol id="${symbolId(id)}" ${attributes}>${body}</symbol>`);
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${lines.join("\n")}\n</svg>\n`;
}
