import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import pg from "pg";
import { expect, isHydrated, test, waitForHydration } from "./support/fixtures";
import { signInAs, startBackOfficeServer, type BackOfficeServer } from "./support/back-office";
import { withDatabase } from "./support/database";

// Visits counted without tracking, and where a lead came from. The server counts page views per
// day, page, referring site and campaign (cached pages too, crawlers not), keeping nothing about
// the visitor; a lead carries its form page's own campaign in its utm_* columns and its visit's
// first page, referring site and campaign in its first-touch columns, from the tab's memory or,
// without JavaScript, from the form page's own address. Sales reads both on /admin.

// A visitor's browser: Chromium's headless user agent is, rightly, one the bot list knows.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

test.use({ baseURL: undefined, userAgent: CHROME });
test.describe.configure({ timeout: 90_000 });

type ViewRow = {
  path: string;
  referrer_host: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  views: number;
};

/** A fresh PostgreSQL database for one server, dropped at the end. */
async function postgresDatabase() {
  const name = `quorvant_visits_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function queryRows<T>(engine: "sqlite" | "postgres", target: string, query: string): Promise<T[]> {
  if (engine === "sqlite") return withDatabase(target, (db) => db.prepare(query).all() as T[]);
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(query)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Opens `url` until the answer came from the page cache; returns how many views that took. A copy
 * answers hits for half a second, so each view moves on once its answer has arrived rather than
 * waiting for the whole page to load (on a busy machine that alone takes longer).
 */
async function openUntilCached(page: Page, url: string): Promise<number> {
  for (let views = 1; views <= 20; views += 1) {
    const response = await page.goto(url, { waitUntil: "commit" });
    expect(response?.status()).toBe(200);
    if (response?.headers()["x-page-cache"] === "HIT") return views;
  }
  throw new Error(`${url} never came from the page cache`);
}

for (const engine of ["sqlite", "postgres"] as const) {
  test(`page views of cached and uncached pages are counted per day, page, referring site and campaign, crawlers not, on ${engine}`, async ({
    page,
    request,
  }) => {
    const database = engine === "postgres" ? await postgresDatabase() : undefined;
    const server = await startBackOfficeServer({ VISIT_FLUSH_MS: "100", ...(database ? { DATABASE_URL: database.url } : {}) });
    const target = database?.url ?? server.databasePath;
    try {
      const ownHost = new URL(server.url).host;
      const aboutViews = await openUntilCached(page, `${server.url}/company/about`);
      const landing = `${server.url}/products/sentinel?utm_source=LinkedIn&utm_medium=social&utm_campaign=q3`;
      await page.goto(landing, { referer: "https://www.linkedin.com/feed/" });
      await page.goto(landing, { referer: "https://www.linkedin.com/feed/" });
      // A client-side navigation is a view too, counted as coming from the site itself.
      await waitForHydration(page);
      await page.getByRole("main").getByRole("link", { name: "Request Demo" }).first().click();
      await expect(page.getByRole("heading", { level: 1, name: "Request a Demo" })).toBeVisible();
      // Not views: a crawler, a HEAD, a feed, a missing page.
      for (let i = 0; i < 3; i += 1) {
        expect((await request.get(`${server.url}/company/about`, { headers: { "User-Agent": CRAWLER } })).status()).toBe(200);
      }
      await request.head(`${server.url}/company/about`, { headers: { "User-Agent": CHROME } });
      await request.get(`${server.url}/rss.xml`, { headers: { "User-Agent": CHROME } });
      await request.get(`${server.url}/no-such-page`, { headers: { "User-Agent": CHROME } });

      const today = new Date().toISOString().slice(0, 10);
      const expected: ViewRow[] = [
        { path: "/company/about", referrer_host: "", utm_source: "", utm_medium: "", utm_campaign: "", views: aboutViews },
        {
          path: "/products/sentinel",
          referrer_host: "www.linkedin.com",
          utm_source: "linkedin",
          utm_medium: "social",
          utm_campaign: "q3",
          views: 2,
        },
        { path: "/request-demo", referrer_host: ownHost, utm_source: "", utm_medium: "", utm_campaign: "", views: 1 },
      ];
      await expect(async () => {
        const rows = await queryRows<ViewRow & { day: string }>(
          engine,
          target,
          "select day, path, referrer_host, utm_source, utm_medium, utm_campaign, views from page_views order by path",
        );
        expect(rows.map((row) => ({ ...row, views: Number(row.views) }))).toEqual(
          expected.map((row) => ({ day: today, ...row })),
        );
      }).toPass({ timeout: 15_000 });
      expect(aboutViews).toBeGreaterThan(1);

      // Nothing about the visitor is kept: not the address the views came from, not the browser.
      const dump = JSON.stringify(await queryRows(engine, target, "select * from page_views"));
      expect(dump).not.toContain("127.0.0.1");
      expect(dump).not.toContain("Chrome");
      const columns = await queryRows<{ name: string }>(
        engine,
        target,
        engine === "sqlite"
          ? "select name from pragma_table_info('page_views') order by cid"
          : "select column_name as name from information_schema.columns where table_name = 'page_views' order by ordinal_position",
      );
      expect(columns.map((column) => column.name)).toEqual([
        "day",
        "path",
        "referrer_host",
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_term",
        "utm_content",
        "views",
      ]);
    } finally {
      await server.stop();
      await database?.drop();
    }
  });
}

test.describe("attribution and the sales report", () => {
  let server: BackOfficeServer;
  test.beforeAll(async () => {
    server = await startBackOfficeServer({ VISIT_FLUSH_MS: "100" });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const ATTRIBUTION =
    "source_page, utm_source, utm_medium, utm_campaign, utm_term, utm_content, landing_page, referrer_host, first_utm_source, first_utm_medium, first_utm_campaign, first_utm_term, first_utm_content";
  const storedLead = (table: "demo_requests" | "sales_leads", campaign: string) =>
    withDatabase(server.databasePath, (db) =>
      db.prepare(`select ${ATTRIBUTION} from ${table} where email = ?`).get(`${campaign}@example.com`),
    );
  const demoLead = (campaign: string) => storedLead("demo_requests", campaign);

  async function contactSales(page: Page, campaign: string) {
    const form = page.getByRole("form").filter({ has: page.getByLabel("Business Email") });
    await form.getByLabel("First Name").fill("Ada");
    await form.getByLabel("Business Email").fill(`${campaign}@example.com`);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message Sent").first()).toBeVisible();
  }

  async function requestDemo(page: Page, campaign: string) {
    const form = page.getByRole("form").filter({ has: page.getByLabel("Business Email") });
    await form.getByLabel("First Name").fill("Grace");
    await form.getByLabel("Last Name").fill("Hopper");
    await form.getByLabel("Business Email").fill(`${campaign}@example.com`);
    await form.getByRole("textbox", { name: "Company" }).fill("Compilers Inc");
    await form.getByRole("button", { name: "Schedule Demo" }).click();
    await expect(page.getByText("Demo Request Submitted").first()).toBeVisible();
  }

  test("a lead carries the first page of its visit, the referring site and all five campaign parameters as its first touch", async ({
    page,
  }) => {
    const campaign = `q3-${Date.now()}`;
    await page.goto(
      `${server.url}/products/sentinel?utm_source=linkedin&utm_medium=social&utm_campaign=${campaign}&utm_term=ai+governance&utm_content=hero`,
      { referer: "https://www.linkedin.com/feed/" },
    );
    await waitForHydration(page);
    await page.getByRole("main").getByRole("link", { name: "Request Demo" }).first().click();
    await expect(page).toHaveURL(`${server.url}/request-demo`);
    await waitForHydration(page);
    await requestDemo(page, campaign);
    expect(demoLead(campaign)).toEqual({
      source_page: "/request-demo",
      utm_source: "",
      utm_medium: "",
      utm_campaign: "",
      utm_term: "",
      utm_content: "",
      landing_page: "/products/sentinel",
      referrer_host: "www.linkedin.com",
      first_utm_source: "linkedin",
      first_utm_medium: "social",
      first_utm_campaign: campaign,
      first_utm_term: "ai governance",
      first_utm_content: "hero",
    });
  });

  test("the visit's first page counts when the visitor moves on before it has hydrated", async ({ page }) => {
    const campaign = `early-${Date.now()}`;
    await page.goto(`${server.url}/company/about?utm_source=newsletter&utm_campaign=${campaign}`, {
      referer: "https://news.example.org/issue/12",
    });
    // The page's script has run (it fetched the modules) but, with no input, hydrated nothing.
    await page.waitForLoadState("networkidle");
    expect(await isHydrated(page)).toBe(false);
    await page.goto(`${server.url}/request-demo`);
    await waitForHydration(page);
    await requestDemo(page, campaign);
    expect(demoLead(campaign)).toMatchObject({
      source_page: "/request-demo",
      landing_page: "/company/about",
      referrer_host: "news.example.org",
      first_utm_source: "newsletter",
      first_utm_campaign: campaign,
    });
  });

  test("without JavaScript, the form page's own parameters are stored", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, userAgent: CHROME });
    const page = await context.newPage();
    const campaign = `nojs-${Date.now()}`;
    await page.goto(
      `${server.url}/request-demo?utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}&utm_term=x&utm_content=footer`,
    );
    await requestDemo(page, campaign);
    expect(demoLead(campaign)).toEqual({
      source_page: "/request-demo",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: campaign,
      utm_term: "x",
      utm_content: "footer",
      landing_page: "/request-demo",
      referrer_host: "",
      first_utm_source: "newsletter",
      first_utm_medium: "email",
      first_utm_campaign: campaign,
      first_utm_term: "x",
      first_utm_content: "footer",
    });
    await context.close();
  });

  test("a contact request sent from the plain form page after a newsletter link: utm_* empty, the newsletter its first touch", async ({
    page,
  }) => {
    const campaign = `plain-${Date.now()}`;
    await page.goto(`${server.url}/?utm_source=newsletter&utm_medium=email&utm_campaign=x`);
    await waitForHydration(page);
    await page.getByRole("banner").getByRole("link", { name: "Contact Sales" }).click();
    await expect(page).toHaveURL(`${server.url}/contact-sales`);
    await waitForHydration(page);
    await contactSales(page, campaign);
    expect(storedLead("sales_leads", campaign)).toEqual({
      source_page: "/contact-sales",
      utm_source: "",
      utm_medium: "",
      utm_campaign: "",
      utm_term: "",
      utm_content: "",
      landing_page: "/",
      referrer_host: "",
      first_utm_source: "newsletter",
      first_utm_medium: "email",
      first_utm_campaign: "x",
      first_utm_term: "",
      first_utm_content: "",
    });
  });

  test("without JavaScript, a contact request from a form page with its own campaign stores it in both", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, userAgent: CHROME });
    const page = await context.newPage();
    const campaign = `nojs-contact-${Date.now()}`;
    await page.goto(`${server.url}/contact-sales?utm_source=ad`);
    await contactSales(page, campaign);
    expect(storedLead("sales_leads", campaign)).toMatchObject({
      source_page: "/contact-sales",
      utm_source: "ad",
      utm_medium: "",
      landing_page: "/contact-sales",
      first_utm_source: "ad",
      first_utm_medium: "",
    });
    await context.close();
  });

  test("sales reads visits and leads per week and per campaign on the start page; a recruiter does not", async ({
    browser,
    page,
  }) => {
    const campaign = `report-${Date.now()}`;
    await page.goto(`${server.url}/request-demo?utm_source=partner&utm_campaign=${campaign}`, {
      referer: "https://partner.example/",
    });
    await waitForHydration(page);
    await requestDemo(page, campaign);

    const sales = await signInAs(browser, server, ["sales"]);
    await expect(async () => {
      await sales.page.goto(`${server.url}/admin`);
      const byCampaign = sales.page.getByRole("table", { name: /By source and campaign/ });
      const row = byCampaign.getByRole("row").filter({ has: sales.page.getByRole("rowheader", { name: "partner" }) });
      await expect(row.getByRole("cell")).toHaveText([campaign, "1", "1", "0", "100.0 %", "0.0 %"], { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(sales.page.getByRole("heading", { name: "Visits and leads" })).toBeVisible();
    await expect(sales.page.getByRole("table", { name: "Visits and leads per week" })).toBeVisible();

    await sales.page.getByLabel("From").fill("2026-01-05");
    await sales.page.getByLabel("To").fill("2026-01-18");
    await sales.page.getByRole("button", { name: "Show" }).click();
    await expect(sales.page.getByRole("table", { name: "Visits and leads per week" }).getByRole("rowheader")).toHaveText([
      "2026-01-05",
      "2026-01-12",
    ]);
    await sales.page.goto(`${server.url}/admin?from=2026-02-30&to=2026-03-01`);
    await expect(sales.page.getByRole("alert")).toHaveText(/YYYY-MM-DD/);

    const recruiter = await signInAs(browser, server, ["recruiter"]);
    await recruiter.page.goto(`${server.url}/admin`);
    await expect(recruiter.page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(recruiter.page.getByRole("heading", { name: "Visits and leads" })).toHaveCount(0);
  });
});
