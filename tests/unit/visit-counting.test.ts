import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { attributionOfPage, normaliseCampaignValue, parseAttribution, referrerHostOf } from "~/features/leads/attribution";
import { trackingFrom } from "~/features/leads/forms/submit.server";
import { PageViewCounter } from "~/features/visits/page-view-counter.server";
import { pageViewOf } from "../../server/visit-counting";

// Which answers count as a page view, under which key, and how a visit's attribution is cleaned.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const OWN = "www.quorvant.example";
const NOW = new Date("2026-03-04T23:59:59Z");

function request(url: string, headers: Record<string, string> = {}, method = "GET"): IncomingMessage {
  return { method, url, headers: { "user-agent": BROWSER, ...headers } } as unknown as IncomingMessage;
}

const view = (req: IncomingMessage, status = 200, type = "text/html; charset=utf-8") => pageViewOf(req, status, type, OWN, NOW);

describe("page views", () => {
  it("counts a page with its day, path, referring site and campaign, nothing else", () => {
    expect(
      view(
        request(
          "/products/sentinel?utm_source=LinkedIn&utm_medium=social&utm_campaign=q3&utm_term=ai+governance&utm_content=hero&x=1",
          {
            referer: "https://www.linkedin.com/feed/",
          },
        ),
      ),
    ).toEqual({
      day: "2026-03-04",
      path: "/products/sentinel",
      referrer_host: "www.linkedin.com",
      utm_source: "linkedin",
      utm_medium: "social",
      utm_campaign: "q3",
      utm_term: "ai governance",
      utm_content: "hero",
    });
  });

  it("counts a revalidation (304) of a page and a client-side navigation under the site's own host", () => {
    expect(view(request("/", { "sec-fetch-dest": "document" }), 304, "")).toMatchObject({ path: "/", referrer_host: "" });
    expect(view(request("/request-demo.data", { referer: `https://${OWN}/` }), 200, "text/x-script")).toMatchObject({
      path: "/request-demo",
      referrer_host: OWN,
    });
    expect(view(request("/_root.data", { referer: `https://${OWN}/company/about` }), 200, "text/x-script")).toMatchObject({
      path: "/",
    });
  });

  it("does not count crawlers, prefetches, a page reloading its own data, other methods, failures, files, the back office or previews", () => {
    expect(view(request("/", { "user-agent": CRAWLER }))).toBeUndefined();
    expect(view(request("/", { "user-agent": "" }))).toBeUndefined();
    expect(view(request("/request-demo.data", { "sec-purpose": "prefetch" }), 200, "text/x-script")).toBeUndefined();
    expect(view(request("/request-demo.data", { referer: `https://${OWN}/request-demo` }), 200, "text/x-script")).toBeUndefined();
    expect(view(request("/", {}, "HEAD"))).toBeUndefined();
    expect(view(request("/", {}, "POST"))).toBeUndefined();
    expect(view(request("/no-such-page"), 404)).toBeUndefined();
    expect(view(request("/rss.xml"), 200, "application/rss+xml")).toBeUndefined();
    expect(view(request("/admin/posts"))).toBeUndefined();
    expect(view(request("/resources/blog/preview/abc.123"))).toBeUndefined();
  });
});

describe("attribution", () => {
  it("reduces campaign values to bounded plain lower-case text", () => {
    expect(normaliseCampaignValue("  Spring\u202E Launch\r\n ")).toBe("spring launch");
    expect(normaliseCampaignValue("x".repeat(500))).toHaveLength(100);
    expect(referrerHostOf("https://News.Example.com/a?b", OWN)).toBe("news.example.com");
    expect(referrerHostOf(`https://${OWN}/x`, OWN)).toBe("");
    expect(referrerHostOf("javascript:alert(1)", OWN)).toBe("");
  });

  it("re-checks what a tab sends and refuses what is not an attribution", () => {
    const page = attributionOfPage(new URL("https://q.example/request-demo?utm_source=ads"), "https://search.example/");
    expect(parseAttribution(JSON.stringify(page))).toEqual(page);
    expect(
      parseAttribution(JSON.stringify({ ...page, referrer_host: "evil host\r\nX: y", utm_campaign: "=HYPERLINK" })),
    ).toMatchObject({
      referrer_host: "",
      utm_campaign: "=hyperlink",
    });
    expect(parseAttribution("not json")).toBeUndefined();
    expect(parseAttribution(JSON.stringify({ landing_page: "https://elsewhere.example/" }))).toBeUndefined();
    expect(parseAttribution("x".repeat(5000))).toBeUndefined();
  });

  it("takes a lead's campaign without JavaScript from the address posted to, else from the same page the Referer names", () => {
    const plain = new URL("https://q.example/contact-sales");
    const onPage = "https://q.example/contact-sales?utm_source=news&utm_campaign=spring";
    expect(trackingFrom(plain, null, onPage)).toMatchObject({
      source_page: "/contact-sales",
      utm_source: "news",
      utm_campaign: "spring",
    });
    // The address posted to wins; another page or another site is not this form's page.
    expect(trackingFrom(new URL("https://q.example/contact-sales?utm_source=ads"), null, onPage)).toMatchObject({
      utm_source: "ads",
      utm_campaign: "",
    });
    expect(trackingFrom(plain, null, "https://q.example/request-demo?utm_source=news")).toMatchObject({ utm_source: "" });
    expect(trackingFrom(plain, null, "https://evil.example/contact-sales?utm_source=news")).toMatchObject({ utm_source: "" });
    expect(trackingFrom(plain, null, "not a url")).toMatchObject({ utm_source: "" });
    // What the tab kept is the visit's first touch; the utm_* columns stay the form page's own.
    const kept = attributionOfPage(new URL("https://q.example/?utm_source=tab"), null);
    expect(trackingFrom(plain, JSON.stringify(kept), onPage)).toMatchObject({
      landing_page: "/",
      first_utm_source: "tab",
      utm_source: "news",
    });
  });

  it("keeps the form page's own campaign in utm_* and the visit's first touch in its own columns", () => {
    const visit = attributionOfPage(
      new URL("https://q.example/?utm_source=newsletter&utm_medium=email&utm_campaign=x&utm_term=t&utm_content=c"),
      "https://mail.example/inbox",
    );
    // A visitor who arrived from a newsletter sends the contact form from its plain address.
    expect(
      trackingFrom(new URL("https://q.example/contact-sales"), JSON.stringify(visit), "https://q.example/contact-sales"),
    ).toEqual({
      source_page: "/contact-sales",
      utm_source: "",
      utm_medium: "",
      utm_campaign: "",
      utm_term: "",
      utm_content: "",
      landing_page: "/",
      referrer_host: "mail.example",
      first_utm_source: "newsletter",
      first_utm_medium: "email",
      first_utm_campaign: "x",
      first_utm_term: "t",
      first_utm_content: "c",
    });
    // Without JavaScript (no visit field), the form page's own address is both.
    expect(trackingFrom(new URL("https://q.example/request-demo?utm_source=ad"), "", null)).toMatchObject({
      source_page: "/request-demo",
      utm_source: "ad",
      landing_page: "/request-demo",
      first_utm_source: "ad",
    });
  });
});

describe("the counter", () => {
  it("adds views of one key and hands them over once", () => {
    const counter = new PageViewCounter();
    const key = view(request("/"))!;
    counter.record(key);
    counter.record(key);
    counter.record({ ...key, path: "/company/about" });
    expect(counter.take()).toEqual([
      { key, views: 2 },
      { key: { ...key, path: "/company/about" }, views: 1 },
    ]);
    expect(counter.take()).toEqual([]);
  });
});
