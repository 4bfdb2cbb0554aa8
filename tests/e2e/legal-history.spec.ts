import { randomUUID } from "node:crypto";
import { expect, expectAccessible, test } from "./support/fixtures";
import { withDatabase } from "./support/database";
import { startPrivateServer, type RunningServer } from "./support/server";

// A legal document's earlier versions: listed under the current text, each readable on its own
// page marked as superseded. A private server, so the inserted version touches no other test.

test.describe("legal version history", () => {
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;
  let current: { version: string; title: string };

  test.beforeAll(async () => {
    server = await startPrivateServer();
    // The seeded privacy policy's newest version is the current one (the sample keeps its previous
    // version too); an older one is added beside them, as an editor's tool would.
    current = withDatabase(server.databasePath, (db) => {
      const row = db
        .prepare(
          "SELECT version, title FROM legal_documents WHERE document_type = 'privacy-policy' AND published = 1 ORDER BY last_updated DESC LIMIT 1",
        )
        .get() as { version: string; title: string };
      const content = JSON.stringify({
        sections: [
          { title: "Old first section", content: "What we collected in 2024." },
          { title: "Old second section", content: "How long we kept it." },
        ],
      });
      const insert = db.prepare(
        "INSERT INTO legal_documents (id, document_type, title, content, last_updated, version, published) VALUES (?, 'privacy-policy', ?, ?, ?, ?, ?)",
      );
      insert.run(randomUUID(), "Privacy Policy (2024)", content, "2024-03-01T00:00:00.000Z", "0.9 beta/1", 1);
      // Unpublished versions never show.
      insert.run(randomUUID(), "Draft", content, "2024-06-01T00:00:00.000Z", "0.95", 0);
      return row;
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const oldPath = `/terms/privacy-policy/versions/${encodeURIComponent("0.9 beta/1")}`;

  test("the current page shows the newest version and links to the older one", async ({ page }) => {
    await expect(async () => {
      await page.goto(`${server.url}/terms/privacy-policy`);
      await expect(page.getByRole("heading", { level: 2, name: "Earlier versions" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: current.title })).toBeVisible();
    await expect(page.getByText(new RegExp(`^Version ${current.version.replace(".", "\\.")}`))).toBeVisible();
    const history = page.getByRole("region", { name: "Earlier versions" });
    await expect(history.getByRole("listitem")).toHaveText([
      "Version 2.1 — updated June 1, 2025",
      "Version 0.9 beta/1 — updated March 1, 2024",
    ]);
    await expect(history.getByRole("link", { name: "Version 0.9 beta/1" })).toHaveAttribute("href", oldPath);
    await expectAccessible(page, "privacy policy with its history");
  });

  test("the older version's page shows its own sections, the superseded notice and a link back", async ({ page }) => {
    const response = await page.goto(`${server.url}${oldPath}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Privacy Policy, version 0.9 beta/1 | Quorvant");
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy (2024)" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
      "Old first section",
      "Old second section",
    ]);
    await expect(page.getByText("This version (0.9 beta/1, updated March 1, 2024) has been superseded.")).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${oldPath.replaceAll(".", "\\.")}$`));
    await expectAccessible(page, "superseded privacy policy");
    await page.getByRole("link", { name: "Read the current version" }).click();
    await expect(page).toHaveURL(`${server.url}/terms/privacy-policy`);
    await expect(page.getByRole("heading", { level: 1, name: current.title })).toBeVisible();
  });

  test("the current version's URL redirects to the document's page", async ({ request }) => {
    const response = await request.get(`${server.url}/terms/privacy-policy/versions/${encodeURIComponent(current.version)}`, {
      maxRedirects: 0,
    });
    expect(response.status()).toBe(308);
    expect(response.headers()["location"]).toBe("/terms/privacy-policy");
  });

  for (const [label, path] of [
    ["an unknown version", "/terms/privacy-policy/versions/7.7"],
    ["an unpublished version", "/terms/privacy-policy/versions/0.95"],
    ["another document's version", `/terms/terms-of-use/versions/${encodeURIComponent("0.9 beta/1")}`],
  ] as const) {
    test(`${label} is the 404 page`, async ({ page }) => {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "404" })).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    });
  }

  test("a document with no earlier version shows no history", async ({ page }) => {
    await page.goto(`${server.url}/terms/terms-of-use`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Earlier versions" })).toHaveCount(0);
  });

  test("the sitemap lists each legal document once, never its earlier versions", async ({ request }) => {
    const sitemap = await (await request.get(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain("/terms/privacy-policy</loc>");
    expect(sitemap).not.toContain("/versions/");
  });
});
