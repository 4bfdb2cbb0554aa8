import { randomUUID } from "node:crypto";
import { chromium, type APIRequestContext, type Browser } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/lib/chromium";
import { freePort } from "../../scripts/lib/built-server";
import { signPreviewToken } from "../../app/features/blog/preview-token.server";
import { expect, test } from "../e2e/support/fixtures";
import { acceptInvitation, addVirtualAuthenticator, inviteFromCommandLine } from "../e2e/support/back-office";
import { uniqueCampaign } from "../e2e/forms-support";
import { useTopology } from "./support/topology";
import { startVarnish, type Varnish } from "./support/varnish";

// The site behind a shared cache, as behind a CDN: Varnish running deploy/varnish/ between nginx
// and the two app servers, which purge it through its Fastly-shaped endpoint when content is
// published. Answers come from Varnish; a publish shows at once; the back office, form posts and
// previews are never stored; and stored pages still answer while no app server does.

const PURGE_TOKEN = `purge-${randomUUID()}`;
const PREVIEW_SECRET = "preview-secret-for-the-topology-tests-0123456789";
/** Short, so that the last test finds stored pages past their freshness within seconds. */
const SHARED_MAX_AGE_SECONDS = 3;

test.describe("the site behind Varnish", () => {
  test.describe.configure({ mode: "default", timeout: 60_000 });
  let varnishPort = 0;
  let varnish: Varnish | undefined;
  test.beforeAll(async () => {
    varnishPort = await freePort();
  });
  const topology = useTopology(
    () => ({
      CDN_PURGE_URL: `http://127.0.0.1:${varnishPort}/service/quorvant/purge`,
      CDN_PURGE_TOKEN: PURGE_TOKEN,
      CDN_PURGE_STYLE: "fastly",
      CDN_MAX_AGE_SECONDS: String(SHARED_MAX_AGE_SECONDS),
      // nginx, then Varnish: two proxies in front.
      TRUST_PROXY: "2",
      PREVIEW_SECRET,
      SIGN_IN_RATE_LIMIT: "0",
      FORM_RATE_LIMIT: "100",
    }),
    {
      inFrontOfServers: async (servers) => {
        varnish = await startVarnish({ servers, port: varnishPort, token: PURGE_TOKEN });
        return varnish;
      },
    },
  );
  let browser: Browser;

  test.beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, `--ignore-certificate-errors-spki-list=${topology().certificateSpki}`],
    });
  });
  test.afterAll(async () => {
    await browser?.close();
  });

  /** A request through nginx and Varnish: status, Varnish's verdict (X-Cache), headers and body. */
  async function throughCache(request: APIRequestContext, path: string, post?: { form: Record<string, string> }) {
    const url = `${topology().url}${path}`;
    const response = post
      ? await request.post(url, { form: post.form, headers: { Origin: topology().url }, maxRedirects: 0 })
      : await request.get(url, { maxRedirects: 0 });
    const headers = response.headers();
    return { status: response.status(), cache: headers["x-cache"], headers, body: await response.text() };
  }

  test("a page is served from Varnish, with no surrogate keys shown to the visitor", async ({ request }) => {
    const path = "/products/sentinel";
    const first = await throughCache(request, path);
    expect(first.status, topology().diagnostics()).toBe(200);
    const second = await throughCache(request, path);
    expect(second.status).toBe(200);
    expect(second.cache).toBe("HIT");
    expect(second.body).toBe(first.body);
    expect(second.headers["surrogate-key"]).toBeUndefined();
    // Straight from an app server, the same page names what it depends on.
    const direct = await request.get(`${topology().servers[0]!.url}${path}`);
    expect(direct.headers()["surrogate-key"]).toMatch(/\S/);
  });

  test("the back office and form posts are never stored", async ({ request }) => {
    const current = topology();
    for (let visit = 0; visit < 2; visit += 1) expect((await throughCache(request, "/admin/sign-in")).cache).toBe("PASS");

    // A form post reaches an app server each time, and each is stored once.
    const campaign = uniqueCampaign("topology-cdn");
    for (let post = 0; post < 2; post += 1) {
      const answer = await throughCache(request, `/request-demo?utm_campaign=${campaign}`, {
        form: { first_name: "Ada", last_name: "Lovelace", email: `${campaign}-${post}@example.com`, company: "Engines" },
      });
      expect(answer.status, answer.body.slice(0, 500)).toBe(200);
      expect(answer.cache).toBe("PASS");
    }
    await expect.poll(async () => (await current.leadRows("demo_requests", campaign)).length).toBe(2);
  });

  test("a post published through the back office shows through Varnish within two seconds; its preview is never stored", async ({
    request,
  }) => {
    const current = topology();
    // The sample content's import purged everything before Varnish was up: that purge is retried
    // (its key covers every other), so it goes out first and cannot stand in for the publish's.
    await expect
      .poll(async () => Number((await current.sql<{ count: string }>("select count(*) as count from cdn_purges"))[0]!.count), {
        timeout: 30_000,
      })
      .toBe(0);
    const blog = "/resources/blog";
    await throughCache(request, blog);
    expect((await throughCache(request, blog)).cache).toBe("HIT");

    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    await acceptInvitation(
      page,
      inviteFromCommandLine({ databaseUrl: current.databaseUrl, siteUrl: current.url }, `editor-${Date.now()}@quorvant.com`, [
        "editor",
      ]),
    );
    const slug = `behind-the-cache-${Date.now()}`;
    const title = `Published behind the cache ${Date.now()}`;
    await page.goto(`${current.url}/admin/posts/new`);
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Slug", { exact: true }).fill(slug);
    await page.getByLabel("Category").fill("Research");
    await page.getByLabel("Excerpt").fill("Purged on publish.");
    await expect(page.locator(".cm-content")).toBeVisible();
    await page.locator(".cm-content").click();
    await page.keyboard.insertText("Shown through the shared cache at once.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("The post was created.")).toBeVisible();

    // The draft's preview link answers through the cache every time from an app server.
    const postId = /\/admin\/posts\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    expect(postId, page.url()).toBeTruthy();
    const preview = `${blog}/preview/${signPreviewToken(PREVIEW_SECRET, postId!, new Date(Date.now() + 3_600_000))}`;
    for (let visit = 0; visit < 2; visit += 1) {
      const answer = await throughCache(request, preview);
      expect(answer.status, current.diagnostics()).toBe(200);
      expect(answer.body).toContain(title);
      expect(answer.cache).toBe("PASS");
    }
    expect((await throughCache(request, blog)).body).not.toContain(title);

    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText(/Saved as revision \d+\./)).toBeVisible();
    const published = Date.now();
    await expect
      .poll(async () => (await throughCache(request, blog)).body, { timeout: 2_000, intervals: [100] })
      .toContain(title);
    await expect
      .poll(async () => (await throughCache(request, `${blog}/${slug}`)).status, { timeout: 2_000, intervals: [100] })
      .toBe(200);
    expect(Date.now() - published).toBeLessThan(2_500);
    // It came from a purge the site sent naming the post, not from the copy's freshness running out.
    expect(await varnish!.banList()).toContain(`post:${postId}`);
    await context.close();
  });

  test("stored pages still answer from Varnish while every app server is stopped", async ({ request }) => {
    const current = topology();
    const paths = ["/", "/products/sentinel", "/resources/blog"];
    for (const path of paths) {
      await throughCache(request, path);
      expect((await throughCache(request, path)).status).toBe(200);
    }
    await Promise.all(current.servers.map((server) => server.stop()));
    // Past the copies' freshness: they are stale, and no app server answers.
    await new Promise((resolve) => setTimeout(resolve, (SHARED_MAX_AGE_SECONDS + 1) * 1_000));
    for (const path of paths) {
      const answer = await throughCache(request, path);
      expect(answer.status, `${path}\n${current.diagnostics()}`).toBe(200);
      expect(answer.cache).toBe("HIT");
    }
    // A page never stored has nothing to fall back on.
    expect((await throughCache(request, "/company/about")).status).toBe(503);
  });
});
