import { describe, expect, it } from "vitest";
import {
  MAX_AUTHOR_CHARS,
  MAX_CATEGORY_CHARS,
  MAX_TITLE_CHARS,
  MAX_WORD_CHARS,
  TITLE_STEPS,
  breakLongWords,
  cardText,
  clampText,
  cleanText,
  coverageFromUnicodeRanges,
} from "~/features/blog/og-card/layout";

const graphemeCount = (value: string) => [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(value)].length;
const post = (title: string, more: Partial<{ category: string; author: string; published_date: string }> = {}) => ({
  title,
  category: "Security",
  author: "Ada Lovelace",
  published_date: "2025-03-05T10:00:00Z",
  ...more,
});
const options = { fallbackTitle: "Quorvant Blog" };

describe("post card layout", () => {
  it("keeps a short title whole, at the largest size, with the date in long US format", () => {
    const text = cardText(post("Why private AI needs a governance layer"), options);
    expect(text.title).toBe("Why private AI needs a governance layer");
    expect(text.titleFontSize).toBe(TITLE_STEPS[0].fontSize);
    expect(text.date).toBe("March 5, 2025");
    expect(text.category).toBe("Security");
    expect(text.author).toBe("Ada Lovelace");
  });

  it("sets longer titles smaller, one step at a time", () => {
    expect(cardText(post("x ".repeat(30).trim()), options).titleFontSize).toBe(TITLE_STEPS[1].fontSize);
    expect(cardText(post("x ".repeat(70).trim()), options).titleFontSize).toBe(TITLE_STEPS[2].fontSize);
    const sizes = TITLE_STEPS.map((step) => step.fontSize);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  });

  it("clamps a long title at a word boundary with an ellipsis, within the cap", () => {
    const title = "Governance ".repeat(100).trim();
    const text = cardText(post(title), options);
    expect(graphemeCount(text.title)).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(text.title.endsWith("Governance…")).toBe(true);
    expect(text.titleMaxLines).toBe(TITLE_STEPS[2].maxLines);
  });

  it("clamps by graphemes, never splitting one", () => {
    const accented = "e\u0301".repeat(50); // é as e + combining acute: one grapheme, two code units
    const clamped = clampText(accented, 10);
    expect(clamped).toBe(`${"e\u0301".repeat(9)}…`);
    expect(clampText("short", 10)).toBe("short");
    // No word boundary near the end: cut at the cap; trailing punctuation is not left before the ellipsis.
    expect(clampText("abcdefghi, jklmnop", 11)).toBe("abcdefghi…");
  });

  it("caps category and author", () => {
    const text = cardText(post("T", { category: "c".repeat(500), author: "a ".repeat(500) }), options);
    expect(graphemeCount(text.category.replaceAll("\u200b", ""))).toBeLessThanOrEqual(MAX_CATEGORY_CHARS);
    expect(graphemeCount(text.author)).toBeLessThanOrEqual(MAX_AUTHOR_CHARS);
  });

  it("gives a word longer than a line break opportunities", () => {
    const word = "Supercalifragilisticexpialidocious".repeat(3);
    const broken = breakLongWords(word);
    const pieces = broken.split("\u200b");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece.length <= MAX_WORD_CHARS)).toBe(true);
    expect(pieces.join("")).toBe(word);
    expect(breakLongWords("short words stay as they are")).toBe("short words stay as they are");
  });

  it("removes control, bidi-override and invisible characters and collapses whitespace", () => {
    expect(cleanText("  Bad\u0000\u0007\u001b[31m\tcontrol\r\n\u0085chars  ")).toBe("Bad[31m control chars");
    expect(cleanText("abc\u202edef\u202c\u2066ghi\u2069")).toBe("abcdefghi");
    expect(cleanText("zero\u200bwidth\u200d\ufeff\u00ad")).toBe("zerowidth");
    expect(cleanText("lone \ud800 surrogate \udc00")).toBe("lone surrogate");
  });

  it("drops emoji (with modifiers, joiners, flags and keycaps), which the fonts cannot draw", () => {
    expect(cleanText("🚀 Launch 👩🏽‍💻 day 🇫🇷 with ❤️ and 1️⃣")).toBe("Launch day with and 1");
  });

  it("keeps only what the fonts cover, and falls back when nothing of the title is left", () => {
    const covered = coverageFromUnicodeRanges(["U+0000-00FF,U+0131", "U+0400-045F"]);
    expect(covered(0x41)).toBe(true);
    expect(covered(0x131)).toBe(true);
    expect(covered(0x416)).toBe(true);
    expect(covered(0x5d0)).toBe(false);
    expect(cleanText("Hello שלום Привет 日本", covered)).toBe("Hello Привет");
    const text = cardText(post("שלום עולם مرحبا", { author: "日本" }), { ...options, covered });
    expect(text.title).toBe("Quorvant Blog");
    expect(text.author).toBe("");
  });

  // Only a bounded prefix is looked at: unbounded, this took minutes (past the test timeout).
  it("survives a megabyte of hostile text and an unparsable date", () => {
    const hostile = "\u202e🚀x\u0000".repeat(250_000);
    const text = cardText(post(hostile, { published_date: "not a date" }), options);
    expect(graphemeCount(text.title.replaceAll("\u200b", ""))).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(text.date).toBe("");
  });
});
