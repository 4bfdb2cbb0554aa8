import { describe, expect, it } from "vitest";
import { suggestedLanguage, type PageLanguages } from "~/platform/page-languages";
import { openGraphLocale, ownName, pageLanguagesOf } from "~/features/i18n/page-languages.server";
import { parseSiteLocales } from "~/features/i18n/site-locales";

// A page's languages as the root hands them to the browser: each other language by its own name,
// leading to this page in it or to its home with a note (in that language); the suggestion picks
// the first language the browser prefers that the site offers, unless it is the page's own.

const read = parseSiteLocales("en,de");
if (!read.ok) throw new Error(read.problem);
const locales = read.locales;

describe("a page's languages", () => {
  it("names each language in itself and in Open Graph's form", () => {
    expect(ownName("de")).toBe("Deutsch");
    expect(ownName("en")).toBe("English");
    expect(openGraphLocale("en")).toBe("en_US");
    expect(openGraphLocale("de")).toBe("de_DE");
    expect(openGraphLocale("pt-BR")).toBe("pt_BR");
  });

  it("leads to the translation, or to the language's home with a note in that language", () => {
    const translated = pageLanguagesOf("/solutions/banks", locales, [
      { tag: "en", path: "/solutions/banks" },
      { tag: "de", path: "/de/loesungen/banken" },
    ]);
    expect(translated).toMatchObject({ tag: "en", label: "Language", openGraphLocale: "en_US", defaultTag: "en" });
    expect(translated.others).toEqual([expect.objectContaining({ tag: "de", name: "Deutsch", path: "/de/loesungen/banken" })]);
    expect(translated.others[0]!.missing).toBeUndefined();
    expect(translated.others[0]!.suggestion.text).toBe("Diese Seite gibt es auch auf Deutsch.");

    const alone = pageLanguagesOf("/de/nur-deutsch", locales, []);
    expect(alone).toMatchObject({ tag: "de", label: "Sprache", alternates: [] });
    expect(alone.others).toEqual([
      expect.objectContaining({ tag: "en", name: "English", path: "/", missing: expect.stringContaining("English home page") }),
    ]);
  });

  it("suggests the language the browser prefers before the page's, unless dismissed", () => {
    const english: PageLanguages = pageLanguagesOf("/", locales, [
      { tag: "en", path: "/" },
      { tag: "de", path: "/de" },
    ]);
    expect(suggestedLanguage(["de-DE", "de", "en-US"], english)?.path).toBe("/de");
    expect(suggestedLanguage(["en-US", "de-DE"], english)).toBeUndefined();
    expect(suggestedLanguage(["fr-FR", "de"], english)?.tag).toBe("de");
    expect(suggestedLanguage(["fr-FR"], english)).toBeUndefined();
    expect(suggestedLanguage(["de-AT"], english, new Set(["de"]))).toBeUndefined();
  });
});
