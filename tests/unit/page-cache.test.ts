import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express, { type RequestHandler } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache } from "../../server/page-cache";
import { rawRequest } from "../../scripts/lib/raw-request";

// The page cache in front of a real Express handler on a loopback port.

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

const NONCE = "bm9uY2Utb2YtdGhpcy1yZW5kZXI=";
const OWN_SCRIPT = "window.__router = 1;";
const INJECTED_SCRIPT = "alert(document.cookie)";

/** A page the way the site renders one: a CSP with this render's nonce and scripts carrying it. */
function pageHandler(options: { pauseMs?: number; injected?: boolean; surrogateKey?: string } = {}): RequestHandler {
  return (_req, res) => {
    res.locals.cspNonce = NONCE;
    if (options.surrogateKey) res.setHeader("Surrogate-Key", options.surrogateKey);
    res.setHeader("Content-Security-Policy", `default-src 'self';script-src 'self' 'nonce-${NONCE}' 'strict-dynamic'`);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "private, no-cache");
    res.write(`<!DOCTYPE html><html><body><h1>Hello</h1><script nonce="${NONCE}">${OWN_SCRIPT}</script>`);
    const rest = `${options.injected ? `<script>${INJECTED_SCRIPT}</script>` : ""}</body></html>`;
    if (options.pauseMs) setTimeout(() => res.end(rest), options.pauseMs);
    else res.end(rest);
  };
}

async function serve(handler: RequestHandler, holdMs = 50, sharedCacheControl?: string): Promise<string> {
  const app = express();
  app.use(createPageCache({ holdMs, sharedCacheControl }).middleware, handler);
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const hashOf = (script: string) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`;

describe("page cache", () => {
  it("answers a quick render in its shareable form at once: hashes, no nonce, a strong ETag", async () => {
    const base = await serve(pageHandler());
    const first = await fetch(`${base}/about`);
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    expect(first.headers.get("content-security-policy")).toContain(hashOf(OWN_SCRIPT));
    expect(first.headers.get("content-security-policy")).not.toContain("nonce-");
    expect(first.headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400",
    );
    const html = await first.text();
    expect(html).not.toContain("nonce=");

    const second = await fetch(`${base}/about`);
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await second.text()).toBe(html);
    const revalidated = await fetch(`${base}/about`, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
  });

  it("streams a slow render with its nonce, private to this visitor, and caches the shareable copy", async () => {
    const base = await serve(pageHandler({ pauseMs: 300 }));
    const streamed = await fetch(`${base}/slow`);
    expect(streamed.headers.get("x-page-cache")).toBe("MISS");
    expect(streamed.headers.get("content-security-policy")).toContain(`'nonce-${NONCE}'`);
    expect(streamed.headers.get("cache-control")).toBe("private, no-cache");
    expect(streamed.headers.get("etag")).toBeNull();
    expect(await streamed.text()).toContain(`nonce="${NONCE}"`);

    const cached = await fetch(`${base}/slow`);
    expect(cached.headers.get("x-page-cache")).toBe("HIT");
    expect(cached.headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=86400",
    );
    expect(cached.headers.get("content-security-policy")).toContain(hashOf(OWN_SCRIPT));
  });

  it("keeps a page's surrogate keys with its shareable copy, and drops them from a streamed private one", async () => {
    const longer = "public, max-age=0, s-maxage=86400, stale-while-revalidate=86400, stale-if-error=86400";
    const base = await serve(pageHandler({ surrogateKey: "site nav page:1" }), 50, longer);
    const first = await fetch(`${base}/keyed`);
    const hit = await fetch(`${base}/keyed`);
    expect(hit.headers.get("x-page-cache")).toBe("HIT");
    for (const response of [first, hit]) {
      expect(response.headers.get("surrogate-key")).toBe("site nav page:1");
      expect(response.headers.get("cache-control")).toBe(longer);
    }
    const slow = await serve(pageHandler({ pauseMs: 300, surrogateKey: "site nav page:2" }));
    const streamed = await fetch(`${slow}/slow-keyed`);
    expect(streamed.headers.get("cache-control")).toBe("private, no-cache");
    expect(streamed.headers.get("surrogate-key")).toBeNull();
    await streamed.text();
    expect((await fetch(`${slow}/slow-keyed`)).headers.get("surrogate-key")).toBe("site nav page:2");
  });

  it("never blesses an inline script this render did not emit", async () => {
    const base = await serve(pageHandler({ injected: true }));
    const response = await fetch(`${base}/injected`);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain(hashOf(OWN_SCRIPT));
    expect(csp).not.toContain(hashOf(INJECTED_SCRIPT));
  });

  it("serves HEAD with the headers of GET", async () => {
    const base = await serve(pageHandler());
    const head = await fetch(`${base}/head`, { method: "HEAD" });
    const get = await fetch(`${base}/head`);
    for (const name of ["content-type", "content-length", "etag", "cache-control", "content-security-policy"]) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
  });
});

/**
 * The cache as the server mounts it: hits answered before Express by `serveHit`, everything else
 * through Express, where the middleware renders and stores. `renders` counts what reached the page.
 */
async function serveWithHitsFirst(options: { secure?: boolean } = {}) {
  // A long life: a page stays cached however slow the machine, so every second request is a hit.
  const pages = createPageCache({ ttlMs: 60_000 });
  const counter = { renders: 0 };
  const app = express();
  app.use(pages.middleware, (req, res, next) => {
    counter.renders += 1;
    pageHandler()(req, res, next);
  });
  let requests = 0;
  const server = createServer((req, res) => {
    const page = pages.lookup(req);
    if (!page) return void app(req, res);
    requests += 1;
    pages.serveHit(req, res, page, {
      requestId: `hit-${requests}`,
      secure: options.secure ?? false,
      strictTransportSecurity: "max-age=63072000; includeSubDomains; preload",
    });
  }).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counter, pages };
}

/** Headers that differ between any two responses (the date, the request's id, the page's age). */
const withoutPerResponse = (headers: Record<string, string>) => {
  const { date: _date, "x-request-id": _id, age: _age, "x-page-cache": _cache, ...rest } = headers;
  return rest;
};

describe("cache hits answered before the app", () => {
  it("send the headers of the cached answer they repeat, for every coding, and do not render again", async () => {
    const { base, counter } = await serveWithHitsFirst();
    for (const acceptEncoding of ["br", "gzip", "identity"]) {
      const path = `/page-${acceptEncoding}`;
      const miss = await rawRequest(`${base}${path}`, { headers: { "accept-encoding": acceptEncoding } });
      const hit = await rawRequest(`${base}${path}`, { headers: { "accept-encoding": acceptEncoding } });
      expect(miss.headers["x-page-cache"]).toBe("MISS");
      expect(hit.headers["x-page-cache"]).toBe("HIT");
      expect(withoutPerResponse(hit.headers)).toEqual(withoutPerResponse(miss.headers));
      expect(hit.body.equals(miss.body)).toBe(true);
      expect(hit.headers["x-request-id"]).toMatch(/^hit-\d+$/);
      expect(hit.headers.age).toMatch(/^\d+$/);
    }
    expect(counter.renders).toBe(3);
  });

  it("decode to the same page in brotli, gzip and identity, each under its own strong ETag", async () => {
    const { base } = await serveWithHitsFirst();
    await rawRequest(`${base}/codings`);
    const br = await rawRequest(`${base}/codings`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    const gzip = await rawRequest(`${base}/codings`, { headers: { "accept-encoding": "gzip" } });
    const identity = await rawRequest(`${base}/codings`);
    expect([br, gzip, identity].map((response) => response.headers["x-page-cache"])).toEqual(["HIT", "HIT", "HIT"]);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    const html = identity.body.toString("utf8");
    expect(html).toContain("<h1>Hello</h1>");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(html);
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(html);
    for (const response of [br, gzip, identity]) {
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
      expect(response.headers.vary).toBe("Accept-Encoding");
    }
    const tags = [br, gzip, identity].map((response) => response.headers.etag!);
    expect(tags[0]).toBe(tags[2]!.replace(/"$/, '-br"'));
    expect(tags[1]).toBe(tags[2]!.replace(/"$/, '-gzip"'));
  });

  it("compress a page only in the codings clients have asked for", async () => {
    const { base, pages } = await serveWithHitsFirst();
    const stored = (path: string) =>
      pages.lookup({ method: "GET", url: path, headers: {} } as Parameters<typeof pages.lookup>[0])!;
    await rawRequest(`${base}/asked-once`);
    expect(Object.keys(stored("/asked-once").representations)).toEqual(["identity"]);
    const br = await rawRequest(`${base}/asked-once`, { headers: { "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Object.keys(stored("/asked-once").representations).sort()).toEqual(["br", "identity"]);
  });

  it("answer 304 when If-None-Match names the page version in any coding, with the 200's headers but the body's", async () => {
    const { base } = await serveWithHitsFirst();
    await rawRequest(`${base}/conditional`);
    const full = await rawRequest(`${base}/conditional`, { headers: { "accept-encoding": "br" } });
    const tag = full.headers.etag!;
    for (const ifNoneMatch of [tag, tag.replace(/-br"$/, '"'), `"other", ${tag.replace(/-br"$/, '-gzip"')}`, "*"]) {
      const revalidated = await rawRequest(`${base}/conditional`, {
        headers: { "accept-encoding": "br", "if-none-match": ifNoneMatch },
      });
      expect(revalidated.status, ifNoneMatch).toBe(304);
      expect(revalidated.headers["x-page-cache"]).toBe("HIT");
      expect(revalidated.body.length).toBe(0);
      const {
        "content-type": _type,
        "content-encoding": _encoding,
        "content-length": _length,
        ...rest
      } = withoutPerResponse(full.headers);
      expect(withoutPerResponse(revalidated.headers)).toEqual(rest);
    }
    const changed = await rawRequest(`${base}/conditional`, {
      headers: { "accept-encoding": "br", "if-none-match": '"an-old-version-br"' },
    });
    expect(changed.status).toBe(200);
  });

  it("answer HEAD with exactly the headers of GET and no body", async () => {
    const { base } = await serveWithHitsFirst();
    await rawRequest(`${base}/head-hit`);
    const get = await rawRequest(`${base}/head-hit`, { headers: { "accept-encoding": "br" } });
    const head = await rawRequest(`${base}/head-hit`, { method: "HEAD", headers: { "accept-encoding": "br" } });
    expect(head.headers["x-page-cache"]).toBe("HIT");
    expect(withoutPerResponse(head.headers)).toEqual(withoutPerResponse(get.headers));
    expect(head.body.length).toBe(0);
  });

  it("add HSTS only to a request that arrived over https", async () => {
    const secure = await serveWithHitsFirst({ secure: true });
    await rawRequest(`${secure.base}/hsts`);
    const overHttps = await rawRequest(`${secure.base}/hsts`);
    expect(overHttps.headers["x-page-cache"]).toBe("HIT");
    expect(overHttps.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains; preload");
    const plain = await serveWithHitsFirst();
    await rawRequest(`${plain.base}/hsts`);
    const overHttp = await rawRequest(`${plain.base}/hsts`);
    expect(overHttp.headers["x-page-cache"]).toBe("HIT");
    expect(overHttp.headers["strict-transport-security"]).toBeUndefined();
  });

  it("leave to the app every URL it would not answer with the cached page", async () => {
    const { base, counter } = await serveWithHitsFirst();
    await rawRequest(`${base}/about`);
    const before = counter.renders;
    // Another spelling of the path (the app redirects it) or another method.
    for (const [method, path] of [
      ["GET", "/about/"],
      ["GET", "/About"],
      ["POST", "/about"],
      ["DELETE", "/about"],
    ] as const) {
      const response = await rawRequest(`${base}${path}`, { method });
      expect(response.headers["x-page-cache"], `${method} ${path}`).not.toBe("HIT");
    }
    expect(counter.renders).toBeGreaterThan(before);
    // Parameters the page does not read neither vary the cache nor render anew.
    const ignored = await rawRequest(`${base}/about?x=123`);
    expect(ignored.headers["x-page-cache"]).toBe("HIT");
  });
});

describe("stale if busy", () => {
  it("answers with the last good copy of a page past its freshness when asked to, and never stores that answer as new", async () => {
    const pages = createPageCache({ ttlMs: 100, staleMs: 60_000 });
    let busy = false;
    let version = 1;
    const app = express();
    app.use(pages.middleware, (req, res) => {
      // Standing in for the load shedder: a busy server does not render, it serves what it has.
      if (busy) return void (pages.serveStale(req, res) || res.status(503).send("busy"));
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(`<!DOCTYPE html><p>version ${version}</p>`);
    });
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    expect(await (await fetch(`${base}/about`)).text()).toContain("version 1");
    version = 2;
    await new Promise((resolve) => setTimeout(resolve, 150));
    busy = true;
    const stale = await fetch(`${base}/about`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-page-cache")).toBe("STALE");
    expect(await stale.text()).toContain("version 1");
    // A page never stored has no copy to give.
    expect((await fetch(`${base}/never-rendered`)).status).toBe(503);
    // The stale answer was not stored as a fresh copy: once the server can render, it does.
    busy = false;
    const fresh = await fetch(`${base}/about`);
    expect(fresh.headers.get("x-page-cache")).toBe("MISS");
    expect(await fresh.text()).toContain("version 2");
  });
});

describe("campaign variants", () => {
  /** The cache with hits answered first, as the server mounts it; each render says which address it rendered. */
  async function serveCampaignPages() {
    const pages = createPageCache({ ttlMs: 60_000, campaignVariantsPerSecond: 1 });
    const rendered: string[] = [];
    const app = express();
    app.use(pages.middleware, (req, res) => {
      rendered.push(req.originalUrl);
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(`<!DOCTYPE html><form action="${req.originalUrl}"></form>`);
    });
    const server = createServer((req, res) => {
      const page = pages.lookup(req);
      if (!page) return void app(req, res);
      pages.serveHit(req, res, page, { requestId: "hit", secure: false, strictTransportSecurity: undefined });
    }).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, rendered };
  }

  it("are rendered within their budget; beyond it a made-up campaign gets the plain page, rendered once", async () => {
    const { base, rendered } = await serveCampaignPages();
    const answers: string[] = [];
    for (let n = 1; n <= 12; n++) answers.push(await (await fetch(`${base}/contact-sales?utm_source=flood-${n}&x=${n}`)).text());
    // Two in a burst at one a second, then the plain page (rendered by the first over budget, a hit after).
    expect(rendered.length).toBeLessThanOrEqual(4);
    expect(rendered).toContain("/contact-sales");
    expect(rendered.filter((url) => url === "/contact-sales")).toHaveLength(1);
    expect(answers[0]).toContain('action="/contact-sales?utm_source=flood-1&x=1"');
    expect(answers.at(-1)).toContain('action="/contact-sales"');
    // A campaign already cached is still its own page, and a page without campaign parameters is untouched.
    expect(await (await fetch(`${base}/contact-sales?utm_source=flood-1&x=1`)).text()).toBe(answers[0]);
    expect(await (await fetch(`${base}/resources/blog?category=research&utm_source=a`)).text()).toContain(
      'action="/resources/blog?category=research&utm_source=a"',
    );
  });

  it("keep no parameter beyond the budget other than the ones that change the page", async () => {
    const { base } = await serveCampaignPages();
    for (let n = 1; n <= 6; n++) await fetch(`${base}/company/careers?utm_source=s${n}&apply=1`);
    const html = await (await fetch(`${base}/company/careers?utm_source=late&apply=1`)).text();
    expect(html).toContain('action="/company/careers?apply=1"');
  });

  it("key a translated address by the parameters of its English one", async () => {
    const { base, rendered } = await serveCampaignPages();
    await fetch(`${base}/de/unternehmen/karriere?apply=1&x=1`);
    await fetch(`${base}/de/unternehmen/karriere?apply=1&x=2`);
    await fetch(`${base}/de/ressourcen/blog?category=research&x=3`);
    expect(await (await fetch(`${base}/de/unternehmen/karriere`)).text()).not.toContain("apply=1");
    // Each page rendered once per query it reads: ?apply=1 is not the careers page, x is nothing.
    expect(rendered).toEqual([
      "/de/unternehmen/karriere?apply=1&x=1",
      "/de/ressourcen/blog?category=research&x=3",
      "/de/unternehmen/karriere",
    ]);
  });
});

describe("re-rendering", () => {
  async function cachedAbout(ttlMs: number) {
    const pages = createPageCache({ ttlMs });
    const app = express();
    app.use(pages.middleware, pageHandler());
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/about`);
    return pages;
  }
  const request = () => ({ method: "GET", url: "/about", headers: {} }) as IncomingMessage;

  it("at half-life sends one request to re-render and answers the others with the copy while it waits its turn", async () => {
    const pages = await cachedAbout(2_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past half its life, not expired
    expect(pages.lookup(request())).toBeUndefined(); // this one re-renders
    expect(pages.lookup(request())).toBeDefined(); // the ones behind it get the copy
    expect(pages.lookup(request())).toBeDefined();
  });

  it("once expired (an overloaded server does not re-render at half-life) sends one request, not every request, to the render", async () => {
    const pages = await cachedAbout(300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(pages.lookup(request())).toBeUndefined();
    expect(pages.lookup(request())).toBeDefined();
  });
});
