import { describe, expect, it } from "vitest";
import { escapeXml } from "~/platform/xml";

// escapeXml feeds /rss.xml and /sitemap.xml with database text: its output must always be XML 1.0.

describe("escapeXml", () => {
  it("escapes markup characters", () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;");
  });

  it("drops every character outside XML 1.0's Char production", () => {
    const forbidden = [
      ...Array.from({ length: 9 }, (_, code) => code), // U+0000–U+0008
      0x0b,
      0x0c,
      ...Array.from({ length: 0x20 - 0x0e }, (_, index) => 0x0e + index), // U+000E–U+001F
      0xfffe,
      0xffff,
    ].map((code) => String.fromCharCode(code));
    for (const char of forbidden) {
      expect(escapeXml(`a${char}b`), `U+${char.charCodeAt(0).toString(16).padStart(4, "0")}`).toBe("ab");
    }
    expect(escapeXml("Ada\u0001 <Lovelace>")).toBe("Ada &lt;Lovelace&gt;");
  });

  it("drops lone surrogates and keeps paired ones", () => {
    expect(escapeXml("a\uD800b")).toBe("ab");
    expect(escapeXml("a\uDC00b")).toBe("ab");
    expect(escapeXml("a\uDC00\uD800b")).toBe("ab");
    expect(escapeXml("smile \uD83D\uDE00")).toBe("smile \uD83D\uDE00");
    expect(escapeXml("\u{10FFFF}")).toBe("\u{10FFFF}");
  });

  it("keeps tab, line feed, carriage return and everything else allowed", () => {
    expect(escapeXml("a\tb\nc\rd")).toBe("a\tb\nc\rd");
    expect(escapeXml(" ~\u007f\u0085\u00e9\uD7FF\uE000\uFFFD")).toBe(" ~\u007f\u0085\u00e9\uD7FF\uE000\uFFFD");
  });
});
