import { describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { locationFor, normaliseOldPath, parseTarget } from "~/features/redirects/redirect-rules";
import { fixedRoutes } from "~/features/site/site-paths.server";

// Old addresses are stored as the server reads paths, so every spelling a browser sends finds its
// redirect; targets are a site path or https only; every route of the site is refused as an old address.

const path = (input: string) => {
  const result = normaliseOldPath(input);
  return result.ok ? result.path : `error: ${result.error}`;
};

describe("old addresses", () => {
  it("are normalised the way the site's own paths are", () => {
    expect(path("/Old-Page/")).toBe("/old-page");
    expect(path("/%6Fld")).toBe("/old");
    expect(path("  /old  ")).toBe("/old");
    expect(path("/café")).toBe("/caf%c3%a9");
    expect(path("/caf%C3%A9")).toBe("/caf%c3%a9");
    expect(path("/Brochure.PDF")).toBe("/Brochure.PDF");
    // As a browser sends it: markup characters are escapes, never markup.
    expect(path('/a<script>"x"</script>')).toBe("/a%3cscript%3e%22x%22%3c/script%3e");
  });

  it("are refused when malformed", () => {
    for (const [input, message] of [
      ["", /Enter the old address/],
      ["old", /starts with \//],
      ["https://example.com/old", /starts with \//],
      ["//evil.example", /\/\//],
      ["/a\\b", /\\/],
      ["/a?x=1", /query string/],
      ["/a#x", /fragment/],
      ["/a\nb", /control character/],
      ["/a b", /spaces/],
      ["/a/%2e%2e/b", /\. or \.\./],
      ["/a%zz", /% must start an escape/],
      ["/", /home page/],
      [`/${"x".repeat(513)}`, /At most 512/],
    ] as const) {
      expect(path(input)).toMatch(message);
    }
  });
});

describe("targets", () => {
  it("are a site path (query and fragment kept) or an https URL, nothing else", () => {
    expect(parseTarget("/Company/About/?a=1#team")).toEqual({
      ok: true,
      target: { type: "path", path: "/company/about", query: "?a=1#team", value: "/company/about?a=1#team" },
    });
    expect(parseTarget("https://Example.com/x")).toEqual({
      ok: true,
      target: { type: "url", url: "https://example.com/x", value: "https://example.com/x" },
    });
    for (const bad of [
      "http://example.com",
      "javascript:alert(1)",
      "data:text/html,x",
      "//evil.example",
      "https://localhost/",
      "ftp://x.example",
    ])
      expect(parseTarget(bad).ok).toBe(false);
  });

  it("carry the visitor's campaign parameters and nothing else", () => {
    const target = (value: string) => {
      const parsed = parseTarget(value);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.target;
    };
    expect(locationFor(target("/community"), "?utm_source=a&utm_medium=b&session=secret")).toBe(
      "/community?utm_source=a&utm_medium=b",
    );
    expect(locationFor(target("/community?utm_source=mine#events"), "?utm_source=theirs")).toBe(
      "/community?utm_source=mine#events",
    );
    expect(locationFor(target("https://example.com/p?q=1"), "?utm_campaign=q3&x=1")).toBe(
      "https://example.com/p?q=1&utm_campaign=q3",
    );
  });
});

describe("the site's own routes", () => {
  it("are each refused as an old address", async () => {
    const paths: string[] = [];
    const walk = (entries: readonly { path?: string; children?: unknown[] }[], prefix: string) => {
      for (const entry of entries) {
        const full = entry.path ? (prefix ? `${prefix}/${entry.path}` : entry.path) : prefix;
        paths.push(`/${full}`);
        if (entry.children) walk(entry.children as typeof entries, full);
      }
    };
    walk(routes as never, "");
    // A post's and a position's address are checked against the posts and positions themselves
    // (data tests); `*` is the 404.
    const fixed = paths
      .filter((p) => p !== "/*" && p !== "/resources/blog/:slug" && p !== "/company/careers/:slug")
      .map((p) => p.replace(/:[a-zA-Z]+/g, "x"));
    for (const route of new Set(fixed)) {
      if (route === "/") continue; // the home page is refused by the form's own rule
      expect({ route, claimed: Boolean(await fixedRoutes(undefined as never, route.toLowerCase())) }).toEqual({
        route,
        claimed: true,
      });
    }
  });
});
