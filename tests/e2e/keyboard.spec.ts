import { expect, test, waitForHydration } from "./support/fixtures";
import { leadRows, uniqueCampaign } from "./forms-support";
import { SHARED_SERVER } from "./support/server";

// Keyboard alone completes every journey. Here: from the home page to a stored
// demo request without touching the mouse.
test("keyboard only: home → Request Demo → fill the required fields → submit", async ({ page }) => {
  const campaign = uniqueCampaign("keyboard");
  await page.goto(`/?utm_campaign=${campaign}`);
  await waitForHydration(page);

  const tabTo = async (isTarget: () => Promise<boolean>, what: string) => {
    for (let step = 0; step < 80; step++) {
      if (await isTarget()) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${what}`);
  };

  const requestDemo = page.getByRole("main").getByRole("link", { name: "Request Demo" });
  await tabTo(() => requestDemo.evaluate((element) => element === document.activeElement), "Request Demo");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/request-demo$/);
  await expect(page.getByRole("heading", { level: 1, name: "Request a Demo" })).toBeVisible();

  // Tracking comes from the form page's own query string; reload the form page with it.
  await page.goto(`/request-demo?utm_campaign=${campaign}`);
  await waitForHydration(page);
  const firstName = page.getByLabel(/^First Name/);
  await tabTo(() => firstName.evaluate((element) => element === document.activeElement), "First Name");
  await page.keyboard.type("Kay");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Board");
  await page.keyboard.press("Tab");
  await page.keyboard.type("kay@example.com");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Keys Ltd");
  await page.keyboard.press("Enter");

  await expect(page.getByText("Demo Request Submitted")).toBeVisible();
  await expect.poll(() => leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign).length).toBe(1);
  const [row] = leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign);
  expect(row).toMatchObject({ first_name: "Kay", last_name: "Board", email: "kay@example.com", company: "Keys Ltd" });
});
