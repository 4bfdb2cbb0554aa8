import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { test, expect, expectAccessible } from "./support/fixtures";
import { backOfficeServerForThisFile, csrfToken, postForm, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// A privacy request end to end: an owner finds what is held about an address in two lead tables,
// downloads it as JSON, corrects a field, and erases it all after typing the address again; then
// nothing about the address is left in any table, deliveries and activity included, and the
// audit log has every step with only a hash of the address. Nobody else may do any of it.

const server = backOfficeServerForThisFile();

const ADDRESS = "pat.privacy@example.com";
const TYPED = "Pat.Privacy@Example.COM";
const LEAD_TABLES = ["sales_leads", "demo_requests", "career_applications"] as const;

type Seeded = { sales: string; demo: string; other: string };

/** Two leads of the address (the second in capitals), with deliveries and a note, and someone else's lead. */
function seed(): Seeded {
  const ids = { sales: randomUUID(), demo: randomUUID(), other: randomUUID() };
  withDatabase(server.databasePath, (db) => {
    const now = new Date().toISOString();
    db.prepare(
      "INSERT INTO sales_leads (id, created_at, first_name, last_name, email, company, message) VALUES (?, ?, 'Pat', 'Privacy', ?, 'Pat Ltd', 'Call me.')",
    ).run(ids.sales, now, ADDRESS);
    db.prepare(
      "INSERT INTO demo_requests (id, created_at, first_name, last_name, email, company) VALUES (?, ?, 'Pat', 'Privacy', ?, 'Pat Ltd')",
    ).run(ids.demo, now, ADDRESS.toUpperCase());
    db.prepare(
      "INSERT INTO demo_requests (id, created_at, first_name, last_name, email, company) VALUES (?, ?, 'Other', 'Person', 'other.person@example.com', 'Other Co')",
    ).run(ids.other, now);
    const delivery = db.prepare(
      "INSERT INTO lead_deliveries (id, lead_table, lead_id, destination, status) VALUES (?, ?, ?, ?, 'sent')",
    );
    delivery.run(randomUUID(), "sales_leads", ids.sales, "email");
    delivery.run(randomUUID(), "demo_requests", ids.demo, "email");
    delivery.run(randomUUID(), "demo_requests", ids.demo, "webhook");
    delivery.run(randomUUID(), "demo_requests", ids.other, "email");
    const note = db.prepare("INSERT INTO lead_activity (id, lead_table, lead_id, kind, body) VALUES (?, ?, ?, 'note', ?)");
    note.run(randomUUID(), "sales_leads", ids.sales, "Pat asked for pricing.");
    note.run(randomUUID(), "demo_requests", ids.other, "Someone else's note.");
  });
  return ids;
}

/** Everything the database still holds about the address or its leads' ids. */
function heldAbout(ids: string[]) {
  return withDatabase(server.databasePath, (db) => {
    const leads = LEAD_TABLES.flatMap(
      (table) => db.prepare(`SELECT id FROM ${table} WHERE lower(email) = ?`).all(ADDRESS) as { id: string }[],
    );
    const marks = ids.map(() => "?").join(", ");
    const deliveries = db.prepare(`SELECT id FROM lead_deliveries WHERE lead_id IN (${marks})`).all(...ids);
    const activity = db.prepare(`SELECT id FROM lead_activity WHERE lead_id IN (${marks})`).all(...ids);
    return { leads: leads.length, deliveries: deliveries.length, activity: activity.length };
  });
}

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ mode: "serial", timeout: 90_000 });

test("an owner looks an address up, downloads its export, corrects a field and erases everything, each step audited", async ({
  browser,
}) => {
  const seeded = seed();
  const mine = [seeded.sales, seeded.demo];
  const owner = await signInAs(browser, server, ["owner"]);
  const { page } = owner;

  await page.goto(`${server.url}/admin`);
  await page.getByRole("link", { name: "Privacy requests" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy requests" })).toBeVisible();

  // An address the browser lets through but the server does not is refused next to the field.
  // (Changing the field's type to get past the browser would race hydration, which sets it again.)
  await page.getByLabel("Email address").fill("pat@localhost");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText("Enter a valid email address, such as name@example.com.")).toBeVisible();

  await page.getByLabel("Email address").fill(TYPED);
  await page.getByRole("button", { name: "Look up" }).click();
  const held = page.getByRole("region", { name: `Held about ${ADDRESS}` });
  await expect(held).toBeVisible();
  await expect(held.getByRole("listitem", { name: `contact request ${seeded.sales}` })).toContainText(
    "1 delivery, 1 activity entry",
  );
  await expect(held.getByRole("listitem", { name: `demo request ${seeded.demo}` })).toContainText(
    "2 deliveries, 0 activity entries",
  );
  await expect(held.getByRole("listitem", { name: `demo request ${seeded.demo}` })).toContainText("PAT.PRIVACY@EXAMPLE.COM");
  await expect(held).not.toContainText("Other Co");
  await expectAccessible(page, "privacy look-up");

  // The export: one JSON document with both leads, their deliveries and activity.
  const downloading = page.waitForEvent("download");
  await held.getByRole("button", { name: "Download export" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^privacy-export-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(exported.email).toBe(ADDRESS);
  expect(
    exported.leads.map((lead: { table: string; id: string; deliveries: unknown[]; activity: unknown[] }) => [
      lead.table,
      lead.id,
      lead.deliveries.length,
      lead.activity.length,
    ]),
  ).toEqual([
    ["sales_leads", seeded.sales, 1, 1],
    ["demo_requests", seeded.demo, 2, 0],
  ]);
  expect(exported.leads[0].lead).toMatchObject({ first_name: "Pat", company: "Pat Ltd", message: "Call me.", status: "new" });
  expect(exported.leads[0].activity[0]).toMatchObject({ kind: "note", body: "Pat asked for pricing." });
  expect(JSON.stringify(exported)).not.toContain("Other Co");

  // The download left the page as it was: correct one field, with the form's own rule.
  await page.getByLabel("Lead", { exact: true }).selectOption(`demo_requests:${seeded.demo}`);
  await page.getByLabel("Field", { exact: true }).selectOption({ label: "Company" });
  await page.getByLabel("New value").fill("Privacy Corp");
  await page.getByRole("button", { name: "Correct the field" }).click();
  await expect(page.getByText("The field was corrected.")).toBeVisible();
  const company = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT company FROM demo_requests WHERE id = ?").get(seeded.demo) as { company: string }).company,
  );
  expect(company).toBe("Privacy Corp");

  // Erasing asks for the address again; a different one erases nothing.
  const erase = page.getByRole("region", { name: "Erase everything" });
  await erase.getByLabel("Type the address to confirm").fill("someone.else@example.com");
  await erase.getByRole("button", { name: "Erase everything" }).click();
  await expect(page.getByText("Type the address exactly as above to confirm; nothing was erased.")).toBeVisible();
  expect(heldAbout(mine)).toEqual({ leads: 2, deliveries: 3, activity: 2 });

  await erase.getByLabel("Type the address to confirm").fill(ADDRESS);
  await erase.getByRole("button", { name: "Erase everything" }).click();
  await expect(page.getByText(`Erased everything held about ${ADDRESS}`)).toBeVisible();
  expect(heldAbout(mine)).toEqual({ leads: 0, deliveries: 0, activity: 0 });
  // Someone else's lead, delivery and note stay.
  expect(heldAbout([seeded.other])).toEqual({ leads: 0, deliveries: 1, activity: 1 });

  // Looking the address up again finds nothing.
  await page.getByLabel("Email address").fill(ADDRESS);
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText("Nothing: no lead in any table has this address.")).toBeVisible();

  // Every step is in the audit log under the owner, with a hash of the address and never the address.
  const hash = createHash("sha256").update(ADDRESS).digest("hex");
  const entries = withDatabase(
    server.databasePath,
    (db) =>
      db
        .prepare(
          "SELECT action, target_type, target_id, details FROM audit_log WHERE actor_email = ? AND action LIKE 'privacy.%' ORDER BY created_at, rowid",
        )
        .all(owner.email) as { action: string; target_type: string; target_id: string; details: string }[],
  );
  expect(entries.map((entry) => entry.action)).toEqual([
    "privacy.looked-up",
    "privacy.exported",
    "privacy.corrected",
    "privacy.erased",
    "privacy.looked-up",
  ]);
  const erased = entries.find((entry) => entry.action === "privacy.erased")!;
  expect(erased.target_id).toBe(hash);
  expect(JSON.parse(erased.details)).toEqual({
    counts: { sales_leads: 1, demo_requests: 1, career_applications: 0, lead_deliveries: 3, lead_activity: 2 },
  });
  for (const entry of entries) expect(JSON.stringify(entry).toLowerCase()).not.toContain("pat.privacy");
  expect(JSON.parse(entries.find((entry) => entry.action === "privacy.corrected")!.details)).toEqual({
    field: "company",
    subject: hash,
  });
  await owner.context.close();
});

test("a sales person gets 403 on every privacy page and action, and changes nothing", async ({ browser }) => {
  const seeded = seed();
  const sales = await signInAs(browser, server, ["sales"]);
  const response = await sales.page.goto(`${server.url}/admin/privacy`);
  expect(response?.status()).toBe(403);
  await expect(sales.page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
  await expect(sales.page.getByRole("link", { name: "Privacy requests" })).toHaveCount(0);
  expect((await sales.page.goto(`${server.url}/admin/privacy/export`))?.status()).toBe(403);

  const csrf = await csrfToken(sales.page);
  for (const [path, form] of [
    ["/admin/privacy", { intent: "lookup", email: ADDRESS }],
    [
      "/admin/privacy",
      { intent: "correct", email: ADDRESS, lead: `sales_leads:${seeded.sales}`, field: "company", value: "Mine" },
    ],
    ["/admin/privacy", { intent: "erase", email: ADDRESS, confirm: ADDRESS }],
    ["/admin/privacy/export", { email: ADDRESS }],
  ] as const) {
    const answer = await postForm(sales.context.request, server, path, { ...form, csrf });
    expect(answer.status(), `${path} ${JSON.stringify(form)}`).toBe(403);
    expect(await answer.text()).not.toContain("Pat Ltd");
  }
  expect(heldAbout([seeded.sales, seeded.demo])).toEqual({ leads: 2, deliveries: 3, activity: 1 });
  const privacyEntries = withDatabase(
    server.databasePath,
    (db) =>
      db.prepare("SELECT count(*) AS n FROM audit_log WHERE actor_email = ? AND action LIKE 'privacy.%'").get(sales.email) as {
        n: number;
      },
  );
  expect(privacyEntries.n).toBe(0);
  await sales.context.close();
});
