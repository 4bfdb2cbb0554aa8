import { withDatabase } from "./support/database";
import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// A position's own page, /company/careers/<slug>, from the sample content's positions: what the
// job is, its JobPosting structured data, and an Apply button that opens the application form
// naming it (a modal with JavaScript, the careers page's form without). A closed position keeps
// its address: 410, the open ones listed, no structured data, out of the sitemap.

const PATH = "/company/careers/security-researcher-ai-threats";
const TITLE = "Security Researcher, AI Threats";

type JsonLd = Record<string, unknown>;
const jobPostingsIn = (html: string): JsonLd[] =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)]
    .map((match) => JSON.parse(match[1]!) as JsonLd)
    .filter((data) => data["@type"] === "JobPosting");

test("a position's page shows the job and its pay, and Apply opens the form naming it", async ({ page, request }) => {
  const response = await request.get(PATH);
  expect(response.status()).toBe(200);
  const [posting] = jobPostingsIn(await response.text());
  expect(posting).toMatchObject({ title: TITLE, jobLocationType: "TELECOMMUTE", employmentType: "FULL_TIME" });
  const id = (posting!.identifier as { value: string }).value;

  await page.goto(PATH);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText("€90,000–€120,000 a year")).toBeVisible();
  await expect(page.getByRole("heading", { name: "What you will do" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What you bring" })).toBeVisible();
  const apply = page.getByRole("link", { name: "Apply for this position" }).first();
  await expect(apply).toHaveAttribute("href", `/company/careers?apply=1&position=${id}`);
  await expectAccessible(page, "position page");

  await waitForHydration(page);
  await apply.click();
  const dialog = page.getByRole("dialog", { name: `Apply for ${TITLE}` });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${PATH}\\?apply=1$`));
  await expect(dialog.locator('input[type="hidden"][name="position"]')).toHaveValue(id);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Apply leads to the careers page's form, naming and carrying the position", async ({ page }) => {
    await page.goto(PATH);
    await page.getByRole("link", { name: "Apply for this position" }).first().click();
    await expect(page).toHaveURL(/\/company\/careers\?apply=1&position=/);
    const form = page.getByRole("dialog", { name: `Apply for ${TITLE}` });
    await expect(form).toBeVisible();
    const id = new URL(page.url()).searchParams.get("position")!;
    await expect(form.locator('input[type="hidden"][name="position"]')).toHaveValue(id);
  });
});

test("a closed position answers 410 with the open ones, without structured data, and leaves the sitemap", async ({ request }) => {
  const server = await startPrivateServer();
  try {
    expect((await request.get(`${server.url}/company/careers/no-such-position`)).status()).toBe(404);
    expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).toContain(`${PATH}</loc>`);
    // Closed by its closing date, as the clock passes it.
    // Written as an editor's tool writes (updated_at too, which the servers' watch of held positions reads).
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          "UPDATE content_documents SET published = json_set(published, '$.closesAt', ?), updated_at = ? WHERE published_path = ?",
        )
        .run(new Date(Date.now() - 1_000).toISOString(), new Date().toISOString(), PATH),
    );
    await expect.poll(async () => (await request.get(`${server.url}${PATH}`)).status(), { timeout: 10_000 }).toBe(410);
    const html = await (await request.get(`${server.url}${PATH}`)).text();
    expect(html).toContain("This position is no longer open");
    expect(html).toContain('href="/company/careers/compliance-program-manager"');
    expect(jobPostingsIn(html)).toEqual([]);
    await expect
      .poll(async () => (await request.get(`${server.url}/sitemap.xml`)).text(), { timeout: 10_000 })
      .not.toContain(`${PATH}</loc>`);
  } finally {
    await server.stop();
  }
});

test("the careers page lists the open positions by team, filtered by team, location and workplace", async ({ page }) => {
  await page.goto("/company/careers");
  const board = page.getByRole("region", { name: "Open roles" });
  for (const team of ["Engineering", "Governance", "Research", "Sales"])
    await expect(board.getByRole("heading", { level: 3, name: team })).toBeVisible();
  await expect(board.getByRole("link", { name: TITLE })).toHaveAttribute("href", PATH);
  await expect(board.getByText("4 open positions.")).toBeVisible();
  // The benefits and the application stay as they were.
  await expect(page.getByRole("heading", { name: "Benefits" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Apply Now" })).toBeVisible();

  await waitForHydration(page);
  await board.getByLabel("Team").selectOption("Research");
  await board.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/team=Research/);
  await expect(board.getByText("1 open position match these filters.")).toBeVisible();
  await expect(board.getByRole("link", { name: TITLE })).toBeVisible();
  await expect(board.getByRole("link", { name: "Enterprise Account Executive" })).toHaveCount(0);
});

test.describe("the careers page's filters without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("keep their state in the address", async ({ page }) => {
    await page.goto("/company/careers");
    const board = page.getByRole("region", { name: "Open roles" });
    await board.getByLabel("Workplace").selectOption("hybrid");
    await board.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/workplace=hybrid/);
    await expect(board.getByRole("link", { name: "Enterprise Account Executive" })).toBeVisible();
    await expect(board.getByRole("link", { name: TITLE })).toHaveCount(0);
    await expect(board.getByLabel("Workplace")).toHaveValue("hybrid");
    await page.goto("/company/careers?location=London");
    await expect(page.getByRole("region", { name: "Open roles" }).getByRole("listitem")).toHaveCount(1);
  });
});
