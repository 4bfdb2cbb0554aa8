import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// An owner reads the audit log newest first, narrows it by person, action and days, pages through
// it, and takes the same view away as CSV that a spreadsheet opens safely. The export is itself
// an entry of the log.

const server = backOfficeServerForThisFile();

test.beforeAll(() => {
  // Sixty refused sign-ins on one January day, one of them by someone who typed a formula as
  // their address: more than a page, and something a spreadsheet must not run.
  withDatabase(server.databasePath, (db) => {
    const insert = db.prepare(
      "INSERT INTO audit_log (id, created_at, actor_email, action, details, ip) VALUES (?, ?, ?, 'sign-in.failed', ?, '203.0.113.9')",
    );
    for (let index = 0; index < 60; index += 1) {
      const email = index === 59 ? '=HYPERLINK("http://evil.example","Open")' : `guess-${index}@example.com`;
      const at = new Date(Date.UTC(2026, 0, 15, 9, 0, index)).toISOString();
      insert.run(randomUUID(), at, email, JSON.stringify({ reason: "unknown passkey" }));
    }
  });
});

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

test("an owner filters the log by action and days and pages through it without gaps or repeats", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const { page } = owner;
  await page.goto(`${server.url}/admin/audit`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  // Newest first: the owner's own sign-in tops the unfiltered log.
  await expect(page.getByRole("row").nth(1)).toContainText(owner.email);

  await page.getByLabel("Action").selectOption({ label: "Sign-in refused" });
  await page.getByLabel("From (UTC)").fill("2026-01-15");
  await page.getByLabel("To (UTC)").fill("2026-01-15");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=sign-in.failed/);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(51);
  const firstPage = await rows.allInnerTexts();
  expect(firstPage[1]).toContain("HYPERLINK");

  await page.getByRole("link", { name: "Older entries" }).click();
  await expect(rows).toHaveCount(11);
  const secondPage = await rows.allInnerTexts();
  await expect(page.getByRole("link", { name: "Older entries" })).toHaveCount(0);
  const emails = [...firstPage.slice(1), ...secondPage.slice(1)].map((row) => row.split("\t")[1]);
  expect(new Set(emails).size).toBe(60);
  expect(emails.at(-1)).toBe("guess-0@example.com");

  // The next day has none of them; one person's filter shows only what they did.
  await page.goto(`${server.url}/admin/audit?action=sign-in.failed&from=2026-01-16`);
  await expect(page.getByText("No entries match.")).toBeVisible();
  await page.goto(`${server.url}/admin/audit`);
  await page.getByLabel("Person").selectOption({ label: owner.email });
  await page.getByRole("button", { name: "Filter" }).click();
  // The filtered page has arrived when its export link carries the filter.
  await expect(page.getByRole("link", { name: "Export as CSV" })).toHaveAttribute("href", /person=/);
  const mine = await rows.allInnerTexts();
  expect(mine.length).toBeGreaterThan(1);
  for (const row of mine.slice(1)) expect(row).toContain(owner.email);
  await owner.context.close();
});

test("a filter that is not one of the page's own answers 400 and says which", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  for (const [query, message] of <[string, string][]>[
    ["action=drop table", 'The filter "action" must be one of the audit log'],
    ["from=2026-02-30", 'The filter "from" must be a date written YYYY-MM-DD'],
    ["person=1 or 1=1", `The filter "person" must be a person's id`],
  ]) {
    const response = await owner.page.goto(`${server.url}/admin/audit?${query}`);
    expect(response?.status(), query).toBe(400);
    await expect(owner.page.getByText(message)).toBeVisible();
  }
  await owner.context.close();
});

test("the CSV export carries the filtered view, neutralises formulas, and is itself audited", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  await owner.page.goto(`${server.url}/admin/audit?action=sign-in.failed&from=2026-01-15&to=2026-01-15`);
  const downloading = owner.page.waitForEvent("download");
  await owner.page.getByRole("link", { name: "Export as CSV" }).click();
  const download = await downloading;
  const csv = readFileSync((await download.path())!, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("created_at,actor_email,actor_id,action,target_type,target_id,details,ip");
  expect(lines).toHaveLength(61);
  expect(lines.slice(1).every((line) => line.includes(",sign-in.failed,"))).toBe(true);
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""Open"")"`);
  expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);

  const exported = withDatabase(
    server.databasePath,
    (db) =>
      db.prepare("SELECT actor_email, details FROM audit_log WHERE action = 'audit.exported'").all() as {
        actor_email: string;
        details: string;
      }[],
  );
  expect(exported).toEqual([
    {
      actor_email: owner.email,
      details: JSON.stringify({ filters: { action: "sign-in.failed", from: "2026-01-15", to: "2026-01-15" } }),
    },
  ]);
  expect(auditActions(server, "actor_email = ?", owner.email)).toContain("audit.exported");
  await owner.context.close();
});

test("a link from another site exports nothing from the log and records nothing in the owner's name", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const answer = await owner.context.request.get(`${server.url}/admin/audit/export?action=sign-in.failed`, {
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  expect(answer.headers()["location"]).toBe("/admin/audit?action=sign-in.failed");
  expect(answer.headers()["content-type"] ?? "").not.toContain("text/csv");
  expect(auditActions(server, "actor_email = ?", owner.email)).not.toContain("audit.exported");
  await owner.context.close();
});
