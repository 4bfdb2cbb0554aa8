import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { securityHeaders } from "../../server/security";

// Only the page editor's preview may be framed, and only by the site itself; the back office may
// frame its own origin (the preview); every public page keeps refusing to be framed or to frame.

function headersFor(path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = { locals: { cspNonce: "n" }, setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
  securityHeaders(undefined)({ path, secure: false } as Request, res as unknown as Response, () => undefined);
  return headers;
}

const PAGE = "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5";

describe("framing", () => {
  it("the page preview may be framed by the site alone", () => {
    const headers = headersFor(`/admin/pages/${PAGE}/preview`);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("no other answer may be framed; only the back office frames its own origin", () => {
    for (const path of [
      "/",
      "/admin/pages",
      `/admin/pages/${PAGE}`,
      `/admin/pages/${PAGE}/preview/x`,
      "/preview/x",
      `/x/admin/pages/${PAGE}/preview`,
    ]) {
      const headers = headersFor(path);
      expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"], path).toBe("DENY");
    }
    expect(headersFor(`/admin/pages/${PAGE}`)["content-security-policy"]).toMatch(/frame-src 'self' /);
    expect(headersFor("/company/about")["content-security-policy"]).not.toMatch(/frame-src 'self'/);
  });
});
