import http from "node:http";
import net from "node:net";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { SHARED_SERVER, startPrivateServer } from "./support/server";

// What a proxy, a CDN or a crawler relies on, asked of the built server directly.

/** A request exactly as written (fetch and browsers would normalise `..` away). */
function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string> },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method: options.method ?? "GET", path: options.path, headers: options.headers },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

test.describe("status codes", () => {
  test("a missing file under /assets, or a path climbing out of it, is 404", async ({ request }) => {
    const missing = await request.get("/assets/no-such-file-1234.js");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["cache-control"]).toBe("no-store");
    for (const path of ["/assets/../server/index.js", "/assets/%2e%2e/server/index.js", "/assets/..%2fpackage.json"]) {
      const response = await rawRequest(SHARED_SERVER.url, { path });
      expect(response.status, path).toBe(404);
      expect(response.body).not.toContain("import");
    }
  });

  test("a folder of static files is a 404, never a redirect loop", async () => {
    for (const path of ["/images", "/images/", "/IMAGES"]) {
      let response = await rawRequest(SHARED_SERVER.url, { path });
      // At most the one redirect to the canonical path, then an answer.
      if (response.status === 308) response = await rawRequest(SHARED_SERVER.url, { path: response.headers.location! });
      expect(response.status, path).toBe(404);
    }
  });

  test("another spelling of a page's path never renders it under its own address or cache key", async () => {
    // Dot segments in any spelling (no browser sends them): refused.
    for (const path of ["/company/about/%2e", "/company/x/%2e%2e/about", "/company/./about", "/resources/blog/%2E%2e"]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await rawRequest(SHARED_SERVER.url, { path });
        expect(response.status, path).toBe(404);
        expect(response.headers["x-page-cache"], path).toBeUndefined();
      }
    }
    // Encoded letters, doubled slashes: sent to the one address.
    for (const [path, canonical] of [
      ["/company/%61bout", "/company/about"],
      ["/company//about", "/company/about"],
      ["/company\\about", "/company/about"],
    ]) {
      const response = await rawRequest(SHARED_SERVER.url, { path: path! });
      expect(response.status, path).toBe(308);
      expect(response.headers.location, path).toBe(canonical);
    }
  });

  test("a missing asset is not logged as a server error", async () => {
    const server = await startPrivateServer();
    try {
      expect((await fetch(`${server.url}/assets/gone-abc123.css`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const errorLines = server
        .output()
        .split("\n")
        .filter((line) => line.includes('"level":50'));
      expect(errorLines).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test("an unsupported method is 405 with Allow, never 500", async () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH"]) {
      const page = await rawRequest(SHARED_SERVER.url, { method, path: "/company/about" });
      expect(page.status, method).toBe(405);
      expect(page.headers.allow).toBe("GET, HEAD");
      const form = await rawRequest(SHARED_SERVER.url, { method, path: "/contact-sales" });
      expect(form.status, method).toBe(405);
      expect(form.headers.allow).toBe("GET, HEAD, POST");
    }
    const postToPage = await rawRequest(SHARED_SERVER.url, {
      method: "POST",
      path: "/company/about",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0" },
    });
    expect(postToPage.status).toBe(405);
    expect(postToPage.headers.allow).toBe("GET, HEAD");
    const options = await rawRequest(SHARED_SERVER.url, { method: "OPTIONS", path: "/request-demo" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST");
  });

  test("HEAD answers with the headers of GET and no body", async ({ request }) => {
    for (const path of ["/company/charter", "/resources/blog", "/rss.xml", "/no-such-page-for-head"]) {
      const get = await request.get(path);
      const head = await request.head(path);
      expect(head.status(), path).toBe(get.status());
      for (const name of ["content-type", "cache-control", "etag", "vary", "content-length"]) {
        expect(head.headers()[name], `${path} ${name}`).toBe(get.headers()[name]);
      }
      expect(head.headers()["content-security-policy"]).toBeTruthy();
      expect((await head.body()).length).toBe(0);
    }
  });

  test("a trailing slash redirects permanently to the path without it, query kept", async ({ request }) => {
    const response = await request.get("/company/about/?utm_source=news&x=1", { maxRedirects: 0 });
    expect(response.status()).toBe(308);
    expect(response.headers().location).toBe("/company/about?utm_source=news&x=1");
    const followed = await request.get("/resources/blog/");
    expect(followed.status()).toBe(200);
    expect(followed.url()).toMatch(/\/resources\/blog$/);
    // Never an off-site redirect, however the path starts.
    for (const path of ["//evil.example/", "/%5Cevil.example/", "///evil.example//"]) {
      const redirect = await rawRequest(SHARED_SERVER.url, { path });
      expect(redirect.status, path).toBe(308);
      expect(redirect.headers.location, path).toMatch(/^\/[^/\\]/);
    }
  });
});

test.describe("validators and caching", () => {
  for (const path of ["/company/about", "/resources/blog", "/rss.xml", "/sitemap.xml"]) {
    test(`${path} has a strong ETag and a conditional GET answers 304`, async ({ request }) => {
      const first = await request.get(path);
      const etag = first.headers().etag;
      expect(etag, "strong ETag").toMatch(/^"[^"]+"$/);
      const again = await request.get(path, { headers: { "If-None-Match": etag! } });
      expect(again.status()).toBe(304);
      expect(again.headers().etag).toBe(etag);
      expect((await again.body()).length).toBe(0);
      const other = await request.get(path, { headers: { "If-None-Match": '"something-else"' } });
      expect(other.status()).toBe(200);
    });
  }

  test("the ETag stays the same across re-renders and changes when the content does", async () => {
    const server = await startPrivateServer();
    try {
      const etagOf = async () => (await fetch(`${server.url}/rss.xml`)).headers.get("etag");
      const before = await etagOf();
      await new Promise((resolve) => setTimeout(resolve, 1200)); // past the freshness second: a new render
      expect(await etagOf()).toBe(before);
      withDatabase(server.databasePath, (db) =>
        db
          .prepare(
            "update blog_posts set title = 'A retitled post' where id = (select id from blog_posts where published = 1 order by published_date desc limit 1)",
          )
          .run(),
      );
      await expect.poll(etagOf, { timeout: 5_000 }).not.toBe(before);
    } finally {
      await server.stop();
    }
  });

  test("pages tell shared caches the freshness second; form answers and errors are never stored", async ({ request }) => {
    const page = await request.get("/company/brand");
    expect(page.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400");
    expect(page.headers().vary).toContain("Accept-Encoding");
    const csp = page.headers()["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc, "a page a CDN may keep carries no per-request nonce").not.toContain("nonce-");
    expect(await page.text()).not.toMatch(/nonce="/);

    const missing = await request.get("/no-such-page-for-caching");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["cache-control"]).toBe("no-store");

    const answer = await request.post("/contact-sales", { form: { first_name: "Cache", email: "not-an-email" } });
    expect(answer.status()).toBe(400);
    expect(answer.headers()["cache-control"]).toBe("no-store");
  });
});

test.describe("a CDN in front", () => {
  const keysOf = (headers: Record<string, string>) => (headers["surrogate-key"] ?? "").split(" ");

  test("public answers name their surrogate keys, a hit the same; the back office, previews, form answers none", async ({
    request,
  }) => {
    // A page: the site, the menus, its own document; a cache hit (answered before Express) the same.
    const first = await request.get("/company/brand");
    const hit = await request.get("/company/brand");
    expect(hit.headers()["x-page-cache"]).toBe("HIT");
    expect(keysOf(first.headers())).toEqual(expect.arrayContaining(["site", "nav"]));
    expect(keysOf(first.headers()).some((key) => /^page:[0-9a-f-]{36}$/.test(key))).toBe(true);
    expect(hit.headers()["surrogate-key"]).toBe(first.headers()["surrogate-key"]);
    for (const key of keysOf(first.headers())) expect(key).toMatch(/^[a-z0-9][a-z0-9:_-]*$/);

    const blog = await request.get("/resources/blog");
    expect(keysOf(blog.headers())).toEqual(expect.arrayContaining(["site", "nav", "posts"]));
    const slug = /href="\/resources\/blog\/([a-z0-9-]+)"/.exec(await blog.text())?.[1];
    expect(slug).toBeTruthy();
    const post = await request.get(`/resources/blog/${slug}`);
    const postKey = keysOf(post.headers()).find((key) => key.startsWith("post:"));
    expect(postKey).toMatch(/^post:[0-9a-f-]{36}$/);
    const card = await request.get(`/resources/blog/${slug}/og.png`);
    expect(card.status()).toBe(200);
    expect(keysOf(card.headers())).toEqual(["site", postKey]);
    expect(card.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400");

    const expected: [string, string][] = [
      ["/rss.xml", "feeds"],
      ["/feed.json", "feeds"],
      ["/sitemap.xml", "sitemap"],
      ["/company/careers", "positions"],
      ["/company/careers/atom.xml", "positions"],
      ["/terms/privacy-policy", "legal:privacy-policy"],
    ];
    for (const [path, key] of expected) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(keysOf(response.headers()), path).toEqual(expect.arrayContaining(["site", key]));
      expect(response.headers()["cache-control"], path).toContain("stale-if-error=86400");
    }

    // Never kept by a shared cache: no keys to purge them by.
    const unshared = [
      await request.get("/admin/sign-in"),
      await request.get("/preview/not-a-real-token"),
      await request.post("/contact-sales", { form: { first_name: "Cache", email: "not-an-email" } }),
    ];
    for (const response of unshared) {
      expect(response.headers()["cache-control"], response.url()).toMatch(/no-store/);
      expect(response.headers()["surrogate-key"], response.url()).toBeUndefined();
    }
  });

  test("with a purge endpoint, pages are kept long by the CDN and Cloudflare's Cache-Tag is sent", async () => {
    const server = await startPrivateServer({
      CDN_PURGE_URL: "http://127.0.0.1:9/client/v4/zones/zone/purge_cache",
      CDN_PURGE_TOKEN: "cloudflare-api-token",
      CDN_PURGE_STYLE: "cloudflare",
      CDN_MAX_AGE_SECONDS: "3600",
    });
    try {
      const long = "public, max-age=0, s-maxage=3600, stale-while-revalidate=86400, stale-if-error=86400";
      for (const path of ["/company/brand", "/company/brand", "/rss.xml"]) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.headers.get("cache-control"), path).toBe(long);
        const keys = response.headers.get("surrogate-key")?.split(" ") ?? [];
        expect(keys[0], path).toBe("site");
        expect(response.headers.get("cache-tag"), path).toBe(keys.join(","));
      }
    } finally {
      await server.stop();
    }
  });
});

test.describe("slow and idle clients", () => {
  test("partial headers and a trickled body are cut within the configured limits; keep-alive outlasts a load balancer's", async () => {
    const server = await startPrivateServer({ HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: "2000" });
    const { port } = new URL(server.url);
    const heldFor = (payload: string, trickle: boolean) =>
      new Promise<number>((resolve, reject) => {
        const started = Date.now();
        const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(payload));
        const drip = trickle ? setInterval(() => socket.write("a"), 300) : undefined;
        // Never wait forever: a server that does not cut the client fails the test.
        const guard = setTimeout(() => socket.destroy(new Error("not cut within 10 s")), 10_000);
        socket.on("data", () => undefined);
        socket.on("error", (error) => {
          clearInterval(drip);
          clearTimeout(guard);
          if (error.message.startsWith("not cut")) reject(error);
        });
        socket.on("close", () => {
          clearInterval(drip);
          clearTimeout(guard);
          resolve(Date.now() - started);
        });
      });
    try {
      // Limits are enforced on a 1 s sweep: cut within the limit plus one sweep (and some slack).
      expect(await heldFor("GET / HTTP/1.1\r\nHost: x\r\n", false)).toBeLessThan(1000 + 2500);
      const body =
        "POST /contact-sales HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n";
      expect(await heldFor(body, true)).toBeLessThan(2000 + 2500);
      const healthy = await fetch(`${server.url}/healthz`);
      expect(healthy.headers.get("keep-alive")).toBe("timeout=65");
    } finally {
      await server.stop();
    }
  });
});
