import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { withDatabase } from "./support/database";
import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

type PostRow = {
  id?: string;
  slug?: string | null;
  title: string;
  category?: string;
  date: string; // YYYY-MM-DD
  featured?: boolean;
  published?: boolean;
  content?: string;
  image_url?: string | null;
};

/** An edit made directly in the database shows within a second (page cache included). */
const FRESHNESS_MS = 1_100;
const settle = () => new Promise((resolve) => setTimeout(resolve, FRESHNESS_MS));

/** Replaces every post with these rows, as an editor's tool writing SQL would, then waits out the page cache. */
async function putPosts(server: RunningServer, rows: PostRow[]) {
  const ids = withDatabase(server.databasePath, (db) => {
    db.prepare("DELETE FROM blog_posts").run();
    const insert = db.prepare(
      `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at)
       VALUES (@id, @slug, @title, @excerpt, @content, @category, @author, @published_date, @read_time, @image_url, @featured, @published, @now, @now)`,
    );
    const now = new Date().toISOString();
    return rows.map((row) => {
      const id = row.id ?? randomUUID();
      insert.run({
        id,
        slug: row.slug === undefined ? `post-${id.slice(0, 8)}` : row.slug,
        title: row.title,
        excerpt: `Excerpt of ${row.title}`,
        content: row.content ?? `Body of **${row.title}**.`,
        category: row.category ?? "Security",
        author: "Test Author",
        published_date: `${row.date}T12:00:00.000Z`,
        read_time: 6,
        image_url: row.image_url ?? null,
        featured: row.featured ? 1 : 0,
        published: row.published === false ? 0 : 1,
        now,
      });
      return id;
    });
  });
  await settle();
  return ids;
}

const days = (count: number, start = 1) =>
  Array.from({ length: count }, (_, index) => `2025-03-${String(start + index).padStart(2, "0")}`);

/** Cards on the blog list, in page order (the featured post has its own section). */
async function listedTitles(page: Page) {
  return page
    .getByRole("region", { name: /articles$/ })
    .getByRole("article")
    .getByRole("heading")
    .allTextContents();
}

test.describe("seeded blog", () => {
  test("home shows Latest Insights with a featured post, four others and View All Articles", async ({ page }) => {
    await page.goto("/");
    const block = page.getByRole("region", { name: "Latest Insights" });
    await expect(block.getByRole("heading", { name: "Latest Insights" })).toBeVisible();
    await expect(block.getByText("Featured", { exact: true })).toBeVisible();
    await expect(block.getByRole("link", { name: /^Read Article/ })).toBeVisible();
    await expect(block.getByRole("listitem")).toHaveCount(4);
    await expect(block.getByText(/^\d+ min read$/).first()).toBeVisible();
    await expect(block.getByText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/).first()).toBeVisible();
    await expect(block.getByRole("link", { name: "View All Articles" })).toHaveAttribute("href", "/resources/blog");
    // This home page, posts and all, is judged by axe at both widths in visuals.spec.ts.
  });

  test("a post renders its markup on the server with BlogPosting JSON-LD and Open Graph", async ({ page, request }) => {
    const html = await (await request.get("/resources/blog/sentinel-2-4-release")).text();
    expect(html).toContain('"@type":"BlogPosting"');
    expect(html).toMatch(/<meta property="og:type" content="article"/);
    // Shared links show the post's card; its own image stays in the JSON-LD.
    expect(html).toMatch(/<meta property="og:image" content="http[^"]+\/resources\/blog\/sentinel-2-4-release\/og\.png"/);
    expect(html).toMatch(/"image":\["http[^"]+\/images\/sentinel-architecture\.svg","http[^"]+\/og\.png"\]/);
    await page.goto("/resources/blog/sentinel-2-4-release");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Sentinel 2\.4/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 2, name: "Policy simulation" })).toBeVisible();
    await expect(page.locator("article figure img")).toHaveAttribute("loading", "lazy");
    await expect(page.getByRole("link", { name: "Back to Blog" })).toHaveAttribute("href", "/resources/blog");
    await expectAccessible(page, "post page");
  });

  test("the feed is RSS 2.0 with absolute links and the sitemap lists posts", async ({ request }) => {
    const feed = await request.get("/rss.xml");
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toContain("application/rss+xml");
    const xml = await feed.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const links = [...xml.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^https?:\/\/[^/]+\/resources\/blog\/[^/]+$/);
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/resources/blog/sentinel-2-4-release</loc><lastmod>");
  });

  // The data is fetched from the server at once and handed to the page only when released: a
  // streamed answer held as a paused request and continued later never completed in Chromium.
  test("client-side navigation shows the loading states while the data request is held back", async ({ page }) => {
    await page.goto("/company/about");
    await waitForHydration(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/*.data*", async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });

    await page.getByRole("contentinfo").getByRole("link", { name: "Blog" }).click();
    const skeleton = page.locator('[aria-busy="true"]').getByRole("list", { name: "Loading articles" });
    await expect(skeleton.getByRole("listitem")).toHaveCount(6);
    await expectAccessible(page, "blog list skeleton");
    release();
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "All" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(skeleton).toHaveCount(0);

    let releaseHome!: () => void;
    const heldHome = new Promise<void>((resolve) => (releaseHome = resolve));
    await page.unroute("**/*.data*");
    await page.route("**/*.data*", async (route) => {
      const response = await route.fetch();
      await heldHome;
      await route.fulfill({ response });
    });
    await page.getByRole("banner").getByRole("link", { name: /home/ }).click();
    await expect(page.locator('[aria-busy="true"]').getByText("Loading our latest articles...")).toBeVisible();
    await expectAccessible(page, "home loading");
    releaseHome();
    await expect(
      page.getByRole("region", { name: "Latest Insights" }).getByRole("link", { name: /^Read Article/ }),
    ).toBeVisible();
    await expect(page.getByText("Loading our latest articles...")).toHaveCount(0);
  });

  test("bad query values get 400", async ({ request }) => {
    for (const query of ["page=abc", "page=0", "page=-1", "page=1.5", `category=${"x".repeat(101)}`]) {
      expect((await request.get(`/resources/blog?${query}`)).status(), query).toBe(400);
    }
    expect((await request.get("/resources/blog?category=&page=1")).status()).toBe(200);
  });
});

test.describe("blog data put in place through SQL", () => {
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;

  test.beforeAll(async () => {
    server = await startPrivateServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("View All Articles appears with 6 published posts, not with exactly 5", async ({ page }) => {
    await putPosts(server, [
      ...days(5).map((date, index) => ({ title: `Five ${index}`, date })),
      { title: "Draft", date: "2025-04-01", published: false },
    ]);
    await page.goto(`${server.url}/`);
    const block = page.getByRole("region", { name: "Latest Insights" });
    await expect(block.getByRole("listitem")).toHaveCount(4);
    await expect(block.getByRole("link", { name: "View All Articles" })).toHaveCount(0);

    await putPosts(
      server,
      days(6).map((date, index) => ({ title: `Six ${index}`, date })),
    );
    await page.goto(`${server.url}/`);
    await expect(block.getByRole("listitem")).toHaveCount(4);
    await expect(block.getByRole("link", { name: "View All Articles" })).toBeVisible();
  });

  test("the featured post is the newest flagged one, else the newest; others are newest first", async ({ page }) => {
    await putPosts(server, [
      { title: "Old featured", date: "2025-01-01", featured: true },
      { title: "Newer featured", date: "2025-02-01", featured: true },
      { title: "Newest", date: "2025-03-03" },
      { title: "Middle", date: "2025-03-02" },
      { title: "Oldest", date: "2024-12-01" },
    ]);
    await page.goto(`${server.url}/`);
    const block = page.getByRole("region", { name: "Latest Insights" });
    await expect(block.getByRole("article").first().getByRole("heading")).toHaveText("Newer featured");
    await expect(block.getByRole("listitem").getByRole("heading")).toHaveText(["Newest", "Middle", "Old featured", "Oldest"]);
    await expect(block.getByText("February 1, 2025")).toBeVisible();

    await page.goto(`${server.url}/resources/blog`);
    await expect(page.getByRole("region", { name: "Featured article" }).getByRole("heading", { level: 3 })).toHaveText(
      "Newer featured",
    );
    expect(await listedTitles(page)).toEqual(["Newest", "Middle", "Old featured", "Oldest"]);

    await putPosts(server, [
      { title: "Plain new", date: "2025-03-03" },
      { title: "Plain old", date: "2025-03-01" },
    ]);
    await page.goto(`${server.url}/`);
    await expect(block.getByRole("article").first().getByRole("heading")).toHaveText("Plain new");
  });

  test("only existing categories are shown: anything else leads to the All view, named nowhere", async ({ page, request }) => {
    await putPosts(server, [
      { title: "Featured guide", date: "2025-03-10", category: "Guides", featured: true },
      { title: "Guide two", date: "2025-03-09", category: "Guides" },
      { title: "Research one", date: "2025-03-08", category: "Research" },
    ]);
    const hostile = "\u202eTrusted <b>Category</b>";
    for (const category of [hostile, "Nothing here", "guides", " Guides", "Drafts"]) {
      const response = await request.get(`${server.url}/resources/blog?category=${encodeURIComponent(category)}&page=1`, {
        maxRedirects: 0,
      });
      expect(response.status(), category).toBe(302);
      // A spelling of a category leads to it; anything else to the All view.
      expect(response.headers().location, category).toBe(
        category === " Guides" ? "/resources/blog?category=Guides" : "/resources/blog",
      );
    }
    await page.goto(`${server.url}/resources/blog?category=${encodeURIComponent(hostile)}`);
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await expect(page.getByRole("heading", { name: "All articles" })).toBeVisible();
    await expect(page).toHaveTitle(/^Blog \| /);
    expect(await page.content()).not.toContain("Trusted");
    // An existing category still filters, under its own address.
    const guides = await request.get(`${server.url}/resources/blog?category=Guides`, { maxRedirects: 0 });
    expect(guides.status()).toBe(200);
    expect(await guides.text()).toContain("Guides articles");
  });

  test("unpublished posts appear nowhere", async ({ page, request }) => {
    const [, draftId] = await putPosts(server, [
      { title: "Visible post", date: "2025-03-01", category: "Security" },
      { title: "Secret draft", slug: "secret-draft", date: "2025-03-05", category: "Drafts", featured: true, published: false },
    ]);
    for (const path of ["/", "/resources/blog", "/rss.xml", "/sitemap.xml", "/resources/blog?category=Drafts"]) {
      const body = await (await request.get(`${server.url}${path}`)).text();
      expect(body, path).toContain(path === "/sitemap.xml" ? "/resources/blog/post-" : "Visible post");
      expect(body, path).not.toContain("Secret draft");
      expect(body, path).not.toContain("secret-draft");
    }
    await page.goto(`${server.url}/resources/blog`);
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link")).toHaveText(["All", "Security"]);
    for (const path of ["/resources/blog/secret-draft", `/resources/blog/${draftId}`]) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Blog Post Not Found" })).toBeVisible();
    }
  });

  test("category chips filter the other posts; an empty category says so", async ({ page }) => {
    await putPosts(server, [
      // The featured post is its category's only one: that category's list of other posts is empty.
      { title: "Featured guide", date: "2025-03-10", category: "News", featured: true },
      { title: "Guide two", date: "2025-03-09", category: "Guides" },
      { title: "Research one", date: "2025-03-08", category: "Research" },
      { title: "Guide three", date: "2025-03-07", category: "Guides" },
    ]);
    await page.goto(`${server.url}/resources/blog`);
    await waitForHydration(page);
    const chips = page.getByRole("navigation", { name: "Categories" });
    await expect(chips.getByRole("link")).toHaveText(["All", "Guides", "News", "Research"]);
    expect(await listedTitles(page)).toEqual(["Guide two", "Research one", "Guide three"]);

    await chips.getByRole("link", { name: "Research" }).click();
    await expect(page).toHaveURL(/\?category=Research$/);
    await expect(chips.getByRole("link", { name: "Research" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("region", { name: /articles$/ }).getByRole("article")).toHaveCount(1);
    expect(await listedTitles(page)).toEqual(["Research one"]);
    await expect(page.getByRole("region", { name: "Featured article" })).toBeVisible();
    await expectAccessible(page, "filtered list");

    // (A category no post has is no longer an empty list: it leads to the All view, tested below.)
    await page.goto(`${server.url}/resources/blog?category=News`);
    await expect(page.getByText("No articles found for the selected category.")).toBeVisible();
    await page.getByRole("link", { name: "View All Articles" }).click();
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await expectAccessible(page, "list after empty category");
  });

  test("the list paginates 12 a page with previous and next links", async ({ page }) => {
    await putPosts(server, [
      { title: "Top featured", date: "2025-03-30", featured: true },
      ...days(13).map((date, index) => ({ title: `Post ${String(13 - index).padStart(2, "0")}`, date })),
    ]);
    await page.goto(`${server.url}/resources/blog`);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    const titles = await listedTitles(page);
    expect(titles).toHaveLength(12);
    expect(titles[0]).toBe("Post 01");
    await expect(page.getByRole("link", { name: "Previous page" })).toHaveCount(0);
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/\?page=2$/);
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    expect(await listedTitles(page)).toEqual(["Post 13"]);
    await expect(page.getByRole("region", { name: "Featured article" })).toHaveCount(0);
    await page.getByRole("link", { name: "Previous page" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
  });

  test("a post without a slug is linked and found by its id", async ({ page }) => {
    const [id] = await putPosts(server, [
      { title: "No slug here", slug: null, date: "2025-03-01", content: "# Heading\n\n- a\n  - b" },
    ]);
    await page.goto(`${server.url}/resources/blog`);
    await page.getByRole("link", { name: /^Read Article/ }).click();
    await expect(page).toHaveURL(new RegExp(`/resources/blog/${id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "No slug here" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Heading" })).toBeVisible();
    // There is history now: Back returns to the list.
    await page.getByRole("link", { name: "Back to Blog" }).click();
    await expect(page).toHaveURL(/\/resources\/blog$/);
  });

  test("a missing post is a 404 with the not-found texts and Go Back", async ({ page }) => {
    const response = await page.goto(`${server.url}/resources/blog/does-not-exist`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Blog Post Not Found" })).toBeVisible();
    await expect(page.getByText("The blog post you're looking for doesn't exist or has been removed.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Go Back" })).toHaveAttribute("href", "/resources/blog");
    await expectAccessible(page, "post not found");
  });

  test("a real database fault shows the error texts while the rest of the page renders", async ({ page }) => {
    await putPosts(server, [{ title: "Before the fault", slug: "before-the-fault", date: "2025-03-01" }]);
    withDatabase(server.databasePath, (db) => db.exec("ALTER TABLE blog_posts RENAME TO blog_posts_broken"));
    await settle();
    try {
      await page.goto(`${server.url}/`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(
        page.getByRole("region", { name: "Latest Insights" }).getByText("Error loading articles. Please try again later."),
      ).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      await expectAccessible(page, "home error");

      await page.goto(`${server.url}/resources/blog?category=Security`);
      await expect(page.getByText("Error loading articles. Please try again later.")).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Email address" })).toBeVisible();
      await expectAccessible(page, "list error");

      const response = await page.goto(`${server.url}/resources/blog/before-the-fault`);
      expect(response?.status()).toBe(503);
      await expect(page.getByRole("heading", { level: 1, name: "Blog Post Not Found" })).toBeVisible();
      await expect(page.getByText("The blog post you're looking for doesn't exist or has been removed.")).toBeVisible();

      // Retry reloads the same URL; once the table is back the list shows.
      await page.goto(`${server.url}/resources/blog?category=Security`);
      await waitForHydration(page);
      withDatabase(server.databasePath, (db) => db.exec("ALTER TABLE blog_posts_broken RENAME TO blog_posts"));
      await settle();
      await page.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByRole("heading", { name: "Before the fault" })).toBeVisible();
      await expect(page).toHaveURL(/\?category=Security$/);
    } finally {
      withDatabase(server.databasePath, (db) => {
        const broken = db.prepare("SELECT name FROM sqlite_master WHERE name = 'blog_posts_broken'").get();
        if (broken) db.exec("ALTER TABLE blog_posts_broken RENAME TO blog_posts");
      });
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("home, list, filter, pagination and post all work", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("region", { name: "Latest Insights" }).getByRole("link", { name: /^Read Article/ }),
    ).toBeVisible();
    await expect(page.getByText("Loading our latest articles...")).toHaveCount(0);

    await page.goto("/resources/blog");
    const chips = page.getByRole("navigation", { name: "Categories" });
    await expect(chips.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
    const category = (await chips.getByRole("link").nth(1).textContent())!;
    await chips.getByRole("link", { name: category }).click();
    await expect(page).toHaveURL(/\?category=/);
    await expect(chips.getByRole("link", { name: category })).toHaveAttribute("aria-current", "page");
    for (const label of await page
      .getByRole("region", { name: /articles$/ })
      .getByRole("article")
      .getByText(/^[A-Z]/)
      .first()
      .allTextContents()) {
      expect(label).toBeTruthy();
    }

    await page
      .getByRole("region", { name: /articles$/ })
      .getByRole("article")
      .first()
      .getByRole("heading")
      .getByRole("link")
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Back to Blog" }).click();
    await expect(page).toHaveURL(/\/resources\/blog$/);
    await expect(page.getByRole("button", { name: "Subscribe" })).toBeVisible();
  });
});
