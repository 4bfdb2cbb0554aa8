import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { test, expect, expectAccessible } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// The lead desks as their people use them: a sales person finds a demo request by email, works it
// (status, note, owner, reply, a failed delivery sent again), exports the filtered view as CSV a
// spreadsheet opens safely, and every step is in the audit log. A recruiter works applications
// only; neither desk opens for the other role.

const server = backOfficeServerForThisFile();
let adaId = "";
let alanId = "";
const HOSTILE_COMPANY = '=HYPERLINK("http://x","y")';

test.beforeAll(() => {
  withDatabase(server.databasePath, (db) => {
    const insert = (table: string, values: Record<string, string>) => {
      const columns = Object.keys(values);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
        ...Object.values(values),
      );
    };
    // More than a page of older requests, so the view has to be found, not stumbled on.
    for (let index = 0; index < 60; index += 1) {
      insert("demo_requests", {
        id: randomUUID(),
        created_at: new Date(Date.UTC(2026, 0, 1, 9, 0, index)).toISOString(),
        first_name: `Filler${index}`,
        last_name: "Lead",
        email: `filler-${index}@example.com`,
        company: "Filler Ltd",
        source_page: "/request-demo",
      });
    }
    adaId = randomUUID();
    insert("demo_requests", {
      id: adaId,
      created_at: new Date().toISOString(),
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada.lovelace@engines.example",
      company: HOSTILE_COMPANY,
      message: "We need model governance by spring.",
      source_page: "/request-demo",
      landing_page: "/products/sentinel",
      referrer_host: "news.example",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "spring-launch",
      first_utm_source: "newsletter",
      first_utm_medium: "email",
      first_utm_campaign: "spring-launch",
    });
    // Its webhook delivery was given up on.
    insert("lead_deliveries", {
      id: randomUUID(),
      lead_table: "demo_requests",
      lead_id: adaId,
      destination: "webhook",
      status: "dead",
      attempts: "40",
      next_attempt_at: new Date().toISOString(),
      last_error: "HTTP 503 from the receiver",
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    alanId = randomUUID();
    insert("career_applications", {
      id: alanId,
      created_at: new Date().toISOString(),
      first_name: "Alan",
      last_name: "Turing",
      email: "alan@bletchley.example",
      why_quorvant: "Machines that can be trusted.",
      source_page: "/company/careers",
    });
  });
});

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

test("a sales person finds a demo request, works it, exports the view, and each step is audited", async ({ browser }) => {
  const colleague = await signInAs(browser, server, ["sales"]);
  const seller = await signInAs(browser, server, ["sales"]);
  const { page } = seller;

  await page.goto(`${server.url}/admin`);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Leads" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
  await page.getByRole("navigation", { name: "Inboxes" }).getByRole("link", { name: "Demo requests" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Demo requests" })).toBeVisible();

  // Search by email, in another case than it was typed.
  await page.getByLabel("Name, email or company starts with").fill("ADA.Lovelace@");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=ADA.Lovelace%40/);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("ada.lovelace@engines.example");
  await expect(rows.nth(1)).toContainText("spring-launch");
  await expectAccessible(page, "on the inbox");
  await page.getByRole("link", { name: "Ada Lovelace" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  await expect(page.getByText(HOSTILE_COMPANY)).toBeVisible();
  await expect(page.getByText("We need model governance by spring.")).toBeVisible();
  await expect(page.getByText("news.example")).toBeVisible();
  // Both campaigns: the form page's own address, and the visit's first touch.
  await expect(page.getByRole("region", { name: "Campaign on the form page" })).toContainText("/request-demo");
  await expect(page.getByRole("region", { name: "First visit" })).toContainText("/products/sentinel");
  await expect(page.getByText("HTTP 503 from the receiver")).toBeVisible();
  await expectAccessible(page, "on a lead's page");

  await page.getByLabel("Status").selectOption({ label: "Qualified" });
  await page.getByRole("button", { name: "Change status" }).click();
  await expect(page.getByText("Status changed from new to qualified.")).toBeVisible();

  await page.getByLabel("Internal note").fill("Asked for pricing for 40 models.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Note added.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Activity" }).getByText("Asked for pricing for 40 models.")).toBeVisible();

  await page.getByLabel("Owner").selectOption({ label: colleague.email });
  await page.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByText(`Assigned to ${colleague.email}.`)).toBeVisible();

  await page.getByLabel("Reply sent (what you wrote them)").fill("Sent the pricing sheet.");
  await page.getByRole("button", { name: "Record reply" }).click();
  await expect(page.getByText("Reply recorded.")).toBeVisible();

  await page.getByRole("button", { name: "Deliver again by webhook" }).click();
  await expect(page.getByText("The webhook delivery is queued again.")).toBeVisible();

  const activity = page.getByRole("region", { name: "Activity" }).getByRole("listitem");
  await expect(activity).toHaveCount(5);
  await expect(activity.first()).toContainText("Delivery by webhook queued again");
  await expect(activity.nth(2)).toContainText(`Owner: nobody → ${colleague.email}`);
  await expect(activity.last()).toContainText("Status: New → Qualified");

  // The filtered view (campaign and status), exported.
  await page.goto(`${server.url}/admin/leads?form=request-demo&campaign=spring-launch&status=qualified`);
  await expect(rows).toHaveCount(2);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export as CSV" }).click();
  const csv = readFileSync((await (await downloading).path())!, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "id,created_at,first_name,last_name,email,company,status,owner,source_page,utm_campaign,first_utm_campaign",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${adaId},`);
  expect(lines[1]).toContain(",ada.lovelace@engines.example,");
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
  expect(lines[1]).toContain(`,qualified,${colleague.email},/request-demo,spring-launch`);
  expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);

  const actions = auditActions(server, "actor_email = ?", seller.email);
  for (const action of ["lead.view", "lead.status", "lead.note", "lead.owner", "lead.reply", "lead.redeliver", "lead.export"]) {
    expect(actions, action).toContain(action);
  }
  const exported = withDatabase(
    server.databasePath,
    (db) =>
      db.prepare("SELECT details FROM audit_log WHERE action = 'lead.export' AND actor_email = ?").get(seller.email) as {
        details: string;
      },
  );
  expect(JSON.parse(exported.details)).toEqual({
    form: "request-demo",
    filters: { status: "qualified", campaign: "spring-launch" },
  });
  // Nothing the visitor sent is in the log.
  const details = withDatabase(server.databasePath, (db) =>
    (db.prepare("SELECT details FROM audit_log WHERE action LIKE 'lead.%'").all() as { details: string }[]).map(
      (row) => row.details,
    ),
  );
  expect(details.join("\n")).not.toMatch(/Lovelace|pricing|HYPERLINK/);
  await colleague.context.close();
  await seller.context.close();
});

test("an inbox reads a hostile query string as far as it makes sense, and says what it ignored", async ({ browser }) => {
  const seller = await signInAs(browser, server, ["sales"]);
  const { page } = seller;
  const response = await page.goto(
    `${server.url}/admin/leads?form=request-demo&status=drop%20table&owner=1%20or%201=1&from=2026-02-30&after=nonsense&q=Filler1`,
  );
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Choose a status of demo requests.")).toBeVisible();
  await expect(page.getByText("Choose an owner from the list.")).toBeVisible();
  await expect(page.getByText("The first day must be a date written YYYY-MM-DD.")).toBeVisible();
  await expect(page.getByText("That page link was not understood: showing the newest leads.")).toBeVisible();
  // What was understood still applies: Filler1 and Filler10…Filler19.
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(12);

  // Older and Newer walk the pages of a view without gaps or repeats.
  await page.goto(`${server.url}/admin/leads?form=request-demo&q=filler`);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(51);
  const first = await rows.allInnerTexts();
  await page.getByRole("link", { name: "Older" }).click();
  await expect(rows).toHaveCount(11);
  const second = await rows.allInnerTexts();
  expect(new Set([...first.slice(1), ...second.slice(1)]).size).toBe(60);
  await page.getByRole("link", { name: "Newer" }).click();
  await expect(rows).toHaveCount(51);
  expect(await rows.allInnerTexts()).toEqual(first);

  // Without JavaScript: the filters are a GET form, a note a plain POST form.
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await seller.context.storageState() });
  const noScript = await plain.newPage();
  await noScript.goto(`${server.url}/admin/leads?form=request-demo`);
  await noScript.getByLabel("Name, email or company starts with").fill("Filler59");
  await noScript.getByRole("button", { name: "Filter" }).click();
  await noScript.getByRole("link", { name: "Filler59 Lead" }).click();
  await noScript.getByLabel("Internal note").fill("Written without JavaScript.");
  await noScript.getByRole("button", { name: "Add note" }).click();
  await expect(noScript.getByText("Note added.")).toBeVisible();
  await expect(noScript.getByRole("region", { name: "Activity" })).toContainText("Written without JavaScript.");
  await plain.close();
  // A blank note (the browser's `required` aside) is refused by the server and changes nothing.
  const blank = await postForm(seller.context.request, server, `/admin/leads/request-demo/${adaId}`, {
    csrf: await csrfToken(seller.page),
    intent: "note",
    body: "   ",
  });
  expect(blank.status()).toBe(400);

  // A download cannot show a message beside a field: a filter it does not understand is refused.
  const refused = await seller.context.request.get(`${server.url}/admin/leads/export?form=request-demo&from=yesterday`);
  expect(refused.status()).toBe(400);
  await seller.context.close();
});

test("a recruiter works applications only, and sales people never see them", async ({ browser }) => {
  const recruiter = await signInAs(browser, server, ["recruiter"]);
  const { page } = recruiter;
  await page.goto(`${server.url}/admin`);
  const menu = page.getByRole("navigation", { name: "Back office" });
  await expect(menu.getByRole("link", { name: "Applications" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Leads" })).toHaveCount(0);
  await menu.getByRole("link", { name: "Applications" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Applications" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Company" })).toHaveCount(0);
  await page.getByRole("link", { name: "Alan Turing" }).click();
  await expect(page).toHaveURL(`${server.url}/admin/applications/${alanId}`);
  await page.getByLabel("Status").selectOption({ label: "Interview" });
  await page.getByRole("button", { name: "Change status" }).click();
  await expect(page.getByText("Status changed from new to interview.")).toBeVisible();
  expect(auditActions(server, "actor_email = ?", recruiter.email)).toContain("lead.status");

  for (const path of ["/admin/leads", "/admin/leads?form=contact-sales", `/admin/leads/request-demo/${adaId}`]) {
    const response = await page.goto(`${server.url}${path}`);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  }
  expect((await recruiter.context.request.get(`${server.url}/admin/leads/export?form=request-demo`)).status()).toBe(403);
  await recruiter.context.close();

  const seller = await signInAs(browser, server, ["sales"]);
  for (const path of ["/admin/applications", `/admin/applications/${alanId}`]) {
    const response = await seller.page.goto(`${server.url}${path}`);
    expect(response?.status(), path).toBe(403);
  }
  expect((await seller.context.request.get(`${server.url}/admin/applications/export`)).status()).toBe(403);
  // Nor through the leads' own addresses.
  expect((await seller.page.goto(`${server.url}/admin/leads/career-application/${alanId}`))?.status()).toBe(404);
  await seller.context.close();
});

test("a link from another site neither exports nor records a look at a lead in the person's name", async ({ browser }) => {
  const seller = await signInAs(browser, server, ["sales"]);
  const { page } = seller;
  const audited = () => auditActions(server, "actor_email = ? AND action IN ('lead.export', 'lead.view')", seller.email);
  const exportPath = "/admin/leads/export?form=request-demo&q=ada.lovelace%40engines.example";
  const leadPath = `/admin/leads/request-demo/${adaId}`;
  // A page on another site with links into the back office, as a mail or a forum post could hold.
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Elsewhere</title><a href="${server.url}${exportPath}">report</a> <a href="${server.url}${leadPath}">lead</a>`,
    }),
  );

  // The export: the browser lands on the inbox with that view; nothing is downloaded or audited.
  let downloads = 0;
  page.on("download", () => (downloads += 1));
  await page.goto("https://elsewhere.example/");
  await page.getByRole("link", { name: "report" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Demo requests" })).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
  // And a request that says where it comes from, without a browser.
  const direct = await seller.context.request.get(`${server.url}${exportPath}`, {
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(direct.status()).toBe(303);
  expect(direct.headers()["content-type"] ?? "").not.toContain("text/csv");
  expect(downloads).toBe(0);
  expect(audited()).toEqual([]);

  // The lead's page asks to be opened from here, showing nothing of the lead until then.
  await page.goto("https://elsewhere.example/");
  await page.getByRole("link", { name: "lead" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Demo request" })).toBeVisible();
  await expect(page.getByText("Lovelace")).toHaveCount(0);
  await expectAccessible(page, "on a lead's page reached from another site");
  expect(audited()).toEqual([]);
  await page.getByRole("link", { name: "Open this demo request" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  expect(audited()).toEqual(["lead.view"]);

  // Opened from another program (a mail client, a bookmark), it shows the lead at once.
  await page.goto(`${server.url}${leadPath}`);
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  expect(audited()).toEqual(["lead.view", "lead.view"]);
  await seller.context.close();
});
