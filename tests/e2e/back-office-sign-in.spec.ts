import { test, expect, expectAccessible } from "./support/fixtures";
import {
  acceptInvitation,
  addVirtualAuthenticator,
  auditActions,
  backOfficeServerForThisFile,
  inviteFromCommandLine,
  startBackOfficeServer,
} from "./support/back-office";
import { withDatabase } from "./support/database";

// The door of the back office: the first owner comes in with an invitation from the command line
// and a passkey, signs out and in again; invitation links work once and for 24 hours.

const server = backOfficeServerForThisFile();

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

test("the first owner gets in with the command's invitation and a passkey, signs out, and signs in again", async ({ page }) => {
  const email = `first-owner-${Date.now()}@quorvant.com`;
  const link = inviteFromCommandLine(server, email, ["owner"]);
  await addVirtualAuthenticator(page);

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to the Quorvant back office" })).toBeVisible();
  await expect(page.getByText(`This invitation is for ${email}, as Owner.`, { exact: false })).toBeVisible();
  await expectAccessible(page, "invitation page");
  await acceptInvitation(page, link);
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "People" })).toBeVisible();
  await expectAccessible(page, "overview");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await page.goto(`${server.url}/admin/users`);
  await expect(page).toHaveURL(`${server.url}/admin/sign-in?redirectTo=%2Fadmin%2Fusers`);
  await expectAccessible(page, "sign-in page");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();

  const userId = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM admin_users WHERE email = ?").get(email) as { id: string }).id,
  );
  expect(auditActions(server, "target_id = ? OR actor_id = ?", userId, userId)).toEqual([
    "invitation.accepted",
    "passkey.added",
    "sign-in",
    "sign-out",
    "sign-in",
  ]);
  expect(auditActions(server, "action = 'invitation.created' AND details LIKE ?", `%${email}%`)).toHaveLength(1);
});

test("an invitation link works once", async ({ page, browser }) => {
  const link = inviteFromCommandLine(server, `once-${Date.now()}@quorvant.com`, ["editor"]);
  await addVirtualAuthenticator(page);
  await acceptInvitation(page, link);

  const other = await browser.newContext();
  const second = await other.newPage();
  const response = await second.goto(link);
  expect(response?.status()).toBe(410);
  await expect(second.getByText("This invitation has already been used.")).toBeVisible();
  await expect(second.getByRole("button", { name: "Create a passkey" })).toHaveCount(0);
  await other.close();
});

test("an invitation link older than 24 hours is refused, and so is its passkey ceremony", async ({ page, request }) => {
  const link = inviteFromCommandLine(server, `late-${Date.now()}@quorvant.com`, ["sales"]);
  const token = link.split("/").at(-1)!;
  withDatabase(server.databasePath, (db) =>
    db
      .prepare("UPDATE admin_invitations SET expires_at = ? WHERE email LIKE 'late-%'")
      .run(new Date(Date.now() - 1000).toISOString()),
  );
  const response = await page.goto(link);
  expect(response?.status()).toBe(410);
  await expect(page.getByText("This invitation has expired. Ask an owner for a new one.")).toBeVisible();

  const ceremony = await request.post(`${server.url}/admin/passkeys/register`, {
    form: { invitation: token, step: "options" },
    headers: { Origin: server.url },
  });
  expect(ceremony.status()).toBe(410);
  expect(await ceremony.json()).toEqual({ error: "This invitation has expired. Ask an owner for a new one." });
  const unknown = await page.goto(`${server.url}/admin/invitations/${"0".repeat(64)}`);
  expect(unknown?.status()).toBe(404);
});

test("the sign-in page says when passkeys cannot work: opened by IP address, or without JavaScript", async ({ browser }) => {
  const byAddress = await browser.newPage();
  await byAddress.goto(server.url.replace("localhost", "127.0.0.1") + "/admin/sign-in");
  await expect(byAddress.getByText("Browsers do not offer passkeys on a page opened by its IP address.")).toBeVisible();
  await expect(byAddress.getByRole("link", { name: `${server.url}/admin/sign-in` })).toBeVisible();
  await byAddress.close();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto(`${server.url}/admin/sign-in`);
  await expect(page.getByText("Passkeys need JavaScript: turn it on in your browser to use one here.")).toBeVisible();
  await noScript.close();
});

test("a passkey that is not registered here does not sign anyone in", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await page.goto(`${server.url}/admin/sign-in`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  // The authenticator holds no passkey for this site: the browser's prompt fails, nothing is sent.
  await expect(page.getByRole("alert")).toHaveText("The passkey prompt was closed or timed out. Try again.");
  await expect(page).toHaveURL(`${server.url}/admin/sign-in`);
});

test("sign-in attempts over the limit are refused per client", async ({ request }) => {
  const limited = await startBackOfficeServer({ SIGN_IN_RATE_LIMIT: "3" });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await request.post(`${limited.url}/admin/passkeys/sign-in`, {
        form: { step: "options" },
        headers: { Origin: limited.url },
      });
      statuses.push(response.status());
      if (response.status() === 429)
        expect((await response.json()).error).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  } finally {
    await limited.stop();
  }
});

test("signing in again lands on the page that asked for it", async ({ page }) => {
  const link = inviteFromCommandLine(server, `back-${Date.now()}@quorvant.com`, ["owner"]);
  await addVirtualAuthenticator(page);
  await acceptInvitation(page, link);
  await page.getByRole("button", { name: "Sign out" }).click();
  // Leaving before the sign-out's answer arrives would cancel it and keep the session.
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await page.goto(`${server.url}/admin/audit?action=sign-in`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${server.url}/admin/audit?action=sign-in`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
});
