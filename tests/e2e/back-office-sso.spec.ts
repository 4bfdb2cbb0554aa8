import { test, expect } from "./support/fixtures";
import type { Page } from "@playwright/test";
import {
  auditActions,
  backOfficeServerForThisFile,
  inviteFromCommandLine,
  signInAs,
  startBackOfficeServer,
} from "./support/back-office";
import { withDatabase } from "./support/database";
import {
  signInAtProvider,
  startIdentityProvider,
  withoutProviderWebFonts,
  type IdentityProvider,
  type ProviderPerson,
} from "./support/identity-provider";

// Single sign-on against a real OpenID Connect provider on loopback (authorization code with
// PKCE). The company lets people of its own domain in by their groups; anyone else only with an
// invitation; always with an email the provider verified. An account belongs to the provider's
// subject it first signed in as. Every refusal says why on the sign-in page and is audited.

let provider: IdentityProvider;

test.beforeAll(async () => {
  provider = await startIdentityProvider();
});

test.afterAll(async () => {
  await provider?.close();
});

const server = backOfficeServerForThisFile(() => ({
  ...provider.settings,
  OIDC_ALLOWED_DOMAINS: "quorvant.com",
  OIDC_GROUP_ROLES: "website-editors=editor,website-owners=owner,sales-team=sales",
}));

test.beforeAll(() => {
  provider.registerSite(server.url);
});

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

let logins = 0;
/** Someone new at the provider; returns their login name. */
function personAtProvider(email: string, groups?: string[], emailVerified: ProviderPerson["emailVerified"] = true): string {
  logins += 1;
  const login = `person-${logins}`;
  provider.people.set(login, { email, groups, emailVerified });
  return login;
}

async function signInWithSso(page: Page, login: string, from = "/admin") {
  // A fresh sign-in at the provider each time (its own session would otherwise skip the form).
  await page.context().clearCookies({ domain: "127.0.0.1" });
  await withoutProviderWebFonts(page.context());
  await page.goto(`${server.url}${from}`);
  await page.getByRole("button", { name: "Sign in with Quorvant SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await signInAtProvider(page, login);
}

const problem = (page: Page, text: string) => expect(page.getByRole("alert").filter({ hasText: text })).toBeVisible();

test("someone of the company's domain gets in with the roles their groups give, read again at every sign-in", async ({
  page,
}) => {
  const email = `editor-${Date.now()}@quorvant.com`;
  const login = personAtProvider(email, ["website-editors", "unrelated"]);
  await signInWithSso(page, login, "/admin/account");
  await expect(page).toHaveURL(`${server.url}/admin/account`);
  await expect(page.getByText(email).first()).toBeVisible();
  expect(auditActions(server, "actor_email = ? OR details LIKE ?", email, `%${email}%`)).toEqual([
    "user.created",
    "user.sso-linked",
    "sign-in",
  ]);

  // Their groups change at the provider: the next sign-in brings the new roles.
  provider.people.get(login)!.groups = ["sales-team"];
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await signInWithSso(page, login);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const roles = withDatabase(server.databasePath, (db) =>
    db
      .prepare("SELECT role FROM admin_user_roles WHERE user_id = (SELECT id FROM admin_users WHERE email = ?)")
      .all(email)
      .map((row) => (row as { role: string }).role),
  );
  expect(roles).toEqual(["sales"]);

  // No group gives access any more: refused, and told why.
  provider.people.get(login)!.groups = ["unrelated"];
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await signInWithSso(page, login);
  await problem(page, "None of your groups at the identity provider gives access any more.");
});

test("single sign-on works without JavaScript: the form's redirect to the provider is allowed by the page's policy", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const login = personAtProvider(`no-script-${Date.now()}@quorvant.com`, ["website-owners"]);
  const response = await page.goto(`${server.url}/admin/sign-in`);
  expect(response?.headers()["content-security-policy"]).toContain(`form-action 'self' ${provider.issuer};`);
  await signInWithSso(page, login);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await context.close();
});

test("people outside the allowed domains, or in no mapped group, are refused unless invited", async ({ browser }) => {
  const outsider = `consultant-${Date.now()}@partner.example`;
  const cases: [string, string][] = [
    [personAtProvider(outsider, ["website-owners"]), "You are not allowed in the back office. Ask an owner for an invitation."],
    [personAtProvider(`nogroup-${Date.now()}@quorvant.com`, ["unrelated"]), "You are not allowed in the back office."],
    [personAtProvider(`unverified-${Date.now()}@quorvant.com`, ["website-owners"], false), "has not verified your email address"],
  ];
  for (const [login, message] of cases) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithSso(page, login);
    await problem(page, message);
    await expect(page).toHaveURL(/\/admin\/sign-in\?problem=/);
    await context.close();
  }
  expect(auditActions(server, "details LIKE ?", `%${outsider}%`)).toEqual(["sign-in.failed"]);

  // With an invitation, the same outsider gets in with the invited role.
  inviteFromCommandLine(server, outsider, ["legal"]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithSso(page, cases[0]![0]);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
  await context.close();
});

test("a disabled person cannot come back through the identity provider", async ({ page }) => {
  const email = `owner-${Date.now()}@quorvant.com`;
  const login = personAtProvider(email, ["website-owners"]);
  await signInWithSso(page, login);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  withDatabase(server.databasePath, (db) =>
    db.prepare("UPDATE admin_users SET disabled_at = ? WHERE email = ?").run(new Date().toISOString(), email),
  );
  await page.context().clearCookies();
  await signInWithSso(page, login);
  await problem(page, "Your access to the back office has been disabled.");
});

test("a callback that this browser did not start signs nobody in, and a provider that is down is said so", async ({
  page,
  request,
}) => {
  const forged = await request.get(`${server.url}/admin/sign-in/sso/callback?code=stolen&state=guessed`, { maxRedirects: 0 });
  expect(forged.status()).toBe(302);
  expect(forged.headers()["location"]).toBe("/admin/sign-in?problem=sso-expired");

  // A provider that cannot be reached: a second site pointing at a closed port.
  const unreachable = await startBackOfficeServer({ ...provider.settings, OIDC_ISSUER: "http://127.0.0.1:9" });
  try {
    await page.goto(`${unreachable.url}/admin/sign-in`);
    await page.getByRole("button", { name: "Sign in with Quorvant SSO" }).click();
    await problem(page, "The identity provider cannot be reached right now. Try again in a moment.");
    // Leave the page before its server stops, or its background fetches fail in the console.
    await page.goto("about:blank");
  } finally {
    await unreachable.stop();
  }
});

/** A single sign-on from a browser signed in as nobody, at the site or at the provider. */
async function signInAfresh(page: Page, login: string, from?: string) {
  await page.context().clearCookies();
  await signInWithSso(page, login, from);
}

/** Accounts with this address (the site's own database). */
const accountsWith = (email: string) =>
  withDatabase(server.databasePath, (db) => db.prepare("SELECT id FROM admin_users WHERE email = ?").all(email)).length;

test('an email the provider has not verified lets nobody in, whether the claim is missing or the string "false"', async ({
  browser,
}) => {
  const owner = await signInAs(browser, server, ["owner"]);
  await owner.context.close();
  const newcomer = `unverified-${Date.now()}@quorvant.com`;
  for (const [email, verified] of [
    [owner.email, "omitted"],
    [owner.email, "false"],
    [newcomer, "omitted"],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithSso(page, personAtProvider(email, ["website-owners"], verified));
    await expect(page).toHaveURL(/\/admin\/sign-in\?problem=/);
    await problem(page, "Your identity provider has not verified your email address.");
    await context.close();
  }
  expect(accountsWith(newcomer)).toBe(0);
  expect(auditActions(server, "action = 'sign-in.failed' AND details LIKE ?", `%"email":"${owner.email}"%`)).toHaveLength(2);
  const ownerSsoSessions = withDatabase(server.databasePath, (db) =>
    db
      .prepare(
        "SELECT s.id FROM admin_sessions s JOIN admin_users u ON u.id = s.user_id WHERE u.email = ? AND s.auth_method = 'sso'",
      )
      .all(owner.email),
  );
  expect(ownerSsoSessions).toEqual([]);
});

test("an account belongs to the subject it first signed in as: another subject with the owner's address is refused", async ({
  browser,
}) => {
  const owner = await signInAs(browser, server, ["owner"]);
  await owner.context.close();
  const context = await browser.newContext();
  const page = await context.newPage();

  // The owner's first single sign-on links their account to their subject at the provider.
  const ownerLogin = personAtProvider(owner.email);
  await signInAfresh(page, ownerLogin);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  // Someone else at the provider now carries the owner's (verified) address: not let in as the owner.
  const intruder = personAtProvider(owner.email, ["website-owners"]);
  await signInAfresh(page, intruder);
  await expect(page).toHaveURL(/\/admin\/sign-in\?problem=/);
  await problem(page, "Your email address belongs to an account that signs in as someone else at your identity provider.");
  const refusals = withDatabase(server.databasePath, (db) =>
    db
      .prepare("SELECT details FROM audit_log WHERE action = 'sign-in.failed' AND details LIKE ?")
      .all(`%"subject":"${intruder}"%`)
      .map((row) => JSON.parse((row as { details: string }).details) as { reason: string; email: string }),
  );
  expect(refusals).toEqual([expect.objectContaining({ reason: "linked-elsewhere", email: owner.email })]);

  // The owner themself still gets in through their own subject.
  await signInAfresh(page, ownerLogin, "/admin/users");
  await expect(page).toHaveURL(`${server.url}/admin/users`);
  await context.close();
});

test("an address changed at the provider keeps the account it signed in to, even when it becomes another person's", async ({
  page,
}) => {
  const owner = `group-owner-${Date.now()}@quorvant.com`;
  await signInAfresh(page, personAtProvider(owner, ["website-owners"]));
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const editor = `changing-${Date.now()}@quorvant.com`;
  const editorLogin = personAtProvider(editor, ["website-editors"]);
  await signInAfresh(page, editorLogin);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  for (const changed of [`renamed-${editor}`, owner]) {
    provider.people.get(editorLogin)!.email = changed;
    await signInAfresh(page, editorLogin, "/admin/account");
    await expect(page).toHaveURL(`${server.url}/admin/account`);
    await expect(page.getByText(editor, { exact: true }).first()).toBeVisible();
    await page.goto(`${server.url}/admin/users`);
    await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
  }
  expect(accountsWith(`renamed-${editor}`)).toBe(0);
});

test("the domain is read after the last @: a@quorvant.com@evil.example in a mapped group gets no account", async ({ page }) => {
  const email = `a-${Date.now()}@quorvant.com@evil.example`;
  await signInWithSso(page, personAtProvider(email, ["website-owners"]));
  await expect(page).toHaveURL(/\/admin\/sign-in\?problem=/);
  await problem(page, "Your identity provider gave an email address the back office cannot use.");
  expect(accountsWith(email)).toBe(0);
  expect(
    withDatabase(server.databasePath, (db) => db.prepare("SELECT id FROM admin_users WHERE email LIKE '%evil.example%'").all()),
  ).toEqual([]);
});
