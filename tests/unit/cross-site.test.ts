import { describe, expect, it } from "vitest";
import { startedOnAnotherSite } from "~/features/auth/cross-site.server";

// Whether a back-office GET was started on another site: what the export and a lead's page ask
// before doing anything in the signed-in person's name.

const SITE = "https://quorvant.com";
const request = (headers: Record<string, string>, url = "https://quorvant.com/admin/leads/export?form=request-demo") =>
  new Request(url, { headers });

describe("startedOnAnotherSite", () => {
  it("believes Sec-Fetch-Site: only same-origin and none (typed, bookmarked, another program) are this site", () => {
    expect(startedOnAnotherSite(request({ "Sec-Fetch-Site": "same-origin" }), SITE)).toBe(false);
    expect(startedOnAnotherSite(request({ "Sec-Fetch-Site": "none" }), SITE)).toBe(false);
    expect(startedOnAnotherSite(request({ "Sec-Fetch-Site": "cross-site" }), SITE)).toBe(true);
    expect(startedOnAnotherSite(request({ "Sec-Fetch-Site": "same-site" }), SITE)).toBe(true);
    // The header wins over a Referer a page can shape.
    expect(startedOnAnotherSite(request({ "Sec-Fetch-Site": "cross-site", Referer: `${SITE}/admin` }), SITE)).toBe(true);
  });

  it("without Sec-Fetch-Site, goes by a foreign Origin or Referer", () => {
    expect(startedOnAnotherSite(request({}), SITE)).toBe(false);
    expect(startedOnAnotherSite(request({ Referer: `${SITE}/admin/leads` }), SITE)).toBe(false);
    // Behind a proxy the request's own origin may differ from SITE_URL's; both are this site.
    expect(
      startedOnAnotherSite(request({ Referer: "http://127.0.0.1:3000/admin" }, "http://127.0.0.1:3000/admin/leads/export"), SITE),
    ).toBe(false);
    expect(startedOnAnotherSite(request({ Referer: "https://mail.example/inbox" }), SITE)).toBe(true);
    expect(startedOnAnotherSite(request({ Origin: "https://evil.example" }), SITE)).toBe(true);
    expect(startedOnAnotherSite(request({ Referer: "not a url" }), SITE)).toBe(true);
  });
});
