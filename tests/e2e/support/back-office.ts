import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { APIRequestContext, Browser, BrowserContext, CDPSession, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { test } from "./fixtures";
import { startPrivateServer, type RunningServer } from "./server";
import { withDatabase } from "./database";

// Signing in to the back office the way people do: an invitation from the operator's command, a
// passkey made and used through Chromium's virtual authenticator (DevTools' WebAuthn domain). A
// relying party cannot be an IP address, so these servers are SITE_URL=http://localhost:PORT.

export type Role = "owner" | "editor" | "legal" | "sales" | "recruiter";

export type BackOfficeServer = RunningServer;

/** A private built server whose SITE_URL (and passkeys' relying party) is localhost. */
export function startBackOfficeServer(env: Record<string, string> = {}): Promise<BackOfficeServer> {
  return startPrivateServer({ SIGN_IN_RATE_LIMIT: "0", ...env }, { host: "localhost" });
}

/**
 * The back-office server the tests of one spec file share: started before the file's first test
 * with the settings `env` gives (asked for then, so they may name what an earlier hook started),
 * stopped after its last. The returned object is filled in when it has started; the file's tests
 * address the server by its own URL.
 */
export function backOfficeServerForThisFile(env: () => Record<string, string> = () => ({})): BackOfficeServer {
  const server = {} as BackOfficeServer;
  test.beforeAll(async () => {
    Object.assign(server, await startBackOfficeServer(env()));
  });
  test.afterAll(async () => {
    await server.stop?.();
  });
  test.use({ baseURL: undefined });
  return server;
}

/** Where the operator's command acts: a database and the site's public address. */
export type AdminTarget = { databaseUrl: string; siteUrl: string };

const targetOf = (server: BackOfficeServer | AdminTarget): AdminTarget =>
  "databaseUrl" in server ? server : { databaseUrl: `file:${server.databasePath}`, siteUrl: server.url };

/** Runs `npm run admin -- …` against a server's database, as an operator would. */
export function adminCommand(server: BackOfficeServer | AdminTarget, ...args: string[]) {
  const { databaseUrl, siteUrl } = targetOf(server);
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SITE_URL: siteUrl, LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
}

/** An invitation link from the command line (its last line of output). */
export function inviteFromCommandLine(server: BackOfficeServer | AdminTarget, email: string, roles: readonly Role[]): string {
  const run = adminCommand(server, "invite", email, ...roles.flatMap((role) => ["--role", role]));
  expect(run.status, run.stderr).toBe(0);
  const link = run.stdout.trim().split("\n").at(-1)!;
  expect(link).toMatch(new RegExp(`^${targetOf(server).siteUrl}/admin/invitations/[0-9a-f]{64}$`));
  return link;
}

export type Authenticator = { cdp: CDPSession; id: string };

/** A platform authenticator with user verification, answering every prompt at once. */
export async function addVirtualAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

/** Copies every passkey of one virtual authenticator into another (the same person on a second device). */
export async function copyPasskeys(from: Authenticator, to: Authenticator) {
  const { credentials } = await from.cdp.send("WebAuthn.getCredentials", { authenticatorId: from.id });
  for (const credential of credentials) await to.cdp.send("WebAuthn.addCredential", { authenticatorId: to.id, credential });
}

/** Opens an invitation link and makes the passkey; the page ends on the back office's overview. */
export async function acceptInvitation(page: Page, link: string) {
  await page.goto(link);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

/** Signs in with the passkey the page's authenticator holds. */
export async function signInWithPasskey(page: Page, server: { url: string }) {
  await page.goto(`${server.url}/admin/sign-in`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

export type SignedInPerson = { email: string; context: BrowserContext; page: Page; authenticator: Authenticator };

let people = 0;

/**
 * An invitation written straight into the database, as the command writes it (only the token's
 * hash is stored). For setting people up quickly: the command itself is tested where it matters,
 * and starting it costs seconds.
 */
export function inviteInDatabase(server: BackOfficeServer, email: string, roles: readonly Role[]): string {
  const token = randomBytes(32).toString("hex");
  withDatabase(server.databasePath, (db) =>
    db
      .prepare("INSERT INTO admin_invitations (id, token_hash, email, roles, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(
        randomUUID(),
        createHash("sha256").update(token).digest("hex"),
        email,
        roles.join(","),
        new Date().toISOString(),
        new Date(Date.now() + 3_600_000).toISOString(),
      ),
  );
  return `${server.url}/admin/invitations/${token}`;
}

/** Someone new with these roles, invited, signed in with a passkey in a browser context of their own. */
export async function signInAs(browser: Browser, server: BackOfficeServer, roles: readonly Role[]): Promise<SignedInPerson> {
  people += 1;
  const email = `${roles.join("-") || "nobody"}-${people}-${Date.now()}@quorvant.com`;
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const authenticator = await addVirtualAuthenticator(page);
  await acceptInvitation(page, inviteInDatabase(server, email, roles));
  return { email, context, page, authenticator };
}

/** The CSRF token the back office's forms carry for this person's session. */
export async function csrfToken(page: Page): Promise<string> {
  await page.goto("/admin/account");
  return (await page.locator('input[name="csrf"]').first().getAttribute("value")) ?? "";
}

/** A form post from the back office's own origin, as a browser's same-origin form would send it. */
export function postForm(
  request: APIRequestContext,
  server: { url: string },
  path: string,
  form: Record<string, string | string[]>,
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) body.append(name, item);
  return request.post(`${server.url}${path}`, {
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Sec-Fetch-Site": "same-origin" },
    data: body.toString(),
    maxRedirects: 0,
  });
}

/** The audit log's actions for one person's email, oldest first (read from the database directly). */
export function auditActions(server: { databasePath: string }, where = "1 = 1", ...values: unknown[]): string[] {
  return withDatabase(server.databasePath, (db) =>
    (
      db.prepare(`SELECT action FROM audit_log WHERE ${where} ORDER BY created_at, rowid`).all(...values) as { action: string }[]
    ).map((row) => row.action),
  );
}

/** What a passkey endpoint's options step answers. */
export type CeremonyOptions = {
  stateId: string;
  options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[]; userVerification?: string };
};

/**
 * Lets the page's authenticator sign `options.challenge` with whatever passkey it holds for the
 * site (as a browser under the signer's control can, whatever `allowCredentials` the server sent),
 * and returns the answer as the browser's passkey code posts it.
 */
export function passkeyAssertion(page: Page, options: CeremonyOptions["options"]): Promise<Record<string, unknown>> {
  return page.evaluate(async ({ challenge, rpId, userVerification }) => {
    const bytes = (base64url: string) =>
      Uint8Array.from(atob(base64url.replaceAll("-", "+").replaceAll("_", "/")), (char) => char.charCodeAt(0));
    const base64url = (buffer: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
    const credential = (await navigator.credentials.get({
      publicKey: { challenge: bytes(challenge), rpId, userVerification: userVerification as UserVerificationRequirement },
    })) as PublicKeyCredential;
    const response = credential.response as AuthenticatorAssertionResponse;
    return {
      id: credential.id,
      rawId: base64url(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: base64url(response.clientDataJSON),
        authenticatorData: base64url(response.authenticatorData),
        signature: base64url(response.signature),
        ...(response.userHandle ? { userHandle: base64url(response.userHandle) } : {}),
      },
      clientExtensionResults: {},
    };
  }, options);
}
