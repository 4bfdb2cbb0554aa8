import { test, expect } from "./support/fixtures";
import type { Page } from "@playwright/test";
import { auditActions, backOfficeServerForThisFile, inviteFromCommandLine, startBackOfficeServer } from "./support/back-office";
import { withDatabase } from "./support/database";
import {
  signInAtProvider,
  startIdentityProvider,
  withoutProviderWebFonts,
  type IdentityProvider,
} from "./support/identity-provider";

// Single sign-on against a real OpenID Connect provider on loopback (authorization code with
// PKCE). The company lets people of its own domain in by their groups; anyone else only with an
// invitation. Every refusal says why on the sign-in page and is audited.

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
function personAtProvider(email: string, groups?: string[], emailVerified = true): string {
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
  expect(auditActions(server, "actor_email = ? OR details LIKE ?", email, `%${email}%`)).toEqual(["user.created", "sign-in"]);

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
