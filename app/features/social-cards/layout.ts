import { CARD_SIZE } from "~/features/social-cards/social-card";

// What a social card says and how big, decided before anything is drawn. Database text is
// untrusted: it may be a megabyte long, hold control or bidi-override characters, emoji the card's
// fonts cannot draw, or one "word" of a thousand letters. The card shows a clean, bounded version.

export const CARD_WIDTH = CARD_SIZE.width;
export const CARD_HEIGHT = CARD_SIZE.height;

/** The title's type scale: shorter titles are set larger; every step keeps at most `maxLines` lines. */
export const TITLE_STEPS = [
  { upTo: 40, fontSize: 76, maxLines: 2 },
  { upTo: 80, fontSize: 64, maxLines: 3 },
  { upTo: Infinity, fontSize: 52, maxLines: 4 },
] as const;

/** Hard cap of a title in characters (graphemes): beyond it nothing could be read on the card anyway. */
export const MAX_TITLE_CHARS = 160;
/**
 * Only this many UTF-16 code units of a stored text are looked at: room for the longest text the
 * card shows plus a lot of removed characters, while a megabyte of text costs nothing
 * (splitting into graphemes is slower than linear on long runs).
 */
export const MAX_INPUT_CODE_UNITS = 1024;
/** A run of letters longer than this gets break opportunities, so it wraps instead of overflowing. */
export const MAX_WORD_CHARS = 24;

const ELLIPSIS = "…";
const ZERO_WIDTH_SPACE = "\u200b";

/**
 * Characters removed before anything else: controls (tabs and line breaks become spaces first),
 * format characters (bidi embeddings, overrides and isolates, so a title cannot reorder the card's
 * other text; zero-width joiners and spaces, soft hyphens, byte-order marks, tag characters), lone
 * surrogates, noncharacters and variation selectors.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}\p{Variation_Selector}]/gu;

/**
 * Pictographs (emoji, with their skin-tone modifiers, flags and keycaps) and private-use
 * characters: the card's fonts have no glyphs for them and they would be drawn as empty boxes.
 */
const UNDRAWABLE = /[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\p{Me}\p{Co}]/gu;

/** Which code points the card's fonts can draw (all of them when not told). */
export type Coverage = (codePoint: number) => boolean;

/**
 * A coverage test from CSS unicode-range lists ("U+0000-00FF,U+0131"), the form font packages
 * describe their subsets in.
 */
export function coverageFromUnicodeRanges(lists: readonly string[]): Coverage {
  const ranges: [number, number][] = [];
  for (const list of lists) {
    for (const item of list.split(",")) {
      const match = /^\s*U\+([0-9a-f]+)(?:-([0-9a-f]+))?\s*$/i.exec(item);
      if (match) ranges.push([parseInt(match[1]!, 16), parseInt(match[2] ?? match[1]!, 16)]);
    }
  }
  return (codePoint) => ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
}

/**
 * Text as the card shows it: whitespace collapsed, NFC, and only characters the fonts can draw
 * (a script without a font would show as empty boxes; it is left out instead).
 */
export function cleanText(value: string, covered: Coverage = () => true): string {
  const normalized = value
    .slice(0, MAX_INPUT_CODE_UNITS)
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, " ")
    .replace(INVISIBLE, "")
    .normalize("NFC")
    .replace(UNDRAWABLE, "");
  let drawable = "";
  for (const char of normalized) if (/\s/u.test(char) || covered(char.codePointAt(0)!)) drawable += char;
  return drawable.replace(/\s+/gu, " ").trim();
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

function splitGraphemes(value: string): string[] {
  return Array.from(graphemes.segment(value), (part) => part.segment);
}

/**
 * At most `max` graphemes (never cutting one in half); when cut, the text ends at the last word
 * boundary within the last fifth, when there is one, followed by an ellipsis.
 */
export function clampText(value: string, max: number): string {
  const parts = splitGraphemes(value);
  if (parts.length <= max) return value;
  const kept = parts.slice(0, Math.max(0, max - 1));
  const lastSpace = kept.lastIndexOf(" ");
  const cut = lastSpace >= Math.floor(max * 0.8) ? kept.slice(0, lastSpace) : kept;
  return `${cut.join("").replace(/[\s.,;:!?\-–—]+$/u, "")}${ELLIPSIS}`;
}

/**
 * Inserts break opportunities into runs of more than `max` graphemes without a space, so the
 * layout can wrap a URL or a word of a thousand letters instead of running off the card.
 */
export function breakLongWords(value: string, max = MAX_WORD_CHARS): string {
  let run = 0;
  let out = "";
  for (const part of splitGraphemes(value)) {
    if (/\s/u.test(part)) run = 0;
    else if (++run > max) {
      out += ZERO_WIDTH_SPACE;
      run = 1;
    }
    out += part;
  }
  return out;
}

/** What a card draws, cleaned and clamped: each kind of card (a post's, a page's) makes its own. */
export type CardText = {
  /** Beside the company's name at the top ("Sentinel Blog"); none when empty. */
  label: string;
  /** The pill at the top right (a post's category); none when empty. */
  kicker: string;
  title: string;
  titleFontSize: number;
  titleMaxLines: number;
  /** The line(s) under the title (a post's author and date). */
  byline: string;
  bylineMaxLines: number;
};

/**
 * A title as the card sets it, and its size. A title with nothing drawable left (one written wholly
 * in a script the fonts lack) is replaced by `fallbackTitle`.
 */
export function titleText(
  value: string,
  { covered, fallbackTitle }: { covered?: Coverage; fallbackTitle: string },
): Pick<CardText, "title" | "titleFontSize" | "titleMaxLines"> {
  const title = clampText(cleanText(value, covered), MAX_TITLE_CHARS) || fallbackTitle;
  const length = splitGraphemes(title).length;
  const step = TITLE_STEPS.find((candidate) => length <= candidate.upTo) ?? TITLE_STEPS[2];
  return { title: breakLongWords(title), titleFontSize: step.fontSize, titleMaxLines: step.maxLines };
}

/** A shorter text as the card sets it: cleaned, at most `max` graphemes, long words breakable. */
export function lineText(value: string, max: number, covered?: Coverage): string {
  return breakLongWords(clampText(cleanText(value, covered), max));
}
