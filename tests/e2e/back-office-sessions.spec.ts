import { test, expect } from "./support/fixtures";
import {
  addVirtualAuthenticator,
  auditActions,
  backOfficeServerForThisFile,
  copyPasskeys,
  csrfToken,
  postForm,
  signInAs,
  signInWithPasskey,
} from "./support/back-office";
import { withDatabase } from "./support/database";

// Sessions live in the database: they end after 30 idle minutes or 12 hours, on "sign out of every
// device", and for a disabled person at once. Every back-office post needs the site's origin and
// the session's CSRF token. Destructive actions ask for the passkey again after 10 minutes.

const server = backOfficeServerForThisFile();

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function setSessions(email: string, assignments: string, ...values: unknown[]) {
  withDatabase(server.databasePath, (db) =>
    db
      .prepare(`UPDATE admin_sessions SET ${assignments} WHERE user_id = (SELECT id FROM admin_users WHERE email = ?)`)
      .run(...values, email),
  );
}

test("the session cookie is HttpOnly and SameSite=Lax, and ends after 30 idle minutes", async ({ browser }) => {
  const person = await signInAs(browser, server, ["editor"]);
  const cookies = await person.context.cookies(server.url);
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ name: "quorvant_admin", httpOnly: true, sameSite: "Lax", path: "/", expires: -1 });

  setSessions(person.email, "last_seen_at = ?", minutesAgo(29));
  await person.page.goto(`${server.url}/admin`);
  await expect(person.page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  setSessions(person.email, "last_seen_at = ?", minutesAgo(31));
  await person.page.goto(`${server.url}/admin`);
  await expect(person.page).toHaveURL(`${server.url}/admin/sign-in?redirectTo=%2Fadmin`);
  await person.context.close();
});

test("a session ends 12 hours after sign-in, however active", async ({ browser }) => {
  const person = await signInAs(browser, server, ["sales"]);
  setSessions(person.email, "created_at = ?, expires_at = ?", minutesAgo(12 * 60 + 1), minutesAgo(1));
  await person.page.goto(`${server.url}/admin/account`);
  await expect(person.page).toHaveURL(/\/admin\/sign-in\?redirectTo=%2Fadmin%2Faccount$/);
  await person.context.close();
});

test("sign out of every device ends the sessions of both browsers", async ({ browser }) => {
  const person = await signInAs(browser, server, ["legal"]);
  const laptop = await browser.newContext();
  const laptopPage = await laptop.newPage();
  await copyPasskeys(person.authenticator, await addVirtualAuthenticator(laptopPage));
  await signInWithPasskey(laptopPage, server);

  await person.page.goto(`${server.url}/admin/account`);
  await expect(person.page.getByRole("region", { name: "Where you are signed in" }).getByRole("row")).toHaveCount(3);
  await person.page.getByRole("button", { name: "Sign out of every device" }).click();
  await expect(person.page.getByText("You have signed out.")).toBeVisible();
  await laptopPage.goto(`${server.url}/admin`);
  await expect(laptopPage).toHaveURL(/\/admin\/sign-in/);
  expect(auditActions(server, "action = 'sessions.ended' AND actor_email = ?", person.email)).toEqual(["sessions.ended"]);
  await laptop.close();
  await person.context.close();
});

test("a post from another site, or without the session's token, changes nothing", async ({ browser }) => {
  const person = await signInAs(browser, server, ["owner"]);
  const request = person.context.request;
  // Entries of people (the server's own jobs, actor "system", write theirs whenever they run).
  const byPeople = () => auditActions(server, "actor_email <> 'system'");
  const before = byPeople().length;

  const crossSite = await request.post(`${server.url}/admin/sign-out`, {
    headers: {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    data: `csrf=${encodeURIComponent(await csrfToken(person.page))}`,
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBe(403);

  const noToken = await postForm(request, server, "/admin/users", {
    intent: "invite",
    email: "forged@example.com",
    roles: "owner",
  });
  expect(noToken.status()).toBe(403);
  expect(await noToken.text()).toContain("This form has expired. Reload the page and try again.");

  const wrongToken = await postForm(request, server, "/admin/sign-out", { csrf: "forged-token" });
  expect(wrongToken.status()).toBe(403);

  expect(byPeople()).toHaveLength(before);
  await person.page.goto(`${server.url}/admin`);
  await expect(person.page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await person.context.close();
});

test("disabling someone after a 10-minute-old sign-in asks for the passkey first, then ends their session at once", async ({
  browser,
}) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const editor = await signInAs(browser, server, ["editor"]);
  setSessions(owner.email, "authenticated_at = ?", minutesAgo(11));

  await owner.page.goto(`${server.url}/admin/users`);
  await owner.page.getByRole("link", { name: editor.email }).click();
  await owner.page.getByRole("button", { name: `Disable ${editor.email}` }).click();
  await expect(owner.page.getByRole("heading", { level: 1, name: "Confirm it's you" })).toBeVisible();
  await owner.page.getByRole("button", { name: "Confirm with your passkey" }).click();
  await expect(owner.page.getByRole("heading", { level: 1, name: editor.email })).toBeVisible();
  await owner.page.getByRole("button", { name: `Disable ${editor.email}` }).click();
  await expect(owner.page.getByRole("status")).toHaveText(`${editor.email} is disabled; 1 session ended.`);

  await editor.page.goto(`${server.url}/admin`);
  await expect(editor.page).toHaveURL(/\/admin\/sign-in/);
  await editor.page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(editor.page.getByRole("alert")).toHaveText("Your access to the back office has been disabled.");
  expect(auditActions(server, "actor_email = ? AND action IN ('reauthenticated', 'user.disabled')", owner.email)).toEqual([
    "reauthenticated",
    "user.disabled",
  ]);
  await owner.context.close();
  await editor.context.close();
});
