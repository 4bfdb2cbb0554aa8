import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache } from "../../server/page-cache";

// Content published on this server shows at once: the publish hook's paths mark their cached
// copies out of date (every query variant, prefixes too), and the others stay cached.

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

describe("the page cache told of a content change", () => {
  it("renders the changed paths again at once and keeps the others", async () => {
    let version = 1;
    const cache = createPageCache({ ttlMs: 60_000 });
    const app = express();
    app.use(cache.middleware, (_req, res) => {
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(`<!DOCTYPE html><html><body>version ${version}</body></html>`);
    });
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      return `${response.headers.get("x-page-cache")} ${await response.text()}`;
    };

    for (const path of ["/product", "/resources/blog/a-post", "/resources/blog?category=research", "/company/about"])
      await get(path);
    version = 2;
    expect(await get("/product")).toContain("HIT");
    expect(cache.forget(["/product", "/resources/blog/*"])).toBe(3);
    expect(await get("/product")).toBe("MISS <!DOCTYPE html><html><body>version 2</body></html>");
    expect(await get("/resources/blog/a-post")).toContain("version 2");
    expect(await get("/resources/blog?category=research")).toContain("version 2");
    expect(await get("/company/about")).toBe("HIT <!DOCTYPE html><html><body>version 1</body></html>");
  });
});
