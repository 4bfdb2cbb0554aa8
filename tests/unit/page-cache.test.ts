import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { pageCache } from "../../server/page-cache";

// The page cache in front of a real Express handler on a loopback port.

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

const NONCE = "bm9uY2Utb2YtdGhpcy1yZW5kZXI=";
const OWN_SCRIPT = "window.__router = 1;";
const INJECTED_SCRIPT = "alert(document.cookie)";

/** A page the way the site renders one: a CSP with this render's nonce and scripts carrying it. */
function pageHandler(options: { pauseMs?: number; injected?: boolean } = {}): RequestHandler {
  return (_req, res) => {
    res.locals.cspNonce = NONCE;
    res.setHeader("Content-Security-Policy", `default-src 'self';script-src 'self' 'nonce-${NONCE}' 'strict-dynamic'`);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "private, no-cache");
    res.write(`<!DOCTYPE html><html><body><h1>Hello</h1><script nonce="${NONCE}">${OWN_SCRIPT}</script>`);
    const rest = `${options.injected ? `<script>${INJECTED_SCRIPT}</script>` : ""}</body></html>`;
    if (options.pauseMs) setTimeout(() => res.end(rest), options.pauseMs);
    else res.end(rest);
  };
}

async function serve(handler: RequestHandler, holdMs = 50): Promise<string> {
  const app = express();
  app.use(pageCache({ holdMs }), handler);
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
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
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
    expect(cached.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
    expect(cached.headers.get("content-security-policy")).toContain(hashOf(OWN_SCRIPT));
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
