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

test("an overloaded server answers uncached renders 503 at once, while cached pages, assets and health keep answering", async () => {
  // An event-loop delay over 20 ms counts as overloaded here, so a burst of renders trips it.
  const server = await startPrivateServer({ LOAD_SHED_DELAY_MS: "20", LOG_LEVEL: "warn" });
  try {
    const cached = `${server.url}/company/about`;
    // Once rendered, the page is served from the cache, shed or not (the start-up itself may trip the limit).
    await expect.poll(async () => (await fetch(cached)).status, { timeout: 10_000 }).toBe(200);
    let html = "";
    await expect
      .poll(async () => (html = await (await fetch(`${server.url}/`)).text()), { timeout: 10_000 })
      .toContain("/assets/");
    const asset = `${server.url}${/\/assets\/[^"]+\.js/.exec(html)![0]}`;
    const statuses: number[] = [];
    const busy: Response[] = [];
    let others: number[] = [];
    // Bounded: at most 20 rounds of 40 uncached renders until one is shed.
    for (let round = 0; round < 20 && busy.length === 0; round += 1) {
      const flood = Array.from({ length: 40 }, (_, i) => fetch(`${server.url}/no-such-page-${round}-${i}`));
      const alongside = Promise.all([fetch(`${server.url}/healthz`), fetch(cached), fetch(asset)]);
      for (const response of await Promise.all(flood)) {
        statuses.push(response.status);
        if (response.status === 503) busy.push(response);
      }
      others = (await alongside).map((response) => response.status);
      expect(others).toEqual([200, 200, 200]);
    }
    expect(busy.length, `statuses seen: ${[...new Set(statuses)].join(", ")}`).toBeGreaterThan(0);
    expect(busy[0]!.headers.get("retry-after")).toBe("1");
    expect(statuses.every((status) => status === 404 || status === 503)).toBe(true);
  } finally {
    await server.stop();
  }
});
