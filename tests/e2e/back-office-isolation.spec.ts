import { test, expect } from "./support/fixtures";
import { backOfficeServerForThisFile, signInAs } from "./support/back-office";

// The back office shares the public site's server and page cache, and must never leak through
// them: what one signed-in person saw is never stored or served to anyone else, under any spelling
// of its address, and a visitor who happens to hold a back-office cookie gets the same public
// pages as everyone. Search engines are told to keep out.

const server = backOfficeServerForThisFile();

// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

const SPELLINGS = [
  "/admin/users",
  "/ADMIN/users",
  "/Admin/Users/",
  "//admin/users",
  "/admin/users.data",
  "/admin/audit?action=sign-in",
];

test("nothing an owner saw is stored or served to anyone else, whatever the spelling of the address", async ({
  browser,
  playwright,
}) => {
  const owner = await signInAs(browser, server, ["owner"]);
  for (const path of SPELLINGS) {
    for (let visit = 0; visit < 2; visit += 1) {
      const response = await owner.context.request.get(`${server.url}${path}`);
      expect(response.status(), path).toBeLessThan(500);
      expect(response.headers()["cache-control"], path).toBe("no-store");
      expect(response.headers()["x-robots-tag"], path).toBe("noindex, nofollow");
      expect(response.headers()["x-page-cache"], path).toBeUndefined();
    }
  }

  const stranger = await playwright.request.newContext();
  for (const path of SPELLINGS) {
    const response = await stranger.get(`${server.url}${path}`);
    const body = await response.text();
    expect(body, path).not.toContain(owner.email);
    // A page redirects to the sign-in; a data request answers the same redirect in its own format.
    expect(`${response.url()} ${body}`, path).toContain("/admin/sign-in");
  }
  await stranger.dispose();
  await owner.context.close();
});

test("a back-office cookie changes nothing on the public site", async ({ browser, playwright }) => {
  const owner = await signInAs(browser, server, ["owner"]);
  const stranger = await playwright.request.newContext();
  const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
  for (const path of ["/", "/resources/blog", "/contact-sales"]) {
    const signedIn = await owner.context.request.get(`${server.url}${path}`);
    const anonymous = await stranger.get(`${server.url}${path}`);
    expect(signedIn.status(), path).toBe(200);
    expect(signedIn.headers()["set-cookie"], path).toBeUndefined();
    expect(withoutNonces(await signedIn.text()), path).toBe(withoutNonces(await anonymous.text()));
    expect(await signedIn.text(), path).not.toContain(owner.email);
  }
  await stranger.dispose();
  await owner.context.close();
});

test("search engines are kept out of the back office", async ({ request }) => {
  const robots = await (await request.get(`${server.url}/robots.txt`)).text();
  expect(robots).toMatch(/^Disallow: \/admin$/m);
  const sitemap = await (await request.get(`${server.url}/sitemap.xml`)).text();
  expect(sitemap).toContain("<loc>");
  expect(sitemap).not.toContain("/admin");
  const signIn = await request.get(`${server.url}/admin/sign-in`);
  expect(signIn.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  expect(await signIn.text()).toContain('<meta name="robots" content="noindex, nofollow"/>');
});
