import { describe, expect, it } from "vitest";
import { canonicalPath, hasDotSegments } from "~/platform/canonical-path";

describe("canonical paths", () => {
  it("decode unreserved characters, so one page has one address", () => {
    expect(canonicalPath("/resources/blog/%70review/abc.1.def")).toBe("/resources/blog/preview/abc.1.def");
    expect(canonicalPath("/company/%41bout")).toBe("/company/about");
    expect(canonicalPath("/company/about%2E")).toBe("/company/about.");
    // Reserved characters stay encoded, within their segment.
    expect(canonicalPath("/resources/blog/a%2fb")).toBe("/resources/blog/a%2fb");
    expect(canonicalPath("/resources/blog/a%3Fb")).toBe("/resources/blog/a%3fb");
  });

  it("resolve dot segments in any spelling, and separators", () => {
    expect(canonicalPath("/resources/blog/./preview/t.1.x")).toBe("/resources/blog/preview/t.1.x");
    expect(canonicalPath("/resources/blog/x/%2e%2E/preview")).toBe("/resources/blog/preview");
    expect(canonicalPath("/../../company/about")).toBe("/company/about");
    expect(canonicalPath("/company//about/")).toBe("/company/about");
    expect(canonicalPath("/company\\about")).toBe("/company/about");
    expect(canonicalPath("//evil.example/")).toBe("/evil.example");
    expect(canonicalPath("/")).toBe("/");
  });

  it("keep the case of files only", () => {
    expect(canonicalPath("/Company/About")).toBe("/company/about");
    expect(canonicalPath("/assets/Entry-AbC.js")).toBe("/assets/Entry-AbC.js");
    expect(canonicalPath("/images/Logo.SVG")).toBe("/images/Logo.SVG");
  });

  it("tell hand-made dot segments apart", () => {
    for (const path of ["/a/./b", "/a/../b", "/a/%2e/b", "/a/.%2E/b", "/a/b/.", "/a\\..\\b"])
      expect(hasDotSegments(path), path).toBe(true);
    for (const path of ["/a/b", "/a/.b", "/a/..b", "/a/b.", "/a/%2e%2f"]) expect(hasDotSegments(path), path).toBe(false);
  });
});
