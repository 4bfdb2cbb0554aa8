import { describe, expect, it } from "vitest";
import { languageName, localeOfDocumentPath, translatedPagePath } from "~/features/content/document-locale";

// A document's language is the prefix of its address, among the languages with a catalog.

describe("a document's language", () => {
  const tags = ["de", "en", "pt-BR"];

  it("is the language whose prefix begins its address, else English", () => {
    expect(localeOfDocumentPath("/de/produkte/sentinel", tags)).toBe("de");
    expect(localeOfDocumentPath("/de", tags)).toBe("de");
    expect(localeOfDocumentPath("/DE/x", tags)).toBe("de");
    expect(localeOfDocumentPath("/pt-br/produtos", tags)).toBe("pt-BR");
    expect(localeOfDocumentPath("/design", tags)).toBe("en");
    expect(localeOfDocumentPath("/", tags)).toBe("en");
    // A language without a catalog has no prefix of its own.
    expect(localeOfDocumentPath("/fr/produits", tags)).toBe("en");
  });

  it("names each language in itself, and puts a translation under its prefix", () => {
    expect(languageName("de")).toBe("Deutsch");
    expect(languageName("fr")).toBe("Français");
    expect(translatedPagePath("/products/sentinel", "de")).toBe("/de/products/sentinel");
    expect(translatedPagePath("/", "de")).toBe("/de");
  });
});
