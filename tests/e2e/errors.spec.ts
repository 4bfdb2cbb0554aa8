import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

test.describe("not found", () => {
  const paths = ["/no-such-page", "/products/other-product", "/company/about/extra"];
  for (const path of paths) {
    test(`${path} answers 404 with the not-found page`, async ({ page, consoleErrors }) => {
      const messages: string[] = [];
      page.on("console", (message) => messages.push(message.text()));
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
      await expect(page.getByText("Oops! Page not found")).toBeVisible();
      await waitForHydration(page);
      await expect.poll(() => messages.some((text) => text.includes(path))).toBe(true);
      // The not-found page's markup is the same whatever the path: axe judges it once.
      if (path === paths[0]) await expectAccessible(page);
      await page.getByRole("link", { name: "Return to Home" }).click();
      await expect(page).toHaveURL(/\/$/);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test("a post to a page without a form gets a small 405 page with Allow: no render, no stack, nothing logged as an error", async () => {
  const server = await startPrivateServer();
  try {
    const response = await fetch(`${server.url}/company/about`, {
      method: "POST",
      body: new URLSearchParams({ anything: "x" }),
      headers: { Origin: server.url, Accept: "text/html" },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    // A page of its own, about 1 KB: the site's 405 screen was a whole render (about 54 KB).
    expect(html.length).toBeLessThan(2_000);
    expect(html).toContain("<title>Nothing to send here | Quorvant</title>");
    expect(html).toContain("This page does not take POST requests.");
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      server
        .output()
        .split("\n")
        .filter((line) => line.includes('"level":50')),
    ).toEqual([]);
  } finally {
    await server.stop();
  }
});

test("cross-site form posts are refused", async ({ request }) => {
  const response = await request.post("/contact-sales", {
    form: { first_name: "Mallory" },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  });
  expect(response.status()).toBe(403);
});

test("robots.txt, sitemap.xml and healthz", async ({ request, baseURL }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const robotsText = await robots.text();
  expect(robotsText).toContain("User-agent: *");
  expect(robotsText).toContain("Allow: /");
  expect(robotsText).toMatch(/Sitemap: http:\/\/.+\/sitemap\.xml/);

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toContain("xml");
  const xml = await sitemap.text();
  for (const path of ["/company/about", "/products/sentinel", "/terms/legal", "/resources/api"])
    expect(xml).toContain(`${path}</loc>`);

  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(baseURL).toBeTruthy();
});
