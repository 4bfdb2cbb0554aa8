import { test, expect } from "./support/fixtures";
import {
  addVirtualAuthenticator,
  auditActions,
  backOfficeServerForThisFile,
  copyPasskeys,
  csrfToken,
  passkeyAssertion,
  postForm,
  signInAs,
  signInWithPasskey,
  type CeremonyOptions,
} from "./support/back-office";
import { withDatabase } from "./support/database";
import { CLEARTEXT_MAIL, startSmtpReceiver, waitUntil, type SmtpReceiver } from "./support/delivery-receivers";

// Sessions live in the database: they end after 30 idle minutes or 12 hours, on "sign out of every
// device", and for a disabled person at once. Every back-office post needs the site's origin and
// the session's CSRF token. Destructive actions, and adding a passkey, ask for the person's own
// passkey again after 10 minutes; a change to their passkeys is mailed to them.

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

test("another person's passkey does not confirm it's you, and the action it was for does not happen", async ({ browser }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const editor = await signInAs(browser, server, ["editor"]);
  setSessions(owner.email, "authenticated_at = ?", minutesAgo(11));
  const csrf = await csrfToken(owner.page);
  const confirmWith = (begun: CeremonyOptions, response: unknown) =>
    postForm(owner.context.request, server, "/admin/passkeys/confirm", {
      csrf,
      step: "verify",
      stateId: begun.stateId,
      response: JSON.stringify(response),
    });

  // The editor signs a sign-in challenge with their passkey; it is posted with the owner's session.
  const signIn = (await (
    await postForm(editor.context.request, server, "/admin/passkeys/sign-in", { step: "options" })
  ).json()) as CeremonyOptions;
  const refused = await confirmWith(signIn, await passkeyAssertion(editor.page, signIn.options));
  expect(refused.status()).toBe(400);

  // Nor does the editor's passkey answer the owner's own confirmation challenge.
  const confirmation = (await (
    await postForm(owner.context.request, server, "/admin/passkeys/confirm", { csrf, step: "options" })
  ).json()) as CeremonyOptions;
  const ownerPasskey = withDatabase(
    server.databasePath,
    (db) =>
      (
        db
          .prepare("SELECT id FROM admin_passkeys WHERE user_id = (SELECT id FROM admin_users WHERE email = ?)")
          .get(owner.email) as { id: string }
      ).id,
  );
  expect(confirmation.options.allowCredentials?.map((credential) => credential.id)).toEqual([ownerPasskey]);
  const notTheirs = await confirmWith(confirmation, await passkeyAssertion(editor.page, confirmation.options));
  expect(notTheirs.status()).toBe(400);
  expect(await notTheirs.json()).toEqual({ error: "This passkey is not one of yours." });

  await owner.page.goto(`${server.url}/admin/users`);
  await owner.page.getByRole("link", { name: editor.email }).click();
  await owner.page.getByRole("button", { name: `Disable ${editor.email}` }).click();
  await expect(owner.page.getByRole("heading", { level: 1, name: "Confirm it's you" })).toBeVisible();
  await editor.page.goto(`${server.url}/admin`);
  await expect(editor.page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  expect(auditActions(server, "actor_email = ? AND action IN ('reauthenticated', 'user.disabled')", owner.email)).toEqual([]);

  // The owner's own passkey does, and the entry names it.
  await owner.page.getByRole("button", { name: "Confirm with your passkey" }).click();
  await expect(owner.page.getByRole("heading", { level: 1, name: editor.email })).toBeVisible();
  const details = withDatabase(server.databasePath, (db) =>
    (
      db.prepare("SELECT details FROM audit_log WHERE action = 'reauthenticated' AND actor_email = ?").all(owner.email) as {
        details: string;
      }[]
    ).map((row) => JSON.parse(row.details) as Record<string, unknown>),
  );
  expect(details).toEqual([expect.objectContaining({ method: "passkey", passkey: ownerPasskey })]);
  await owner.context.close();
  await editor.context.close();
});

test("adding a passkey after a 10-minute-old sign-in asks for the passkey first, and the person is mailed", async ({
  browser,
}) => {
  const person = await signInAs(browser, server, ["editor"]);
  const mailsAboutAddedPasskeys = () =>
    smtp.emails.filter(
      (email) =>
        email.envelope.to.includes(person.email) &&
        email.mail.subject === "A passkey was added to your Quorvant back office account",
    );
  // The invitation's passkey was the first.
  await waitUntil(
    () => mailsAboutAddedPasskeys().length === 1,
    10_000,
    () => `no mail about ${person.email}'s first passkey`,
  );
  setSessions(person.email, "authenticated_at = ?", minutesAgo(11));

  const refused = await postForm(person.context.request, server, "/admin/passkeys/register", {
    csrf: await csrfToken(person.page),
    step: "options",
  });
  expect(refused.status()).toBe(403);

  await person.page.goto(`${server.url}/admin/account`);
  const passkeys = person.page.getByRole("region", { name: "Your passkeys" });
  await expect(passkeys.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  await passkeys.getByRole("link", { name: "Confirm it's you to add a passkey" }).click();
  await person.page.getByRole("button", { name: "Confirm with your passkey" }).click();
  await expect(person.page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

  // A new device: an authenticator that does not hold the first passkey yet.
  await person.authenticator.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: person.authenticator.id });
  await addVirtualAuthenticator(person.page);
  await passkeys.getByRole("button", { name: "Add a passkey" }).click();
  await expect(person.page.getByText("Your new passkey was added.")).toBeVisible();
  await expect(passkeys.getByRole("row")).toHaveCount(3);

  const mails = await waitUntil(
    () => (mailsAboutAddedPasskeys().length === 2 ? mailsAboutAddedPasskeys() : undefined),
    10_000,
    () => `no mail about ${person.email}'s second passkey`,
  );
  const text = mails[1]!.mail.text ?? "";
  expect(text).toContain(`was added to your account (${person.email})`);
  expect(text).toContain(`${server.url}/admin/account`);
  expect(text).not.toContain("/admin/invitations/");
  expect(auditActions(server, "actor_email = ? AND action IN ('reauthenticated', 'passkey.added')", person.email)).toEqual([
    "passkey.added",
    "reauthenticated",
    "passkey.added",
  ]);

  // Removing one is mailed too.
  await passkeys
    .getByRole("button", { name: /^Remove / })
    .first()
    .click();
  await expect(person.page.getByText("The passkey was removed.")).toBeVisible();
  const removal = await waitUntil(
    () =>
      smtp.emails.find(
        (email) =>
          email.envelope.to.includes(person.email) &&
          email.mail.subject === "A passkey was removed from your Quorvant back office account",
      ),
    10_000,
    () => `no mail about ${person.email}'s removed passkey`,
  );
  expect(removal.mail.text).toContain(`was removed from your account (${person.email})`);
  await person.context.close();
});
