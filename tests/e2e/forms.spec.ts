import { SHARED_SERVER, startPrivateServer } from "./support/server";
import { expect, expectAccessible, isHydrated, test, waitForHydration } from "./support/fixtures";
import { countRows, field, holdPosts, leadRows, postChunked, renameTable, uniqueCampaign } from "./forms-support";

// The contact-sales and demo-request forms: against the built production server and its real SQLite file.

const utm = (campaign: string) => `utm_source=x&utm_medium=y&utm_campaign=${campaign}`;

test.describe("contact sales form", () => {
  // The page at rest is judged by axe at both widths in accessibility.spec.ts.
  test("has the specified fields, labels and defaults", async ({ page }) => {
    await page.goto("/contact-sales");
    await expect(page.getByRole("heading", { level: 1, name: "Let's Talk Business" })).toBeVisible();
    const form = page.getByRole("form", { name: "Get in Touch" });
    await expect(form).toBeVisible();
    await expect(form.getByLabel("Business Email")).toHaveAttribute("type", "email");
    await expect(form.getByLabel("Phone Number")).toHaveAttribute("type", "tel");
    await expect(form.getByLabel("Message")).toHaveAttribute("rows", "5");
    const product = form.getByLabel("Product Interest");
    await expect(product).toHaveValue("General");
    await expect(product.locator("option")).toHaveText(["General Inquiry", "Sentinel"]);
    // No required markers, no required fields.
    await expect(form.locator("[required]")).toHaveCount(0);
    await expect(form.getByText("*", { exact: true })).toHaveCount(0);
    await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();
  });

  test("a submission shows the pending label, the success toast, clears the form and stores the row", async ({ page }) => {
    const campaign = uniqueCampaign("contact");
    await page.goto(`/contact-sales?${utm(campaign)}`);
    await waitForHydration(page);
    const form = page.getByRole("form", { name: "Get in Touch" });
    await form.getByLabel("First Name").fill("Ada");
    await form.getByLabel("Last Name").fill("Lovelace");
    await form.getByLabel("Business Email").fill("ada@example.com");
    await form.getByLabel("Company").fill("Analytical Engines Ltd");
    await form.getByLabel("Phone Number").fill("+44 20 7946 0000");
    await form.getByLabel("Product Interest").selectOption("Sentinel");
    await form.getByLabel("Message").fill("We need governance for our AI pipelines.\nSecond line.");

    const held = await holdPosts(page, "/contact-sales");
    await form.getByRole("button", { name: "Send Message" }).click();
    const pending = form.getByRole("button", { name: "Sending..." });
    await expect(pending).toBeDisabled();
    held.release();

    const toast = page.getByRole("status").filter({ hasText: "Message Sent" });
    await expect(toast).toContainText("Thank you for contacting us. We'll get back to you soon.");
    await expect(form.getByLabel("First Name")).toHaveValue("");
    await expect(form.getByLabel("Message")).toHaveValue("");
    await expect(form.getByLabel("Product Interest")).toHaveValue("General");
    await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();

    const rows = leadRows(SHARED_SERVER.databasePath, "sales_leads", campaign);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      company: "Analytical Engines Ltd",
      phone: "+44 20 7946 0000",
      product_name: "Sentinel",
      message: "We need governance for our AI pipelines.\nSecond line.",
      source_page: "/contact-sales",
      utm_source: "x",
      utm_medium: "y",
      utm_campaign: campaign,
    });
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(String(row.created_at)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  test("what a visitor types while the page hydrates is kept and sent", async ({ page }) => {
    const campaign = uniqueCampaign("contact-early");
    await page.goto(`/contact-sales?${utm(campaign)}`);
    const form = page.getByRole("form", { name: "Get in Touch" });
    // Focusing the field is the visitor's first input: the page hydrates while they type.
    await form.getByLabel("First Name").click();
    await page.keyboard.type("Ada", { delay: 20 });
    await page.keyboard.press("Tab");
    await page.keyboard.type("Lovelace", { delay: 20 });
    await expect.poll(() => isHydrated(page)).toBe(true);
    await expect(form.getByLabel("First Name")).toHaveValue("Ada");
    await expect(form.getByLabel("Last Name")).toHaveValue("Lovelace");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Message Sent" })).toBeVisible();
    expect(leadRows(SHARED_SERVER.databasePath, "sales_leads", campaign)).toMatchObject([
      { first_name: "Ada", last_name: "Lovelace" },
    ]);
  });

  test("an empty submission is stored as entered, with product General", async ({ page }) => {
    const campaign = uniqueCampaign("contact-empty");
    await page.goto(`/contact-sales?${utm(campaign)}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Message Sent" })).toBeVisible();
    const rows = leadRows(SHARED_SERVER.databasePath, "sales_leads", campaign);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: "",
      last_name: "",
      email: "",
      company: "",
      phone: "",
      message: "",
      product_name: "General",
    });
  });

  test("a malformed email is refused in the browser and by the server", async ({ page, request }) => {
    await page.goto("/contact-sales");
    await waitForHydration(page);
    const email = field(page, "Business Email");
    await email.fill("not-an-email");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter a valid email address.")).toBeVisible();

    const campaign = uniqueCampaign("contact-bad-email");
    const response = await request.post(`/contact-sales?${utm(campaign)}`, {
      form: { first_name: "Eve", email: "not-an-email" },
      headers: { Origin: SHARED_SERVER.url },
    });
    expect(response.status()).toBe(400);
    expect(response.headers()["cache-control"]).toBe("no-store");
    expect(leadRows(SHARED_SERVER.databasePath, "sales_leads", campaign)).toHaveLength(0);
  });
});

test.describe("demo request form", () => {
  // The page at rest is judged by axe at both widths in accessibility.spec.ts.
  test("has the specified fields, options and side panel", async ({ page }) => {
    await page.goto("/request-demo");
    await expect(page.getByRole("heading", { level: 1, name: "Request a Demo" })).toBeVisible();
    for (const label of ["First Name", "Last Name", "Business Email", "Company"]) {
      await expect(field(page, label)).toHaveAttribute("required", "");
    }
    for (const label of ["Job Title", "Phone Number", "What would you like to see in the demo?"]) {
      await expect(field(page, label)).not.toHaveAttribute("required", "");
    }
    await expect(field(page, "Phone Number")).toHaveAttribute("type", "tel");
    expect(
      await field(page, "Company Size")
        .locator("option")
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(["", "1-10", "11-50", "51-200", "201-500", "500+"]);
    await expect(field(page, "Product Interest")).toHaveValue("Sentinel");
    const panel = page.getByRole("complementary", { name: "What to expect" });
    await expect(panel).toContainText("30-45 minutes");
    await expect(panel).toContainText("Personalised");
    await expect(panel).toContainText("Live");
    await expect(panel).toContainText("time zones");
    await expect(panel.getByRole("link", { name: "Contact our sales team" })).toHaveAttribute("href", "/contact-sales");
  });

  test("required fields are enforced in the browser, with errors beside the fields (axe clean)", async ({ page }) => {
    await page.goto("/request-demo");
    await waitForHydration(page);
    let posts = 0;
    page.on("request", (request) => {
      if (request.method() === "POST") posts += 1;
    });
    await page.getByRole("button", { name: "Schedule Demo" }).click();
    for (const [label, message] of [
      ["First Name", "Please enter your first name."],
      ["Last Name", "Please enter your last name."],
      ["Business Email", "Please enter your business email."],
      ["Company", "Please enter your company."],
    ] as const) {
      const input = field(page, label);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(input).toHaveAccessibleDescription(message);
    }
    expect(posts).toBe(0);
    await expectAccessible(page, "with field errors shown");
  });

  test("a submission shows the pending label, the success toast, clears the form and stores the row", async ({ page }) => {
    const campaign = uniqueCampaign("demo");
    await page.goto(`/request-demo?${utm(campaign)}`);
    await waitForHydration(page);
    await field(page, "First Name").fill("Grace");
    await field(page, "Last Name").fill("Hopper");
    await field(page, "Business Email").fill("grace@example.com");
    await field(page, "Company").fill("Navy Compilers");
    await field(page, "Job Title").fill("Rear Admiral");
    await field(page, "Phone Number").fill("555-0100");
    await field(page, "Company Size").selectOption("201-500");
    await field(page, "Product Interest").selectOption("General");
    await field(page, "What would you like to see in the demo?").fill("Audit trails for model prompts.");

    const held = await holdPosts(page, "/request-demo");
    await page.getByRole("button", { name: "Schedule Demo" }).click();
    await expect(page.getByRole("button", { name: "Scheduling..." })).toBeDisabled();
    held.release();

    await expect(page.getByRole("status").filter({ hasText: "Demo Request Submitted" })).toContainText(
      "We'll contact you soon to schedule your demo.",
    );
    await expect(field(page, "First Name")).toHaveValue("");
    await expect(field(page, "Company Size")).toHaveValue("");
    await expect(field(page, "Product Interest")).toHaveValue("Sentinel");

    const rows = leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      company: "Navy Compilers",
      job_title: "Rear Admiral",
      phone: "555-0100",
      company_size: "201-500",
      message: "Audit trails for model prompts.",
      product_name: "General",
      source_page: "/request-demo",
      utm_source: "x",
      utm_medium: "y",
      utm_campaign: campaign,
    });
  });

  test("a post that skips the browser's checks gets 400 and writes nothing", async ({ request }) => {
    const campaign = uniqueCampaign("demo-direct");
    const cases: Record<string, string>[] = [
      { first_name: "A", last_name: "B", email: "a@example.com" }, // company missing
      { first_name: "A", last_name: "B", email: "a@example.com", company: "C", company_size: "12" },
      { first_name: "A", last_name: "B", email: "a@example.com", company: "C", product_name: "Other" },
      { first_name: "A".repeat(101), last_name: "B", email: "a@example.com", company: "C" },
    ];
    for (const form of cases) {
      const response = await request.post(`/request-demo?${utm(campaign)}`, { form, headers: { Origin: SHARED_SERVER.url } });
      expect(response.status(), JSON.stringify(form)).toBe(400);
    }
    const notAForm = await request.post(`/request-demo?${utm(campaign)}`, {
      data: { first_name: "A" },
      headers: { Origin: SHARED_SERVER.url, "Content-Type": "application/json" },
    });
    expect(notAForm.status()).toBe(400);
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toHaveLength(0);
  });

  test("a filled honeypot is answered as a success and writes nothing", async ({ page, request }) => {
    await page.goto("/request-demo");
    const trap = page.locator('input[name="website"]');
    await expect(trap).toHaveAttribute("tabindex", "-1");
    await expect(trap).toHaveAttribute("autocomplete", "off");
    await expect(trap).toHaveAttribute("aria-hidden", "true");
    expect(await trap.evaluate((element) => element.getBoundingClientRect().right <= 0)).toBe(true);

    const campaign = uniqueCampaign("demo-honeypot");
    const response = await request.post(`/request-demo?${utm(campaign)}`, {
      form: { first_name: "Bot", last_name: "Bot", email: "bot@example.com", company: "Spam", website: "https://spam.example" },
      headers: { Origin: SHARED_SERVER.url },
    });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain("Demo Request Submitted");
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toHaveLength(0);
  });

  test("bodies over 64 KiB get 413, with or without Content-Length, and write nothing", async ({ request }) => {
    const before = countRows(SHARED_SERVER.databasePath, "demo_requests");
    const declared = await request.post("/request-demo", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: SHARED_SERVER.url },
      data: `first_name=A&last_name=B&email=a%40example.com&company=C&message=${"x".repeat(70 * 1024)}`,
    });
    expect(declared.status()).toBe(413);
    const chunked = await postChunked(SHARED_SERVER.url, "/request-demo", 80 * 1024);
    expect(chunked.status).toBe(413);
    expect(chunked.headers["cache-control"]).toBe("no-store");
    expect(countRows(SHARED_SERVER.databasePath, "demo_requests")).toBe(before);
  });
});

test.describe("with a private server", () => {
  test("over FORM_RATE_LIMIT a client gets 429 with a clear message, across forms", async ({ request }) => {
    const server = await startPrivateServer({ FORM_RATE_LIMIT: "2" });
    try {
      const campaign = uniqueCampaign("rate");
      const headers = { Origin: server.url };
      const demo = { first_name: "A", last_name: "B", email: "a@example.com", company: "C" };
      expect((await request.post(`${server.url}/request-demo?${utm(campaign)}`, { form: demo, headers })).status()).toBe(200);
      expect(
        (await request.post(`${server.url}/contact-sales?${utm(campaign)}`, { form: { first_name: "A" }, headers })).status(),
      ).toBe(200);
      const limited = await request.post(`${server.url}/request-demo?${utm(campaign)}`, { form: demo, headers });
      expect(limited.status()).toBe(429);
      expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
      expect(limited.headers()["cache-control"]).toBe("no-store");
      expect(await limited.text()).toContain("Please wait a minute and try again.");
      expect(leadRows(server.databasePath, "demo_requests", campaign)).toHaveLength(1);
      expect(leadRows(server.databasePath, "sales_leads", campaign)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });

  test("a database failure shows the failure toast, keeps every value and logs one JSON line", async ({ page }) => {
    const server = await startPrivateServer();
    try {
      await page.goto(`${server.url}/request-demo?${utm("broken")}`);
      await waitForHydration(page);
      const values = {
        "First Name": "Katherine",
        "Last Name": "Johnson",
        "Business Email": "katherine@example.com",
        "Job Title": "Mathematician",
        "Phone Number": "555-0199",
        "What would you like to see in the demo?": "Trajectory checks.",
      };
      for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
      await field(page, "Company").fill("NASA");
      await field(page, "Company Size").selectOption("500+");
      await field(page, "Product Interest").selectOption("General");

      renameTable(server.databasePath, "demo_requests", "demo_requests_gone");
      await page.getByRole("button", { name: "Schedule Demo" }).click();

      const toast = page.getByRole("alert").filter({ hasText: "Failed to submit demo request. Please try again." });
      await expect(toast).toContainText("Error");
      await expect(toast).toHaveAttribute("role", "alert");
      for (const [label, value] of Object.entries(values)) await expect(field(page, label)).toHaveValue(value);
      await expect(field(page, "Company")).toHaveValue("NASA");
      await expect(field(page, "Company Size")).toHaveValue("500+");
      await expect(field(page, "Product Interest")).toHaveValue("General");
      await expect(page.getByRole("button", { name: "Schedule Demo" })).toBeEnabled();

      const failures = server
        .output()
        .split("\n")
        .filter((line) => line.includes("form submission could not be stored"));
      expect(failures).toHaveLength(1);
      const entry = JSON.parse(failures[0]!) as { requestId?: string; level?: string };
      expect(entry.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(entry.level).toBe("error");
    } finally {
      await server.stop();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form submits, shows the message in the page and is cleared", async ({ page }) => {
    const campaign = uniqueCampaign("contact-nojs");
    await page.goto(`/contact-sales?${utm(campaign)}`);
    await field(page, "First Name").fill("Alan");
    await field(page, "Business Email").fill("alan@example.com");
    await page.getByRole("button", { name: "Send Message" }).click();
    const status = page.getByRole("status").filter({ hasText: "Message Sent" });
    await expect(status).toContainText("Thank you for contacting us. We'll get back to you soon.");
    await expect(field(page, "First Name")).toHaveValue("");
    await expect(page).toHaveURL(new RegExp(`utm_campaign=${campaign}`));
    expect(leadRows(SHARED_SERVER.databasePath, "sales_leads", campaign)).toMatchObject([
      { first_name: "Alan", email: "alan@example.com", source_page: "/contact-sales", utm_source: "x", utm_medium: "y" },
    ]);
  });

  test("the browser enforces required demo fields; server errors come back beside the fields with values kept", async ({
    page,
  }) => {
    const campaign = uniqueCampaign("demo-nojs");
    await page.goto(`/request-demo?${utm(campaign)}`);
    await page.getByRole("button", { name: "Schedule Demo" }).click();
    // Native constraint validation stopped the post: still the plain page, nothing stored.
    expect(await field(page, "First Name").evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);

    await field(page, "First Name").fill("Linus");
    await field(page, "Last Name").fill("T");
    await field(page, "Business Email").fill("linus@localhost"); // valid for the browser, not for the server
    await field(page, "Company").fill("Kernel");
    await field(page, "Company Size").selectOption("11-50");
    await page.getByRole("button", { name: "Schedule Demo" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Please correct the highlighted fields" })).toBeVisible();
    await expect(field(page, "Business Email")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, "Business Email")).toHaveAccessibleDescription("Please enter a valid email address.");
    await expect(field(page, "First Name")).toHaveValue("Linus");
    await expect(field(page, "Company Size")).toHaveValue("11-50");

    await field(page, "Business Email").fill("linus@example.com");
    await page.getByRole("button", { name: "Schedule Demo" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Demo Request Submitted" })).toBeVisible();
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toMatchObject([
      {
        first_name: "Linus",
        email: "linus@example.com",
        company_size: "11-50",
        product_name: "Sentinel",
        utm_campaign: campaign,
      },
    ]);
  });
});
