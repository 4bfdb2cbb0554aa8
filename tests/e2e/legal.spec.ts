import { randomUUID } from "node:crypto";
import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { withDatabase } from "./support/database";
import { startPrivateServer, type RunningServer } from "./support/server";

const pages = [
  { path: "/terms/privacy-policy", type: "privacy-policy", name: "Privacy Policy", lower: "privacy policy" },
  { path: "/terms/terms-of-use", type: "terms-of-use", name: "Terms of Use", lower: "terms of use" },
] as const;

test.describe("seeded legal documents", () => {
  // Each document's page at rest is judged by axe at both widths in accessibility.spec.ts.
  for (const { path, name } of pages) {
    test(`${path} shows title, version, date and every section`, async ({ page, request }) => {
      const seeded = await (await request.get(path)).text();
      expect(seeded).toContain("Version ");
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${name} | Quorvant`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // The version line itself, not an earlier version listed under the document.
      await expect(page.getByText(/^Version \d+(\.\d+)* · Last updated/)).toBeVisible();
      await expect(page.getByText(/Last updated [A-Z][a-z]+ \d{1,2}, \d{4}/)).toBeVisible();
      expect(await page.getByRole("main").getByRole("heading", { level: 2 }).count()).toBeGreaterThanOrEqual(6);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path}$`));
    });
  }

  test("the footer and the legal index link to both documents", async ({ page }) => {
    await page.goto("/terms/legal");
    const main = page.getByRole("main");
    await expect(main.locator('a[href="/terms/privacy-policy"]').first()).toBeVisible();
    await expect(main.locator('a[href="/terms/terms-of-use"]').first()).toBeVisible();
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/terms/privacy-policy");
    await expect(footer.getByRole("link", { name: "Terms of Use" })).toHaveAttribute("href", "/terms/terms-of-use");
  });
});

test.describe("legal documents put in place through SQL", () => {
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;

  test.beforeAll(async () => {
    server = await startPrivateServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  /** Replaces every document of a type with one row (version omitted when undefined). */
  function putDocument(
    type: string,
    content: string,
    options: { version?: string; lastUpdated?: string; published?: boolean } = {},
  ) {
    const id = randomUUID();
    withDatabase(server.databasePath, (db) => {
      db.prepare("DELETE FROM legal_documents WHERE document_type = ?").run(type);
      const columns = ["id", "document_type", "title", "content", "last_updated", "published"];
      const values: unknown[] = [
        id,
        type,
        "Test Document",
        content,
        options.lastUpdated ?? "2025-03-05T12:00:00.000Z",
        options.published === false ? 0 : 1,
      ];
      if (options.version !== undefined) {
        columns.push("version");
        values.push(options.version);
      }
      db.prepare(`INSERT INTO legal_documents (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
        ...values,
      );
    });
    return id;
  }

  const valid = JSON.stringify({
    sections: [
      { title: "First section", content: "Para one.\n\nPara two <b>not bold</b>." },
      { title: "Second section", content: "Only paragraph." },
    ],
  });

  test("a row inserted without a version shows 1.0, sections in order, HTML inert", async ({ page }) => {
    putDocument("privacy-policy", valid);
    await expect(async () => {
      const response = await page.goto(`${server.url}/terms/privacy-policy`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "Test Document" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText("Version 1.0")).toBeVisible();
    await expect(page.getByText("Last updated March 5, 2025")).toBeVisible();
    const headings = page.getByRole("main").getByRole("heading", { level: 2 });
    await expect(headings).toHaveText(["First section", "Second section"]);
    await expect(page.getByText("Para two <b>not bold</b>.")).toBeVisible();
    await expect(page.locator("main b")).toHaveCount(0);
    await expect(page.locator("main article p")).toHaveCount(4);
  });

  test("a timestamp near midnight UTC does not shift the day", async ({ page }) => {
    putDocument("terms-of-use", valid, { version: "2.1", lastUpdated: "2025-06-30T23:59:30.000Z" });
    await expect(async () => {
      await page.goto(`${server.url}/terms/terms-of-use`);
      await expect(page.getByText("Version 2.1")).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText("Last updated June 30, 2025")).toBeVisible();
  });

  test("the newest published document wins; unpublished ones are never shown", async ({ page }) => {
    putDocument("privacy-policy", valid, { version: "1.0", lastUpdated: "2024-01-01T00:00:00.000Z" });
    withDatabase(server.databasePath, (db) => {
      const insert = db.prepare(
        "INSERT INTO legal_documents (id, document_type, title, content, last_updated, version, published) VALUES (?, 'privacy-policy', ?, ?, ?, ?, ?)",
      );
      insert.run(randomUUID(), "Newest Published", valid, "2025-01-01T00:00:00.000Z", "3.0", 1);
      insert.run(randomUUID(), "Draft Policy", valid, "2026-01-01T00:00:00.000Z", "4.0", 0);
    });
    await expect(async () => {
      await page.goto(`${server.url}/terms/privacy-policy`);
      await expect(page.getByRole("heading", { level: 1, name: "Newest Published" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText("Draft Policy")).toHaveCount(0);
  });

  const invalidShapes: [string, string][] = [
    ["sections missing", JSON.stringify({ paragraphs: [] })],
    ["sections not an array", JSON.stringify({ sections: "nope" })],
    ["an item with a numeric title", JSON.stringify({ sections: [{ title: 7, content: "x" }] })],
    ["an item without content", JSON.stringify({ sections: [{ title: "x" }] })],
    ["a JSON string that does not parse", "{not json"],
    ["an array instead of an object", JSON.stringify([{ title: "x", content: "y" }])],
  ];
  // One page shows every shape in turn: the error state's markup is the same for each, so axe
  // judges it once.
  test(`invalid content (${invalidShapes.map(([label]) => label).join("; ")}) shows the error state with 500`, async ({
    page,
  }) => {
    for (const [index, [label, content]] of invalidShapes.entries()) {
      const id = putDocument("terms-of-use", content);
      await expect(async () => {
        const response = await page.goto(`${server.url}/terms/terms-of-use`);
        expect(response?.status(), label).toBe(500);
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole("heading", { level: 1, name: "Error Loading Terms of Use" }), label).toBeVisible();
      await expect(
        page.getByText("We're sorry, but we couldn't load the terms of use at this time. Please try again later."),
        label,
      ).toBeVisible();
      await expect(page.getByText("Invalid document content structure"), label).toBeVisible();
      await expect.poll(() => server.output(), { message: label }).toContain(id);
      if (index === 0) await expectAccessible(page, label);
    }
  });

  test("no published document gives 404 and the error state", async ({ page }) => {
    putDocument("privacy-policy", valid, { published: false });
    await expect(async () => {
      const response = await page.goto(`${server.url}/terms/privacy-policy`);
      expect(response?.status()).toBe(404);
    }).toPass({ timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Error Loading Privacy Policy" })).toBeVisible();
    await expect(
      page.getByText("We're sorry, but we couldn't load the privacy policy at this time. Please try again later."),
    ).toBeVisible();
    await expectAccessible(page);
  });

  test("a database fault while the server runs gives 503 and the error state", async ({ page }) => {
    putDocument("privacy-policy", valid);
    withDatabase(server.databasePath, (db) => db.exec("ALTER TABLE legal_documents RENAME TO legal_documents_gone"));
    try {
      await expect(async () => {
        const response = await page.goto(`${server.url}/terms/privacy-policy`);
        expect(response?.status()).toBe(503);
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole("heading", { level: 1, name: "Error Loading Privacy Policy" })).toBeVisible();
      await expectAccessible(page);
    } finally {
      withDatabase(server.databasePath, (db) => db.exec("ALTER TABLE legal_documents_gone RENAME TO legal_documents"));
    }
  });

  test("the skeleton shows on client-side navigation while the document is on its way", async ({ page }) => {
    putDocument("privacy-policy", valid);
    await page.goto(`${server.url}/terms/legal`);
    await waitForHydration(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/terms/privacy-policy.data*", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("main").locator('a[href="/terms/privacy-policy"]').first().click();
    const busy = page.locator('[aria-busy="true"]');
    await expect(busy).toBeVisible();
    await expectAccessible(page, "legal skeleton");
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Test Document" })).toBeVisible();
    await expect(busy).toHaveCount(0);
  });
});
