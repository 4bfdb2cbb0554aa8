import { randomUUID } from "node:crypto";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/lib/chromium";
import { expect, test } from "../e2e/support/fixtures";
import {
  acceptInvitation,
  addVirtualAuthenticator,
  adminCommand,
  inviteFromCommandLine,
  type Role,
} from "../e2e/support/back-office";
import { useTopology, type Topology } from "./support/topology";

// The back office as deployed: passkeys through nginx terminating TLS, sessions in the shared
// PostgreSQL so that either server honours them, and a change made through one server (disabling
// someone, publishing a post, a page or a position) in force on both at once; and the audit log stays one hash chain
// however many servers write it.

test.describe("the back office behind the proxy on two servers", () => {
  test.describe.configure({ mode: "default", timeout: 60_000 });
  const topology = useTopology({ SIGN_IN_RATE_LIMIT: "0" });
  let browser: Browser;

  test.beforeAll(async () => {
    // A browser that trusts the throwaway certificate: passkeys refuse a page with certificate errors.
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, `--ignore-certificate-errors-spki-list=${topology().certificateSpki}`],
    });
  });

  test.afterAll(async () => {
    await browser?.close();
  });

  async function signIn(roles: Role[]): Promise<{ email: string; context: BrowserContext }> {
    const { url, databaseUrl } = topology();
    const email = `${roles.join("-")}-${Date.now()}@quorvant.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    await acceptInvitation(page, inviteFromCommandLine({ databaseUrl, siteUrl: url }, email, roles));
    return { email, context };
  }

  /** Which servers answered `path` in nginx's log since `since` entries. */
  function serversThatAnswered(current: Topology, path: string, since: number): Set<number> {
    return new Set(
      current
        .accessLog()
        .slice(since)
        .filter((entry) => entry.uri === path)
        .map((entry) => current.serverIndex(entry.upstreams.at(-1)!)),
    );
  }

  test("a passkey made through TLS signs in, and the session works on either server", async () => {
    const current = topology();
    const owner = await signIn(["owner"]);
    const [cookie] = await owner.context.cookies(current.url);
    expect(cookie).toMatchObject({ name: "__Host-quorvant_admin", secure: true, httpOnly: true, path: "/" });

    const since = current.accessLog().length;
    for (let visit = 0; visit < 6; visit += 1) {
      const response = await owner.context.request.get(`${current.url}/admin/account`, { maxRedirects: 0 });
      expect(response.status(), current.diagnostics()).toBe(200);
      expect(await response.text()).toContain(owner.email);
    }
    expect([...serversThatAnswered(current, "/admin/account", since)].sort()).toEqual([0, 1]);
    await owner.context.close();
  });

  test("someone disabled through one server is signed out on both at once", async () => {
    const current = topology();
    const owner = await signIn(["owner"]);
    const person = await signIn(["sales"]);
    const page = await owner.context.newPage();
    await page.goto(`${current.url}/admin/users`);
    await page.getByRole("link", { name: person.email }).click();
    await page.getByRole("button", { name: `Disable ${person.email}` }).click();
    await expect(page.getByText(`${person.email} is disabled; 1 session ended.`)).toBeVisible();

    const since = current.accessLog().length;
    for (let visit = 0; visit < 6; visit += 1) {
      const response = await person.context.request.get(`${current.url}/admin`, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toMatch(/^\/admin\/sign-in/);
    }
    expect([...serversThatAnswered(current, "/admin", since)].sort()).toEqual([0, 1]);
    await owner.context.close();
    await person.context.close();
  });

  test("a post published through the proxy shows on both servers' public pages within the cache's second", async () => {
    const current = topology();
    const editor = await signIn(["editor"]);
    const page = await editor.context.newPage();
    const slug = `two-servers-${Date.now()}`;
    await page.goto(`${current.url}/admin/posts/new`);
    await page.getByLabel("Title", { exact: true }).fill("Published on two servers");
    await page.getByLabel("Slug", { exact: true }).fill(slug);
    await page.getByLabel("Category").fill("Research");
    await page.getByLabel("Excerpt").fill("One database, two servers.");
    await expect(page.locator(".cm-content")).toBeVisible();
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("Saved through one server, read by both.");
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("The post was created.")).toBeVisible();

    // Straight to each server (not through nginx): both answer with the new post.
    for (const server of current.servers) {
      await expect
        .poll(async () => (await fetch(`${server.url}/resources/blog/${slug}`)).status, {
          timeout: 5_000,
        })
        .toBe(200);
    }
    await editor.context.close();
  });

  test("the home page's hero changed in the page editor through the proxy shows on both servers within the cache's second", async () => {
    const current = topology();
    // Each server has the home page in its cache before the change.
    for (const server of current.servers) expect((await fetch(`${server.url}/`)).status).toBe(200);
    const editor = await signIn(["editor"]);
    const page = await editor.context.newPage();
    await page.goto(`${current.url}/admin/pages`);
    await page.getByRole("link", { name: "Private AI Compliance, Security and Governance Platform" }).click();
    const title = `Governed on two servers ${Date.now()}`;
    await page.getByRole("region", { name: "Block 1: Hero" }).getByLabel("Main heading").fill(title);
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("Published: visitors see this version at / now.")).toBeVisible();
    // Straight to each server (not through nginx): both answer with the new hero.
    for (const server of current.servers) {
      await expect
        .poll(async () => (await (await fetch(`${server.url}/`)).text()).includes(title), { timeout: 5_000 })
        .toBe(true);
    }
    await editor.context.close();
  });

  test("a position published through the proxy opens on both servers, and closed through it answers 410 on both", async () => {
    const current = topology();
    const recruiter = await signIn(["recruiter"]);
    const page = await recruiter.context.newPage();
    const title = `Reliability Engineer ${Date.now()}`;
    await page.goto(`${current.url}/admin/positions`);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Team").fill("Platform");
    await page.getByLabel("Location").fill("Berlin");
    await page.getByRole("button", { name: "Create position" }).click();
    await expect(page.getByText("The position was created as a draft.")).toBeVisible();
    const path = `/company/careers/${await page.getByLabel("Slug").inputValue()}`;
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText(`Published: visitors see this version at ${path} now.`)).toBeVisible();
    // Straight to each server (not through nginx): the careers page lists it and its page is open.
    for (const server of current.servers)
      await expect(async () => {
        expect(await (await fetch(`${server.url}/company/careers`)).text()).toContain(title);
        expect((await fetch(`${server.url}${path}`)).status).toBe(200);
      }).toPass({ timeout: 5_000 });

    await page.getByRole("button", { name: "Close now" }).click();
    await expect(page.getByText(`Closed: ${path} now says the position is no longer open`)).toBeVisible();
    for (const server of current.servers)
      await expect(async () => {
        expect((await fetch(`${server.url}${path}`)).status).toBe(410);
        expect(await (await fetch(`${server.url}/company/careers`)).text()).not.toContain(title);
      }).toPass({ timeout: 5_000 });
    await recruiter.context.close();
  });

  test("both servers writing audit entries at once keep one chain that `audit verify` accepts", async () => {
    const current = topology();
    const [{ entries } = { entries: 0 }] = await current.sql<{ entries: number }>(
      "select count(*)::int as entries from audit_log",
    );
    // Refused passkey sign-ins (a ceremony nobody began), each one audited, straight to either server at once.
    const refusals = Array.from({ length: 30 }, (_, index) =>
      fetch(`${current.servers[index % 2]!.url}/admin/passkeys/sign-in`, {
        method: "POST",
        headers: { Origin: current.url },
        body: new URLSearchParams({
          step: "verify",
          stateId: randomUUID(),
          response: JSON.stringify({ id: `unknown-${index}` }),
        }),
      }),
    );
    expect((await Promise.all(refusals)).map((response) => response.status)).toEqual(Array(30).fill(400));

    const verify = adminCommand({ databaseUrl: current.databaseUrl, siteUrl: current.url }, "audit", "verify");
    expect(verify.stderr).toBe("");
    expect(verify.status).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^Audit log verified: ${entries + 30} entries, head [0-9a-f]{64}\n$`));
  });
});
