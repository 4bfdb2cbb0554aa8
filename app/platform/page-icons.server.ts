import { SYMBOL_ID_PREFIX } from "~/assets/icon-names";
import { documentHtmlElementId, ICON_SPRITE, PAGE_ONLY_ATTRIBUTE } from "~/platform/document-html";

// Icons are symbols of one sprite, and every document carries the symbols in its body (the root
// layout renders them), so an icon is drawn with the first frame: an external sprite is one more
// request on a slow link, drawn late, and the browser builds a separate document for it. A public
// page that hydrates at the first input carries only the symbols its own markup uses; the whole
// set is put in place before it hydrates (app/features/site/script-priority.server.ts), since what React
// renders later (the next page of a client-side navigation) may use any icon.

const CONTAINER_ID = ` id="${documentHtmlElementId(ICON_SPRITE)}"`;
const CONTAINER_END = "</svg>";
const SYMBOL_REFERENCE = new RegExp(`\\shref="#(${SYMBOL_ID_PREFIX}[^"]+)"`, "g");

/** The sprite (app/assets/icons.svg), parsed once, from which each page's own symbols are cut. */
export function pageIcons(sprite: string) {
  /** The sprite's symbols as written, by id, in the sprite's order. */
  const symbols = new Map(
    [...sprite.matchAll(/<symbol\b[^>]*\bid="([^"]+)"[^>]*>[\s\S]*?<\/symbol>/g)].map((match) => [match[1]!, match[0]]),
  );
  return {
    /** Every symbol of the sprite: what the root layout renders into the document. */
    all: [...symbols.values()].join(""),
    /** The document with its sprite cut to the symbols its markup refers to, or as it is without one. */
    forPage: (html: string): string => {
      const idAt = html.indexOf(CONTAINER_ID);
      if (idAt === -1) return html;
      const startTagEnd = html.indexOf(">", idAt);
      const end = startTagEnd === -1 ? -1 : html.indexOf(CONTAINER_END, startTagEnd);
      if (end === -1) return html;
      // Read over the whole document, the sprite included: a symbol refers to no other, and a
      // megabyte post is not copied twice to leave the sprite out.
      const used = new Set(Array.from(html.matchAll(SYMBOL_REFERENCE), (match) => match[1]!));
      const kept = [...symbols].filter(([id]) => used.has(id)).map(([, symbol]) => symbol);
      return `${html.slice(0, startTagEnd)} ${PAGE_ONLY_ATTRIBUTE}="">${kept.join("")}${html.slice(end)}`;
    },
  };
}

export type PageIcons = ReturnType<typeof pageIcons>;
