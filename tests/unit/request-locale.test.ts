import { IntlMessageFormat } from "intl-messageformat";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { pathLocale } from "~/features/i18n/request-locale.server";
import { CATALOGS } from "~/features/i18n/messages.server";
import { localizedSitePath, shellData, TRANSLATED_SITE_PATHS } from "~/features/i18n/shell.server";
import { parseSiteLocales, type SiteLocale } from "~/features/i18n/site-locales";
import { fillMessage, SHELL_FALLBACK, shellText } from "~/ui/shell-text";
import { SHELL_KEYS } from "~/ui/shell-keys";
import { formatLongDate } from "~/platform/dates";

// A request's language and the frame's texts in it: the path's configured locale, a prefix naming
// a language the site does not publish, and the shell messages every catalog gives the frame.

const locales = (text: string): SiteLocale[] => {
  const read = parseSiteLocales(text);
  if (!read.ok) throw new Error(read.problem);
  return read.locales;
};
const en = { tag: "en", prefix: "" };
const de = { tag: "de", prefix: "/de" };

describe("a request's language", () => {
  it("is the configured locale whose prefix begins the path, else the default", () => {
    const site = locales("en,de");
    expect(pathLocale("/", site)).toEqual({ locale: en, foreign: null });
    expect(pathLocale("/company/about", site)).toEqual({ locale: en, foreign: null });
    expect(pathLocale("/de", site)).toEqual({ locale: de, foreign: null });
    expect(pathLocale("/de/ressourcen/blog", site)).toEqual({ locale: de, foreign: null });
    expect(pathLocale("/DE/produkte/sentinel", site)).toEqual({ locale: de, foreign: null });
    // A page whose first segment only starts like a language is English.
    expect(pathLocale("/design", site)).toEqual({ locale: en, foreign: null });
    expect(pathLocale("/resources/api", site)).toEqual({ locale: en, foreign: null });
  });

  it("names a prefix of a language the site does not publish, drawn in the default's frame", () => {
    expect(pathLocale("/fr/x", locales("en,de"))).toEqual({ locale: en, foreign: { tag: "fr", catalogued: false } });
    expect(pathLocale("/pt-br/x", locales("en,de"))).toEqual({ locale: en, foreign: { tag: "pt-BR", catalogued: false } });
    // German has a catalog (its routes are mounted) but is not configured: not served.
    expect(pathLocale("/de/ressourcen/blog", locales("en"))).toEqual({ locale: en, foreign: { tag: "de", catalogued: true } });
    // The default's own tag is no prefix: /en/… is an English address like any other.
    expect(pathLocale("/en/x", locales("en,de"))).toEqual({ locale: en, foreign: null });
  });
});

describe("the frame's texts", () => {
  it("come to an English page from the English catalog, the error page's few built in as it says", () => {
    const english = CATALOGS.get("en")!;
    expect(shellData(en).messages).toEqual(Object.fromEntries(SHELL_KEYS.map((key) => [key.slice(6), english[key]])));
    for (const [key, message] of Object.entries(SHELL_FALLBACK))
      expect({ key, message }).toEqual({ key, message: english[`shell.${key}`] });
    expect(shellText(undefined).t("notFound.text")).toBe("Oops! Page not found");
    expect(shellText(shellData(en)).t("footer.socialLink", { company: "Quorvant", network: "X" })).toBe(
      "Quorvant on X (opens in a new tab)",
    );
  });

  it("take plain {name} arguments only (the frame's, the blog list's, the careers board's), filled in as ICU would, in every catalog", () => {
    for (const [tag, catalog] of CATALOGS)
      for (const key of Object.keys(catalog).filter((name) => name.startsWith("shell."))) {
        const message = catalog[key]!;
        const kinds = parse(message).map((element) => element.type);
        expect({ tag, key, kinds: kinds.filter((kind) => kind !== TYPE.literal && kind !== TYPE.argument) }).toEqual({
          tag,
          key,
          kinds: [],
        });
        const values = {
          company: "Quorvant",
          network: "X",
          category: "Guides",
          page: 2,
          pageCount: 3,
          minutes: 4,
          title: "T",
          product: "Sentinel",
        };
        expect(fillMessage(message, values)).toBe(String(new IntlMessageFormat(message, tag).format(values)));
      }
  });

  it("come to a German page in German, with its links at the German addresses", () => {
    const shell = shellData(de);
    expect(shell.messages["notFound.text"]).toBe("Hoppla! Seite nicht gefunden");
    expect(shell.links).toEqual({
      home: "/de",
      community: "/de/gemeinschaft",
      contactSales: "/de/vertrieb-kontaktieren",
      blog: "/de/ressourcen/blog",
      careers: "/de/unternehmen/karriere",
    });
    expect(formatLongDate("2025-03-05T10:00:00Z", shellText(shell).tag)).toBe("5. März 2025");
    expect(formatLongDate("2025-03-05T10:00:00Z", shellText(undefined).tag)).toBe("March 5, 2025");
  });

  it("translate every English address of the site's pages to a German one", () => {
    expect(Object.fromEntries(TRANSLATED_SITE_PATHS.map((path) => [path, localizedSitePath(path, de)]))).toEqual({
      "/": "/de",
      "/contact-sales": "/de/vertrieb-kontaktieren",
      "/request-demo": "/de/demo-anfordern",
      "/company/careers": "/de/unternehmen/karriere",
      "/resources/blog": "/de/ressourcen/blog",
      "/terms/privacy-policy": "/de/rechtliches/datenschutzerklaerung",
      "/terms/terms-of-use": "/de/rechtliches/nutzungsbedingungen",
      "/products/sentinel": "/de/produkte/sentinel",
      "/company/about": "/de/unternehmen/ueber-uns",
      "/company/brand": "/de/marke",
      "/company/charter": "/de/gemeinschaft/charta",
      "/community": "/de/gemeinschaft",
      "/resources": "/de/ressourcen",
      "/resources/documentation": "/de/ressourcen/dokumentation",
      "/resources/api": "/de/ressourcen/api",
      "/resources/support": "/de/support",
      "/terms/legal": "/de/rechtliches",
      "/terms/trust-transparency": "/de/vertrauen-und-transparenz",
    });
    expect(localizedSitePath("/company/about", en)).toBe("/company/about");
    expect(localizedSitePath("https://status.quorvant.com", de)).toBe("https://status.quorvant.com");
  });
});
