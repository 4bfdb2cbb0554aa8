import { createHash } from "node:crypto";
import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { rawRequest, type RawResponse } from "../../scripts/lib/raw-request";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

// Cache hits are answered before the rest of the server: these tests pin down that a hit is the
// same answer it always was (headers, codings, 304, HEAD, its log line) and that the rules in
// front of the cache (redirects, 400, 405) still hold for URLs of cached pages.

test.describe.configure({ mode: "serial" });

let server: RunningServer;
test.beforeAll(async () => {
  // Trusts one proxy hop, so that a request can say it arrived over https; logs every request.
  server = await startPrivateServer({ TRUST_PROXY: "1", LOG_LEVEL: "info" });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A request to the shared server whose body comes back exactly as sent (compressed bodies are not decoded). */
function raw(path: string, options?: Parameters<typeof rawRequest>[1]): Promise<RawResponse> {
  return rawRequest(`${server.url}${path}`, options);
}

/**
 * The request answered from the cache. A page stays cached for a second, so a request right
 * after another is a hit; on a busy machine it is simply asked again (no timing assumed).
 */
async function hit(path: string, options: Parameters<typeof raw>[1] = {}): Promise<RawResponse> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await raw(path, options);
    if (response.headers["x-page-cache"] === "HIT") return response;
  }
  throw new Error(`${path} was never answered from the cache`);
}

/** Every header a cached page's hit carries, with the value of those that are the same on every hit. */
const HIT_HEADERS: Record<string, string | RegExp> = {
  age: /^\d+$/,
  "cache-control": "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400",
  connection: "keep-alive",
  "content-encoding": "br",
  "content-length": /^\d+$/,
  "content-security-policy": /^default-src 'self';script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;style-src/,
  "content-type": "text/html; charset=utf-8",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  date: /GMT$/,
  etag: /^"[A-Za-z0-9_-]{32}-br"$/,
  "keep-alive": /^timeout=\d+$/,
  "origin-agent-cluster": "?1",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  "referrer-policy": "strict-origin-when-cross-origin",
  // What a CDN in front purges it by: the site, the menus, the page's document.
  "surrogate-key": /^site nav page:[0-9a-f-]{36}$/,
  vary: "Accept-Encoding",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "DENY",
  "x-page-cache": "HIT",
  "x-permitted-cross-domain-policies": "none",
  "x-request-id": /^[0-9a-f-]{36}$/,
  "x-xss-protection": "0",
};

const CSP_AFTER_SCRIPTS =
  ";style-src 'self' 'unsafe-inline';img-src 'self' data: https:;font-src 'self';connect-src 'self';" +
  "frame-src https://www.youtube-nocookie.com https://player.vimeo.com;frame-ancestors 'none';form-action 'self';" +
  "base-uri 'none';object-src 'none'";

const withoutPerResponse = (headers: Record<string, string>) => {
  const { date: _date, "x-request-id": _id, age: _age, ...rest } = headers;
  return rest;
};

test("a hit carries exactly the headers it always had: security headers, a CSP with hashes, no nonce", async () => {
  const response = await hit("/company/charter", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(Object.keys(response.headers).sort()).toEqual(Object.keys(HIT_HEADERS).sort());
  for (const [name, expected] of Object.entries(HIT_HEADERS)) {
    if (typeof expected === "string") expect(response.headers[name], name).toBe(expected);
    else expect(response.headers[name], name).toMatch(expected);
  }
  const csp = response.headers["content-security-policy"]!;
  expect(csp).not.toContain("nonce-");
  expect(csp.endsWith(CSP_AFTER_SCRIPTS)).toBe(true);
  // The hashes are those of the page's own inline scripts, and the page carries no nonce.
  const html = brotliDecompressSync(response.body).toString("utf8");
  expect(html).not.toContain("nonce=");
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)];
  expect(inline.length).toBeGreaterThan(0);
  for (const [, script] of inline) {
    expect(csp).toContain(`'sha256-${createHash("sha256").update(script!).digest("base64")}'`);
  }
  expect(Number(response.headers["content-length"])).toBe(response.body.length);
});

test("a hit's security headers are those of a response rendered for one visitor", async () => {
  const cached = await hit("/company/charter");
  const rendered = await raw(`/no-such-page-${Date.now()}`);
  expect(rendered.headers["x-page-cache"]).toBe("MISS");
  for (const name of Object.keys(HIT_HEADERS).filter((header) =>
    /^(x-|cross-origin|origin-agent|referrer|permissions)/.test(header),
  )) {
    if (["x-page-cache", "x-request-id"].includes(name)) continue;
    expect(cached.headers[name], name).toBe(rendered.headers[name]);
  }
  const policyWithoutScripts = (csp: string) => csp.replace(/script-src[^;]*/, "script-src");
  expect(policyWithoutScripts(cached.headers["content-security-policy"]!)).toBe(
    policyWithoutScripts(rendered.headers["content-security-policy"]!),
  );
});

test("brotli, gzip and identity hits decode to the same page, each with its own strong ETag", async () => {
  const br = await hit("/company/about", { headers: { "accept-encoding": "gzip, deflate, br" } });
  const gzip = await hit("/company/about", { headers: { "accept-encoding": "gzip" } });
  const identity = await hit("/company/about", { headers: { "accept-encoding": "identity" } });
  expect(br.headers["content-encoding"]).toBe("br");
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(identity.headers["content-encoding"]).toBeUndefined();
  const html = identity.body.toString("utf8");
  expect(html).toContain("</html>");
  expect(brotliDecompressSync(br.body).toString("utf8")).toBe(html);
  expect(gunzipSync(gzip.body).toString("utf8")).toBe(html);
  const version = identity.headers.etag!.slice(1, -1);
  expect(br.headers.etag).toBe(`"${version}-br"`);
  expect(gzip.headers.etag).toBe(`"${version}-gzip"`);
});

test("If-None-Match with the page's ETag gets 304 from the cache, with the headers of the 200 but the body's", async () => {
  const full = await hit("/company/careers", { headers: { "accept-encoding": "br" } });
  const revalidated = await hit("/company/careers", {
    headers: { "accept-encoding": "br", "if-none-match": full.headers.etag! },
  });
  expect(revalidated.status).toBe(304);
  expect(revalidated.body.length).toBe(0);
  const {
    "content-type": _type,
    "content-encoding": _encoding,
    "content-length": _length,
    ...rest
  } = withoutPerResponse(full.headers);
  expect(withoutPerResponse(revalidated.headers)).toEqual(rest);
  expect(revalidated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  // Another coding's tag names the same version; another version's tag gets the page.
  const otherCoding = await hit("/company/careers", {
    headers: { "accept-encoding": "br", "if-none-match": full.headers.etag!.replace(/-br"$/, '-gzip"') },
  });
  expect(otherCoding.status).toBe(304);
  const stale = await hit("/company/careers", { headers: { "accept-encoding": "br", "if-none-match": '"not-this-version-br"' } });
  expect(stale.status).toBe(200);
});

test("HEAD of a cached page gets exactly the headers of GET and no body", async () => {
  const get = await hit("/company/brand", { headers: { "accept-encoding": "br" } });
  const head = await hit("/company/brand", { method: "HEAD", headers: { "accept-encoding": "br" } });
  expect(withoutPerResponse(head.headers)).toEqual(withoutPerResponse(get.headers));
  expect(head.body.length).toBe(0);
});

test("a hit over https (through the trusted proxy) gets HSTS; over http it does not", async () => {
  const https = await hit("/company/charter", { headers: { "x-forwarded-proto": "https" } });
  // The HSTS setting's default: two years with subdomains; preloading is the operator's choice.
  expect(https.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  const http = await hit("/company/charter");
  expect(http.headers["strict-transport-security"]).toBeUndefined();
});

test("a hit is logged on one line with its request id, method, url, status and response time", async () => {
  const response = await hit("/company/charter?utm_source=log-test");
  const requestId = response.headers["x-request-id"]!;
  await expect.poll(() => server.output().includes(requestId)).toBe(true);
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.includes(requestId));
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(entry).toMatchObject({
    level: "info",
    requestId,
    req: { method: "GET", url: "/company/charter?utm_source=log-test" },
    res: { statusCode: 200 },
    msg: "request completed",
  });
  expect(typeof entry.responseTime).toBe("number");
  expect(typeof entry.time).toBe("string");
});

for (const [path, type] of [
  ["/robots.txt", "text/plain; charset=utf-8"],
  ["/rss.xml", "application/rss+xml; charset=utf-8"],
  ["/sitemap.xml", "application/xml; charset=utf-8"],
] as const) {
  test(`${path} is answered from the cache, precompressed, with the security headers`, async () => {
    const response = await hit(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe(type);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}-br"$/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(brotliDecompressSync(response.body).length).toBeGreaterThan(0);
  });
}

test("the rules in front of the cache hold for a cached page's URL", async () => {
  await hit("/company/charter");
  // Other spellings of the path redirect to it; other methods are not allowed; a bad URL is refused.
  for (const path of ["/company/charter/", "/Company/Charter", "//company/charter"]) {
    const response = await raw(path);
    expect(response.status, path).toBe(308);
    expect(response.headers.location).toBe("/company/charter");
  }
  const deleted = await raw("/company/charter", { method: "DELETE" });
  expect(deleted.status).toBe(405);
  expect(deleted.headers.allow).toBe("GET, HEAD");
  expect((await raw("/company/charter%E0%A4%A")).status).toBe(400);
});

test("a path cached under a spelling only a fragment let through still redirects", async () => {
  // Sent raw (clients drop fragments): the app renders `/company/brand/` and may cache it under
  // that path, which must not make the plain `/company/brand/` skip its redirect.
  const { port, hostname } = new URL(server.url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      // Written, not ended: a half-closed connection is an aborted request.
      socket.write(`GET /company/brand/#section HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("end", () => {
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      resolve();
    });
    socket.on("error", reject);
  });
  const response = await raw("/company/brand/");
  expect(response.status).toBe(308);
  expect(response.headers.location).toBe("/company/brand");
});
