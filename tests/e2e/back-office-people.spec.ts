import { test, expect } from "./support/fixtures";
import {
  acceptInvitation,
  addVirtualAuthenticator,
  auditActions,
  backOfficeServerForThisFile,
  signInAs,
  signInWithPasskey,
} from "./support/back-office";
import { CLEARTEXT_MAIL, startSmtpReceiver, waitUntil, type SmtpReceiver } from "./support/delivery-receivers";

// An owner runs the team from /admin/users: invites someone (the link shown once, and mailed when
// the site has a mail server), changes what they may do, disables and enables them. The last owner
// cannot lock everyone out.

let smtp: SmtpReceiver;

test.beforeAll(async () => {
  smtp = await startSmtpReceiver();
});

test.afterAll(async () => {
  await smtp?.close();
});

const server = backOfficeServerForThisFile(() => ({
  SMTP_URL: smtp.url,
  ...CLEARTEXT_MAIL,
  MAIL_FROM: "Quorvant Website <website@quorvant.example>",
}));
// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

test("an owner invites someone from the page: the link is shown and mailed, and it signs them in with their role", async ({
  browser,
}) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const invitee = `new-sales-${Date.now()}@quorvant.com`;
  await owner.page.goto(`${server.url}/admin/users`);

  // A bad address and no role: clear answers, nothing created.
  await owner.page.getByLabel("Email address").fill("not an address");
  await owner.page.getByRole("button", { name: "Create invitation" }).click();
  await expect(owner.page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  await expect(owner.page.getByText("Choose at least one role.", { exact: false })).toBeVisible();
  await expect(owner.page.getByRole("region", { name: "Open invitations" }).getByText("None.")).toBeVisible();

  await owner.page.getByLabel("Email address").fill(invitee);
  await owner.page
    .getByRole("group", { name: "Roles" })
    .getByRole("checkbox", { name: /^Sales/ })
    .check();
  await owner.page.getByRole("button", { name: "Create invitation" }).click();
  await expect(owner.page.getByText(`Invitation for ${invitee} created. It was mailed to them`)).toBeVisible();
  const link = await owner.page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(new RegExp(`^${server.url}/admin/invitations/[0-9a-f]{64}$`));
  await expect(owner.page.getByRole("region", { name: "Open invitations" })).toContainText(invitee);

  const mail = await waitUntil(
    () => smtp.emails.find((email) => email.envelope.to.includes(invitee)),
    10_000,
    () => `no invitation mail to ${invitee}`,
  );
  expect(mail.mail.subject).toBe("Your invitation to the Quorvant back office");
  expect(mail.mail.text).toContain(link);
  expect(mail.mail.text).toContain(`${owner.email} invited you`);

  const context = await browser.newContext();
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await acceptInvitation(page, link);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await expect(nav.getByRole("link", { name: "People" })).toHaveCount(0);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();

  await owner.page.goto(`${server.url}/admin/users`);
  const row = owner.page.getByRole("row", { name: new RegExp(invitee) });
  await expect(row.getByRole("cell")).toHaveText([invitee, "Sales", "Active", "1", /\d/]);
  await expect(owner.page.getByRole("region", { name: "Open invitations" }).getByText("None.")).toBeVisible();
  expect(auditActions(server, "actor_id = (SELECT id FROM admin_users WHERE email = ?)", invitee)).toEqual(
    expect.arrayContaining(["invitation.accepted", "passkey.added"]),
  );
  await context.close();
  await owner.context.close();
});

test("an owner changes someone's roles and the server applies them at their next request", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const person = await signInAs(browser, server, ["editor"]);
  await person.page.goto(`${server.url}/admin/audit`);
  await expect(person.page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();

  await owner.page.goto(`${server.url}/admin/users`);
  await owner.page.getByRole("link", { name: person.email }).click();
  await expect(owner.page.getByRole("heading", { level: 1, name: person.email })).toBeVisible();
  const roles = owner.page.getByRole("group", { name: `Roles of ${person.email}` });
  await expect(roles.getByRole("checkbox", { name: /^Editor/ })).toBeChecked();
  await roles.getByRole("checkbox", { name: /^Editor/ }).uncheck();
  await roles.getByRole("checkbox", { name: /^Owner/ }).check();
  await owner.page.getByRole("button", { name: "Save roles" }).click();
  await expect(owner.page.getByText("Roles saved.")).toBeVisible();

  await person.page.goto(`${server.url}/admin/audit`);
  await expect(person.page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(person.page.getByRole("row", { name: /Roles changed/ }).first()).toContainText(owner.email);

  // Nobody can be left with no role.
  await roles.getByRole("checkbox", { name: /^Owner/ }).uncheck();
  await owner.page.getByRole("button", { name: "Save roles" }).click();
  await expect(owner.page.getByText("Choose at least one role from the list.")).toBeVisible();
  await owner.context.close();
  await person.context.close();
});

test("a disabled person cannot sign in until an owner enables them again", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const person = await signInAs(browser, server, ["legal"]);
  await owner.page.goto(`${server.url}/admin/users`);
  await owner.page.getByRole("link", { name: person.email }).click();
  await owner.page.getByRole("button", { name: `Disable ${person.email}` }).click();
  await expect(owner.page.getByText(`${person.email} is disabled; 1 session ended.`)).toBeVisible();

  await person.page.goto(`${server.url}/admin/sign-in`);
  await person.page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(person.page.getByRole("alert")).toBeVisible();
  await expect(person.page.getByRole("heading", { level: 1, name: "Overview" })).toHaveCount(0);

  await owner.page.getByRole("button", { name: `Enable ${person.email}` }).click();
  await expect(owner.page.getByText(`${person.email} can sign in again.`)).toBeVisible();
  await signInWithPasskey(person.page, server);
  expect(auditActions(server, "target_id = (SELECT id FROM admin_users WHERE email = ?)", person.email)).toEqual(
    expect.arrayContaining(["user.disabled", "user.enabled"]),
  );
  await owner.context.close();
  await person.context.close();
});

test("an owner signs someone out of every device", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const person = await signInAs(browser, server, ["recruiter"]);
  await owner.page.goto(`${server.url}/admin/users`);
  await owner.page.getByRole("link", { name: person.email }).click();
  await owner.page.getByRole("button", { name: "Sign out of every device" }).click();
  await expect(owner.page.getByText("Signed out of every device (1 session).")).toBeVisible();
  await person.page.goto(`${server.url}/admin`);
  await expect(person.page).toHaveURL(`${server.url}/admin/sign-in?redirectTo=%2Fadmin`);
  // Not disabled: they sign in again with their passkey.
  await signInWithPasskey(person.page, server);
  await owner.context.close();
  await person.context.close();
});
