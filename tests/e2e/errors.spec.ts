import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

test.describe("not found", () => {
  for (const path of ["/no-such-page", "/products/other-product", "/company/about/extra"]) {
    test(`${path} answers 404 with the not-found page`, async ({ page, consoleErrors }) => {
      const messages: string[] = [];
      page.on("console", (message) => messages.push(message.text()));
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
      await expect(page.getByText("Oops! Page not found")).toBeVisible();
      await waitForHydration(page);
      await expect.poll(() => messages.some((text) => text.includes(path))).toBe(true);
      await expectAccessible(page);
      await page.getByRole("link", { name: "Return to Home" }).click();
      await expect(page).toHaveURL(/\/$/);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test("the router's error screen: a request the route cannot handle shows the generic error, never a stack, and logs one JSON line", async () => {
  const server = await startPrivateServer();
  try {
    // A POST to a page without an action makes the router throw (405); the root boundary renders it.
    const response = await fetch(`${server.url}/company/about`, {
      method: "POST",
      body: new URLSearchParams({ anything: "x" }),
      headers: { Origin: server.url },
    });
    expect(response.status).toBe(405);
    const html = await response.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
    const requestId = response.headers.get("x-request-id");
    await expect
      .poll(() =>
        server
          .output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { level?: string; requestId?: string; msg?: string })
          .some((entry) => entry.level === "error" && entry.requestId === requestId && entry.msg === "request failed"),
      )
      .toBe(true);
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
