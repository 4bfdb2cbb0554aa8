import { SHARED_SERVER, startPrivateServer } from "./support/server";
import { expect, expectAccessible, isHydrated, test, waitForHydration } from "./support/fixtures";
import { field, holdPosts, leadRows, renameTable, uniqueCampaign } from "./forms-support";

// The "Join Our Team" application on /company/careers: a dialog with JavaScript, the form in place without.

const utm = (campaign: string) => `utm_source=x&utm_medium=y&utm_campaign=${campaign}`;
const dialogOf = (page: import("@playwright/test").Page) => page.getByRole("dialog", { name: "Join Our Team" });

test.describe("with JavaScript", () => {
  test("Apply Now opens the modal from the keyboard; focus stays inside; Escape closes and focus returns", async ({ page }) => {
    await page.goto("/company/careers");
    await waitForHydration(page);
    const apply = page.getByRole("link", { name: "Apply Now" });
    await apply.focus();
    await page.keyboard.press("Enter");
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
    await expect(page).toHaveURL(/apply=1/);

    // Tab through more stops than the dialog has: focus never reaches the page behind it (after the
    // last control the browser may move focus to its own toolbar, which the page sees as <body>).
    let stopsInside = 0;
    for (let i = 0; i < 25; i += 1) {
      await page.keyboard.press("Tab");
      const where = await dialog.evaluate((element) =>
        element.contains(document.activeElement) ? "inside" : document.activeElement === document.body ? "browser" : "page",
      );
      expect(where).not.toBe("page");
      if (where === "inside") stopsInside += 1;
    }
    expect(stopsInside).toBeGreaterThan(12);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(apply).toBeFocused();
    await expect(page).not.toHaveURL(/apply=1/);

    // × and Cancel close it too (each time, as with Escape, once the address has dropped apply=1).
    await apply.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/apply=1/);
    await apply.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/apply=1/);
  });

  test("Apply Now right after closing opens the form again, on a slow network too; opening and closing fetch nothing", async ({
    page,
  }) => {
    // A slow network: any request for a page's data takes half a second.
    const dataRequests: string[] = [];
    await page.route("**/*.data*", async (route) => {
      dataRequests.push(route.request().url());
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.goto("/company/careers");
    await waitForHydration(page);
    const apply = page.getByRole("link", { name: "Apply Now" });
    const dialog = dialogOf(page);
    await apply.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await apply.click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/apply=1/);
    // Still open once everything has settled.
    await page.waitForTimeout(1000);
    await expect(dialog).toBeVisible();
    expect(dataRequests).toEqual([]);
  });

  test("a page loaded with ?apply=1 opens with the modal open; axe clean open and with errors", async ({ page }) => {
    await page.goto("/company/careers?apply=1");
    await waitForHydration(page);
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
    for (const label of [
      "First Name",
      "Last Name",
      "Email",
      "Phone",
      "LinkedIn Profile",
      "Years of Experience",
      "Current Position",
      "Why do you want to work at Quorvant?",
      "Biggest Achievement",
      "Work Style",
      "Resume Link",
    ]) {
      await expect(field(dialog, label)).toBeVisible();
    }
    await expect(field(dialog, "Years of Experience")).toHaveAttribute("type", "number");
    await expect(field(dialog, "Years of Experience")).toHaveAttribute("min", "0");
    expect(
      await field(dialog, "Work Style")
        .locator("option")
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(["", "collaborative", "independent", "hybrid", "leadership"]);
    await expectAccessible(page, "modal open");

    await dialog.getByRole("button", { name: "Submit Application" }).click();
    for (const label of ["First Name", "Last Name", "Email", "Why do you want to work at Quorvant?"]) {
      await expect(field(dialog, label)).toHaveAttribute("aria-invalid", "true");
    }
    await expect(dialog).toBeVisible();
    await expectAccessible(page, "modal with errors");
  });

  test("typing into the form of a page loaded with ?apply=1 carries on into the modal it becomes", async ({ page }) => {
    // A phone's way here: Apply Now tapped before the page hydrated loads this address, with the form
    // in place. The tap into a field is the first input, and the page hydrates while the visitor types.
    await page.goto("/company/careers?apply=1");
    const dialog = page.locator("dialog#apply");
    await dialog.getByLabel("First Name").click();
    await page.keyboard.type("Ada", { delay: 20 });
    await expect.poll(() => isHydrated(page)).toBe(true);
    await expect.poll(() => dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
    await page.keyboard.type(" King", { delay: 20 });
    await page.keyboard.press("Tab");
    await page.keyboard.type("Lovelace");
    await expect(dialogOf(page)).toBeVisible();
    await expect(dialogOf(page).getByLabel("First Name")).toHaveValue("Ada King");
    await expect(dialogOf(page).getByLabel("Last Name")).toHaveValue("Lovelace");
  });

  test("a submission shows Submitting..., closes the modal, toasts and stores the row", async ({ page }) => {
    const campaign = uniqueCampaign("career");
    await page.goto(`/company/careers?${utm(campaign)}`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Apply Now" }).click();
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    await field(dialog, "First Name").fill("Margaret");
    await field(dialog, "Last Name").fill("Hamilton");
    await field(dialog, "Email").fill("margaret@example.com");
    await field(dialog, "Phone").fill("+1 617 555 0101");
    await field(dialog, "LinkedIn Profile").fill("https://www.linkedin.com/in/margaret");
    await field(dialog, "Years of Experience").fill("12");
    await field(dialog, "Current Position").fill("Director of Software Engineering");
    await field(dialog, "Why do you want to work at Quorvant?").fill("Software that must not fail.");
    await field(dialog, "Biggest Achievement").fill("Apollo guidance software.");
    await field(dialog, "Work Style").selectOption("leadership");
    await field(dialog, "Resume Link").fill("https://example.com/resume.pdf");

    const held = await holdPosts(page, "/company/careers");
    await dialog.getByRole("button", { name: "Submit Application" }).click();
    await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    held.release();

    await expect(page.getByRole("status").filter({ hasText: "Application Submitted" })).toContainText(
      "Thank you for your interest! We'll review your application and get back to you.",
    );
    await expect(dialog).toBeHidden();
    const rows = leadRows(SHARED_SERVER.databasePath, "career_applications", campaign);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: "Margaret",
      last_name: "Hamilton",
      email: "margaret@example.com",
      phone: "+1 617 555 0101",
      linkedin_profile: "https://www.linkedin.com/in/margaret",
      years_experience: 12,
      current_position: "Director of Software Engineering",
      why_quorvant: "Software that must not fail.",
      biggest_achievement: "Apollo guidance software.",
      work_style: "leadership",
      resume_url: "https://example.com/resume.pdf",
      source_page: "/company/careers",
      utm_source: "x",
      utm_medium: "y",
      utm_campaign: campaign,
    });
  });

  test("years of experience empty is stored as null; a non-public resume link is refused", async ({ request }) => {
    const campaign = uniqueCampaign("career-direct");
    const base = { first_name: "A", last_name: "B", email: "a@example.com", why_quorvant: "Because." };
    const headers = { Origin: SHARED_SERVER.url };
    const invalid: Record<string, string>[] = [
      { resume_url: "file:///etc/passwd" },
      { resume_url: "http://localhost/cv" },
      { years_experience: "-1" },
      { years_experience: "2.5" },
      { work_style: "remote" },
    ];
    for (const extra of invalid) {
      const response = await request.post(`/company/careers?${utm(campaign)}`, { form: { ...base, ...extra }, headers });
      expect(response.status(), JSON.stringify(extra)).toBe(400);
    }
    expect(leadRows(SHARED_SERVER.databasePath, "career_applications", campaign)).toHaveLength(0);
    const ok = await request.post(`/company/careers?${utm(campaign)}&apply=1`, {
      form: { ...base, years_experience: "" },
      headers,
    });
    expect(ok.status()).toBe(200);
    expect(leadRows(SHARED_SERVER.databasePath, "career_applications", campaign)).toMatchObject([
      { years_experience: null, source_page: "/company/careers" },
    ]);
  });

  test("a database failure keeps the modal open with every value and shows the failure toast", async ({ page }) => {
    const server = await startPrivateServer();
    try {
      await page.goto(`${server.url}/company/careers?apply=1&${utm("broken")}`);
      await waitForHydration(page);
      const dialog = dialogOf(page);
      await expect.poll(() => dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
      await field(dialog, "First Name").fill("Barbara");
      await field(dialog, "Last Name").fill("Liskov");
      await field(dialog, "Email").fill("barbara@example.com");
      await field(dialog, "Years of Experience").fill("40");
      await field(dialog, "Work Style").selectOption("independent");
      await field(dialog, "Why do you want to work at Quorvant?").fill("Abstraction and safety.");
      renameTable(server.databasePath, "career_applications", "career_applications_gone");
      await dialog.getByRole("button", { name: "Submit Application" }).click();

      await expect(
        dialog.getByRole("alert").filter({ hasText: "Failed to submit application. Please try again." }),
      ).toContainText("Error");
      await expect(dialog).toBeVisible();
      await expect(field(dialog, "First Name")).toHaveValue("Barbara");
      await expect(field(dialog, "Years of Experience")).toHaveValue("40");
      await expect(field(dialog, "Work Style")).toHaveValue("independent");
      await expect(field(dialog, "Why do you want to work at Quorvant?")).toHaveValue("Abstraction and safety.");
    } finally {
      await server.stop();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Apply Now shows the form in place and it submits", async ({ page }) => {
    const campaign = uniqueCampaign("career-nojs");
    await page.goto(`/company/careers?${utm(campaign)}`);
    await expect(dialogOf(page)).toBeHidden();
    await page.getByRole("link", { name: "Apply Now" }).click();
    await expect(page).toHaveURL(/apply=1/);
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    await field(dialog, "First Name").fill("Dennis");
    await field(dialog, "Last Name").fill("Ritchie");
    await field(dialog, "Email").fill("dennis@example.com");
    await field(dialog, "Why do you want to work at Quorvant?").fill("Simplicity.");
    await dialog.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Application Submitted" })).toBeVisible();
    await expect(dialogOf(page)).toBeHidden();
    expect(leadRows(SHARED_SERVER.databasePath, "career_applications", campaign)).toMatchObject([
      {
        first_name: "Dennis",
        why_quorvant: "Simplicity.",
        years_experience: null,
        source_page: "/company/careers",
        utm_source: "x",
      },
    ]);
  });
});
