import { expect, test, waitForHydration } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// What someone trying to knock the site over gets: canonical pages the cache recognises, the
// article sent once, and quick 503s for uncached work while the server is overloaded.

const POST = "/resources/blog/ai-governance-operating-model";
/** A sentence of that post's body, which appears in its article and nowhere else. */
const ARTICLE_SENTENCE = "Far fewer have an AI";

test.describe("one page, one cache entry", () => {
  test("query parameters a page does not read neither vary the cache nor render anew", async ({ request }) => {
    /**
     * Whether a URL never asked for before is answered from the cache entry of `canonical`. Each
     * try renders `canonical` first; on a busy machine the entry may already be refreshing by the
     * second request, so a few tries are allowed. A cache keyed on the raw URL never says HIT.
     */
    const servedFromEntryOf = async (canonical: string, variant: (n: string) => string) => {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await request.get(canonical);
        const unique = `${Date.now()}-${attempt}-${Math.random().toString(36).slice(2)}`;
        if ((await request.get(variant(unique))).headers()["x-page-cache"] === "HIT") return true;
      }
      return false;
    };
    expect(await servedFromEntryOf("/company/charter", (n) => `/company/charter?x=${n}`)).toBe(true);
    expect(await servedFromEntryOf("/company/charter", (n) => `/company/charter?y=${n}&utm_source=${n}`)).toBe(true);
    // The blog list reads category and page: those do vary it (in any order), nothing else does.
    expect(
      await servedFromEntryOf(
        "/resources/blog?category=Security&page=1",
        (n) => `/resources/blog?page=1&x=${n}&category=Security`,
      ),
    ).toBe(true);
  });

  test("a path in another case redirects to the lower-case page; files keep their case", async ({ request }) => {
    const response = await request.get("/RESOURCES/Blog?page=1", { maxRedirects: 0 });
    expect(response.status()).toBe(308);
    expect(response.headers().location).toBe("/resources/blog?page=1");
    const html = await (await request.get("/")).text();
    const asset = /\/assets\/[^"]*[A-Z][^"]*\.js/.exec(html)?.[0];
    expect(asset, "a fingerprinted asset with capitals").toBeTruthy();
    expect((await request.get(asset!, { maxRedirects: 0 })).status()).toBe(200);
  });

  test("a page never echoes a query parameter it does not read, so no visitor's URL reaches another", async ({ request }) => {
    const html = await (await request.get("/contact-sales?utm_source=news&session=s3cr3t-token")).text();
    expect(html).not.toContain("s3cr3t-token");
    expect(html).toContain('action="/contact-sales?utm_source=news"');
    const careers = await (await request.get("/company/careers?utm_campaign=spring&session=s3cr3t-token")).text();
    expect(careers).not.toContain("s3cr3t-token");
    expect(careers).toContain('href="/company/careers?utm_campaign=spring&amp;apply=1"');
  });
});

test.describe("the article is sent once", () => {
  test("a post's HTML carries its article once, outside the hydration data, and hydrates with it", async ({ page, request }) => {
    const html = await (await request.get(POST)).text();
    expect(html.split(ARTICLE_SENTENCE).length - 1).toBe(1);
    await page.goto(POST);
    await waitForHydration(page);
    await expect(page.getByRole("article").getByText(ARTICLE_SENTENCE)).toBeVisible();
    // A client-side navigation brings the article as data, its only copy.
    await page.getByRole("link", { name: "Back to Blog" }).first().click();
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await page.goBack();
    await expect(page.getByRole("article").getByText(ARTICLE_SENTENCE)).toBeVisible();
  });
});

test.describe("load shedding", () => {
  test("32 distinct uncached pages requested at once from a freshly started server all get their page", async () => {
    // Load shedding at its default, as deployed (the test servers otherwise turn it off).
    const server = await startPrivateServer({ LOAD_SHED_DELAY_MS: "100", LOG_LEVEL: "warn" });
    try {
      const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
      const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
      // The blog's category views are pages of their own, to make up 32 (the sitemap lists fewer);
      // the feed names the categories without rendering a page.
      const feed = await (await fetch(`${server.url}/rss.xml`)).text();
      const names = new Set([...feed.matchAll(/<category>(?:<!\[CDATA\[)?([^<\]]+)/g)].map((match) => match[1]!));
      expect(names.size).toBeGreaterThanOrEqual(4);
      const categories = [...names].map((category) => `/resources/blog?${new URLSearchParams({ category })}`);
      const distinct = [...new Set([...pages, ...categories])].slice(0, 32);
      expect(distinct).toHaveLength(32);
      // An idle server: its start-up (which on a busy machine keeps it busy for seconds) is over.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const answers = await Promise.all(
        distinct.map(async (path) => {
          const response = await fetch(`${server.url}${path}`, { headers: { Accept: "text/html" }, redirect: "manual" });
          await response.arrayBuffer();
          return `${response.status} ${path}`;
        }),
      );
      expect(answers).toEqual(distinct.map((path) => `200 ${path}`));
    } finally {
      await server.stop();
    }
  });

  test("sustained overload: uncached renders get a small branded page that retries by itself, a stored page its last good copy", async () => {
    // Overloaded once renders have queued without a break for 200 ms; then a wait over 20 ms is not rendered.
    const server = await startPrivateServer({ LOAD_SHED_DELAY_MS: "20", LOAD_SHED_INTERVAL_MS: "200", LOG_LEVEL: "warn" });
    try {
      const stored = `${server.url}/company/charter`;
      await expect.poll(async () => (await fetch(stored)).status, { timeout: 10_000 }).toBe(200);
      let html = "";
      await expect
        .poll(async () => (html = await (await fetch(`${server.url}/`)).text()), { timeout: 10_000 })
        .toContain("/assets/");
      const asset = `${server.url}${/\/assets\/[^"]+\.js/.exec(html)![0]}`;
      // The stored copy is past its freshness second from here on.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const statuses = new Set<number>();
      let refusal: { status: number; headers: Headers; body: string } | undefined;
      // Sustained: 100 visitors each asking for one uncached page after another, so the line of
      // renders never empties while the stored page is asked for.
      let flooding = true;
      let sent = 0;
      const visitor = async () => {
        while (flooding) {
          const response = await fetch(`${server.url}/no-such-page-${(sent += 1)}`, { headers: { Accept: "text/html" } });
          statuses.add(response.status);
          if (response.status === 503 && !refusal)
            refusal = { status: 503, headers: response.headers, body: await response.text() };
          else await response.arrayBuffer();
        }
      };
      const flood = Array.from({ length: 100 }, visitor);
      const storedServedAs = new Set<string>();
      try {
        // Bounded: until both were seen, for at most 20 s.
        const deadline = Date.now() + 20_000;
        while ((!refusal || !storedServedAs.has("STALE")) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const alongside = await Promise.all([fetch(`${server.url}/healthz`), fetch(stored), fetch(asset)]);
          expect(alongside.map((response) => response.status)).toEqual([200, 200, 200]);
          storedServedAs.add(alongside[1]!.headers.get("x-page-cache") ?? "");
          await Promise.all(alongside.map((response) => response.arrayBuffer()));
        }
      } finally {
        flooding = false;
        await Promise.all(flood);
      }
      expect([...statuses].sort()).toEqual([404, 503]);
      expect(refusal, "no render was refused").toBeDefined();
      expect(refusal!.headers.get("retry-after")).toBe("3");
      expect(refusal!.headers.get("cache-control")).toBe("no-store");
      expect(refusal!.headers.get("content-type")).toMatch(/^text\/html/);
      // Small (no render), branded, with a way back, and asking again by itself with no script.
      expect(refusal!.body.length).toBeLessThan(2_000);
      expect(refusal!.body).toContain("<title>We are busy right now | Quorvant</title>");
      expect(refusal!.body).toContain('<meta http-equiv="refresh" content="3">');
      expect(refusal!.body).toContain('<a href="/">Go to the home page</a>');
      expect(refusal!.body).not.toContain("<script");
      expect(storedServedAs, "the stored page was never served from its last good copy").toContain("STALE");
    } finally {
      await server.stop();
    }
  });
});
