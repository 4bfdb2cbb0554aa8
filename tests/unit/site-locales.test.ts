import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { localeOfPath, parseSiteLocales, RESERVED_FIRST_SEGMENTS } from "~/features/i18n/site-locales";
import { loadEnv } from "~/env.server";

describe("SITE_LOCALES", () => {
  it("reads the locales, the first the default at today's addresses, the others under their prefix", () => {
    expect(parseSiteLocales("en")).toEqual({ ok: true, locales: [{ tag: "en", prefix: "" }] });
    expect(parseSiteLocales(" en , de,pt-br ")).toEqual({
      ok: true,
      locales: [
        { tag: "en", prefix: "" },
        { tag: "de", prefix: "/de" },
        { tag: "pt-BR", prefix: "/pt-br" },
      ],
    });
    // English and German, as the sample content is.
    expect(loadEnv({}).SITE_LOCALES).toEqual([
      { tag: "en", prefix: "" },
      { tag: "de", prefix: "/de" },
    ]);
  });

  it("refuses at start, in one line naming the variable: no tag, a tag twice, not a tag, a prefix the site answers", () => {
    const problem = (value: string) => {
      try {
        loadEnv({ SITE_LOCALES: value });
      } catch (error) {
        return (error as Error).message;
      }
      return undefined;
    };
    expect(problem("en,")).toBe("Invalid configuration: SITE_LOCALES must list language tags separated by commas, such as en,de");
    expect(problem("en,de,DE")).toBe("Invalid configuration: SITE_LOCALES names de twice");
    expect(problem("en,deutsch!")).toBe(
      'Invalid configuration: SITE_LOCALES names "deutsch!", which is not a language tag (such as de or pt-BR)',
    );
    // "terms" is a well-formed language subtag (five letters), and /terms is the legal documents' address.
    expect(problem("en,terms")).toBe(
      "Invalid configuration: SITE_LOCALES gives terms the prefix /terms, which the site already answers",
    );
  });

  it("reserves the first segment of every route and of every public file, so no prefix can take one", () => {
    const firstSegments = routes
      .map((route) => route.path?.split("/")[0] ?? "")
      .filter((segment) => segment !== "" && !segment.startsWith(":") && segment !== "*")
      // Other languages' copies of the routes, under their own prefix (route-paths.ts).
      .filter((segment) => !readdirSync("app/features/i18n/catalogs").includes(`${segment}.json`));
    const publicFiles = readdirSync("public");
    for (const segment of [...firstSegments, ...publicFiles, "media", "assets"])
      expect(RESERVED_FIRST_SEGMENTS, segment).toContain(segment);
  });

  it("tells a path's locale by its prefix, the default's for every other path", () => {
    const read = parseSiteLocales("en,de,pt-BR");
    if (!read.ok) throw new Error(read.problem);
    const tagOf = (path: string) => localeOfPath(path, read.locales).tag;
    expect(tagOf("/de")).toBe("de");
    expect(tagOf("/de/demo-anfordern")).toBe("de");
    expect(tagOf("/DE/Demo")).toBe("de");
    expect(tagOf("/pt-br/contato")).toBe("pt-BR");
    expect(tagOf("/request-demo")).toBe("en");
    expect(tagOf("/")).toBe("en");
    // A page whose first segment only begins like a prefix is the default's.
    expect(tagOf("/dev-notes")).toBe("en");
    expect(tagOf("/departments")).toBe("en");
  });
});
