import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";
import { field } from "./forms-support";

// A recruiter signed in with a passkey publishes a position: refused input is told next to its
// field; a pay range; scheduled, absent until its time, then on the careers page, in the sitemap
// and with its JobPosting; visitors apply with and without JavaScript; the applications show
// under the position and in its pipeline; closed, it answers 410 and leaves the sitemap and the
// structured data while its applications stay. A second recruiter's stale save is refused.
// Its own server: the other specs expect the seed's positions.

const server = backOfficeServerForThisFile();
test.describe.configure({ mode: "serial", timeout: 150_000 });

const TITLE = "Staff Platform Engineer";
const SLUG = "staff-platform-engineer";
const PATH = `/company/careers/${SLUG}`;

type JsonLd = Record<string, unknown>;
const jobPostingsIn = (html: string): JsonLd[] =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)]
    .map((match) => JSON.parse(match[1]!) as JsonLd)
    .filter((data) => data["@type"] === "JobPosting");

function positionId(path = PATH): string {
  return withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM content_documents WHERE type = 'position' AND path = ?").get(path) as { id: string }).id,
  );
}

test("a recruiter publishes a position with a pay range on a schedule; visitors apply; the recruiter sees them and closes it", async ({
  browser,
  request,
  page: visitor,
}) => {
  const { page, email } = await signInAs(browser, server, ["recruiter"]);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Open positions" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Open positions" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Security Researcher, AI Threats" })).toBeVisible();

  // A position without a title: refused next to the field, nothing saved.
  const before = withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM content_documents").get());
  await page.getByLabel("Team").fill("Platform");
  await page.getByLabel("Location").fill("Berlin, Germany");
  await page.getByRole("button", { name: "Create position" }).click();
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Title")).toHaveAccessibleDescription(/Title must not be empty/);
  await expect(page.getByLabel("Team")).toHaveValue("Platform");
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM content_documents").get())).toEqual(
    before,
  );

  await page.getByLabel("Title").fill(TITLE);
  await page.getByRole("button", { name: "Create position" }).click();
  await expect(page.getByText("The position was created as a draft.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByLabel("Slug")).toHaveValue(SLUG);
  await expectAccessible(page, "position editor");

  // A pay range without a currency, then with its minimum above its maximum: each refused at its field.
  await page.getByLabel("Minimum").fill("120000");
  await page.getByLabel("Maximum").fill("95000");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Currency")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Currency")).toHaveAccessibleDescription(/is required/);
  await expect(page.getByLabel("Currency")).toBeFocused();
  await page.getByLabel("Currency").fill("eur");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Minimum")).toHaveAccessibleDescription(/must not be above the maximum/);
  await expect(page.getByLabel("Minimum")).toBeFocused();
  // A closing date before it can open: refused at the closing date.
  await page.getByLabel("Minimum").fill("95000");
  await page.getByLabel("Maximum").fill("120000");
  await page.getByLabel("Closing date").fill("2020-01-01T09:00");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Closing date")).toHaveAccessibleDescription(/must not be before the position opens/);
  expect(
    withDatabase(server.databasePath, (db) =>
      db.prepare("SELECT revision FROM content_documents WHERE id = ?").get(positionId()),
    ),
  ).toEqual({
    revision: 1,
  });

  await page.getByLabel("Closing date").fill("");
  await page.getByLabel("Summary").fill("Build the platform our customers run Sentinel on, in their own data centres.");
  await page.getByLabel("Description").fill("You will run **Kubernetes** at the heart of regulated industries.");
  await page.getByLabel("What you will do").fill("Own the deployment pipeline.\nMake upgrades boring.");
  await page.getByLabel("What you bring").fill("Eight years of infrastructure work.");
  await page.getByLabel("Hiring contacts").fill("platform-lead@quorvant.com");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Saved as revision 2.")).toBeVisible();

  // Previewed as visitors will see it, without an Apply button.
  const preview = await browser.newPage();
  await preview.context().addCookies(await page.context().cookies());
  await preview.goto(`${server.url}/admin/positions/${positionId()}/preview`);
  await expect(preview.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(preview.getByText("€95,000–€120,000 a year")).toBeVisible();
  await expect(preview.getByRole("link", { name: "Apply for this position" })).toHaveCount(0);
  await preview.close();
  // And by a reviewer without an account, through a signed link.
  await page.getByRole("button", { name: "Make preview link" }).click();
  const link = await page.getByLabel("Preview link").inputValue();
  const reviewer = await browser.newPage();
  expect((await reviewer.goto(link))?.headers()["cache-control"]).toBe("no-store");
  await expect(reviewer.getByText("Preview — not published")).toBeVisible();
  await expect(reviewer.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(reviewer.getByRole("link", { name: "Apply for this position" })).toHaveCount(0);
  expect((await reviewer.goto(`${link.slice(0, -1)}${link.endsWith("0") ? "1" : "0"}`))?.status()).toBe(404);
  await reviewer.close();

  // Scheduled: nothing public until its time.
  await page.getByLabel("Publish at").fill("2030-01-01T09:00");
  await page.getByLabel("Time zone").selectOption("Europe/Berlin");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText(new RegExp(`Scheduled: visitors see this version at ${PATH} from`))).toBeVisible();
  expect((await request.get(`${server.url}${PATH}`)).status()).toBe(404);
  expect(await (await request.get(`${server.url}/company/careers`)).text()).not.toContain(TITLE);
  expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).not.toContain(PATH);
  expect(await (await request.get(`${server.url}/company/careers/atom.xml`)).text()).not.toContain(PATH);

  // Its time comes (the clock moved on: the stored time set to a second ago).
  const id = positionId();
  withDatabase(server.databasePath, (db) =>
    db.prepare("UPDATE content_documents SET publish_at = ? WHERE id = ?").run(new Date(Date.now() - 1000).toISOString(), id),
  );
  await expect(async () => {
    expect(await (await request.get(`${server.url}/company/careers`)).text()).toContain(TITLE);
    expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).toContain(`${server.url}${PATH}`);
    expect(await (await request.get(`${server.url}/company/careers/atom.xml`)).text()).toContain(`${server.url}${PATH}`);
    expect(await (await request.get(`${server.url}/company/careers/feed.json`)).text()).toContain(`${server.url}${PATH}`);
  }).toPass({ timeout: 5_000 });
  const live = await request.get(`${server.url}${PATH}`);
  expect(live.status()).toBe(200);
  const [posting] = jobPostingsIn(await live.text());
  expect(posting).toMatchObject({
    title: TITLE,
    baseSalary: { currency: "EUR", value: { minValue: 95000, maxValue: 120000, unitText: "YEAR" } },
  });

  // A visitor applies with JavaScript, from the position's page.
  await visitor.goto(`${server.url}${PATH}`);
  await waitForHydration(visitor);
  await visitor.getByRole("link", { name: "Apply for this position" }).first().click();
  const dialog = visitor.getByRole("dialog", { name: `Apply for ${TITLE}` });
  await expect(dialog).toBeVisible();
  await field(dialog, "First Name").fill("Grace");
  await field(dialog, "Last Name").fill("Hopper");
  await field(dialog, "Email").fill("grace@example.com");
  await field(dialog, "Why do you want to work at Quorvant?").fill("Compilers for everyone.");
  await dialog.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "Application Submitted" })).toBeVisible();

  // Another without JavaScript: the careers page's form, carrying the position.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`${server.url}${PATH}`);
  await plain.getByRole("link", { name: "Apply for this position" }).first().click();
  const form = plain.getByRole("dialog", { name: `Apply for ${TITLE}` });
  await field(form, "First Name").fill("Alan");
  await field(form, "Last Name").fill("Kay");
  await field(form, "Email").fill("alan@example.com");
  await field(form, "Why do you want to work at Quorvant?").fill("The best way to predict the future.");
  await form.getByRole("button", { name: "Submit Application" }).click();
  await expect(plain.getByRole("status").filter({ hasText: "Application Submitted" })).toBeVisible();
  await noScript.close();

  // Both under the position: on its page in the back office, with its pipeline, and in the desk.
  await page.reload();
  const applications = page.getByRole("region", { name: "Applications" });
  await expect(applications.getByText("2 applications for this position.")).toBeVisible();
  await expect(applications.getByRole("link", { name: "Grace Hopper" })).toBeVisible();
  await expect(applications.getByRole("link", { name: "Alan Kay" })).toBeVisible();
  const pipeline = applications.getByRole("table", { name: "Pipeline: applications in each status" });
  await expect(pipeline.getByRole("columnheader").first()).toHaveText("new");
  await expect(pipeline.getByRole("cell").first()).toHaveText("2");
  await applications.getByRole("link", { name: "Open them in the applications desk" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications\\?position=${id}`));
  await expect(page.getByRole("link", { name: /Grace Hopper/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /Alan Kay/ })).toBeVisible();

  // Closed now: 410 with the open positions, out of the sitemap and the structured data; the applications stay.
  await page.goto(`/admin/positions/${id}`);
  await page.getByRole("button", { name: "Close now" }).click();
  await expect(
    page.getByText(`Closed: ${PATH} now says the position is no longer open, and takes no applications.`),
  ).toBeVisible();
  await expect(async () => {
    const closed = await request.get(`${server.url}${PATH}`);
    expect(closed.status()).toBe(410);
    expect(jobPostingsIn(await closed.text())).toEqual([]);
    expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).not.toContain(PATH);
    expect(await (await request.get(`${server.url}/company/careers`)).text()).not.toContain(TITLE);
    expect(await (await request.get(`${server.url}/company/careers/atom.xml`)).text()).not.toContain(PATH);
    expect(await (await request.get(`${server.url}/company/careers/feed.json`)).text()).not.toContain(PATH);
  }).toPass({ timeout: 5_000 });
  await page.goto(`/admin/applications?position=${id}`);
  await expect(page.getByRole("link", { name: /Grace Hopper/ })).toBeVisible();

  // Every step in the audit log, under the recruiter's name.
  expect(
    auditActions(server, "actor_email = ? AND action LIKE 'position.%'", email).filter(
      (action, index, all) => all.indexOf(action) === index,
    ),
  ).toEqual(["position.created", "position.saved", "position.preview-link", "position.scheduled", "position.published"]);
});

test("a recruiter's save made on a stale form is refused, naming who saved; a revision is restored", async ({ browser }) => {
  const first = await signInAs(browser, server, ["recruiter"]);
  const second = await signInAs(browser, server, ["recruiter"]);
  const editor = `/admin/positions/${positionId("/company/careers/security-researcher-ai-threats")}`;
  await first.page.goto(editor);
  await second.page.goto(editor);
  await first.page.getByLabel("Summary").fill("Run the platform.");
  await first.page.getByRole("button", { name: "Save draft" }).click();
  await expect(first.page.getByText(/Saved as revision \d+\./)).toBeVisible();

  await second.page.getByLabel("Summary").fill("Build the platform.");
  await second.page.getByRole("button", { name: "Save draft" }).click();
  await expect(second.page.getByRole("alert").filter({ hasText: `Not saved: ${first.email} saved this position` })).toBeVisible();
  await expect(second.page.getByLabel("Summary")).toHaveValue("Build the platform.");

  await second.page.getByRole("link", { name: "revisions", exact: true }).click();
  await expect(second.page.getByRole("heading", { level: 1 })).toContainText("Security Researcher, AI Threats");
  await expect(second.page.getByText("Run the platform.")).toBeVisible();
  // The imported revision brought back as the draft; visitors still see the published text.
  await second.page.getByRole("button", { name: "Restore revision 1" }).click();
  await expect(second.page.getByText("Revision 1 was restored as a new revision.")).toBeVisible();
  await second.page.getByRole("link", { name: "Back to the position" }).click();
  await expect(second.page.getByLabel("Summary")).not.toHaveValue("Run the platform.");
  expect(auditActions(server, "actor_email = ?", second.email)).toContain("position.restored");
});
