import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryingBusyNavigations } from "~/platform/busy-retry";

// The browser's retry of a navigation that met a busy server, against a real HTTP server that
// answers 503 (with Retry-After) a set number of times per address before it answers 200.

let server: Server;
let origin = "";
const busyFor = new Map<string, number>();
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    const left = busyFor.get(req.url ?? "") ?? 0;
    if (left > 0) {
      busyFor.set(req.url ?? "", left - 1);
      res.writeHead(503, { "Retry-After": "3", "Content-Type": "text/plain" }).end("busy");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/plain" }).end("data");
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => server.close());

describe("a client-side navigation on a busy server", () => {
  const waits: number[] = [];
  const fetchWithRetry = () =>
    retryingBusyNavigations(fetch, origin, async (ms) => {
      waits.push(ms);
    });

  it("asks once more after Retry-After (at most 2 s) and gets the page's data", async () => {
    busyFor.set("/resources/blog.data", 1);
    asked.length = 0;
    waits.length = 0;
    const response = await fetchWithRetry()(`${origin}/resources/blog.data`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("data");
    expect(asked).toEqual(["GET /resources/blog.data", "GET /resources/blog.data"]);
    expect(waits).toEqual([2_000]);
  });

  it("asks only once: a server still busy gets its 503 shown", async () => {
    busyFor.set("/company/about.data", 5);
    asked.length = 0;
    const response = await fetchWithRetry()(`${origin}/company/about.data`);
    expect(response.status).toBe(503);
    expect(asked).toHaveLength(2);
  });

  it("never sends a form twice, nor retries another site's answers or plain pages", async () => {
    busyFor.set("/contact-sales.data", 1);
    busyFor.set("/company/careers", 1);
    asked.length = 0;
    const post = await fetchWithRetry()(`${origin}/contact-sales.data`, { method: "POST", body: "first_name=A" });
    expect(post.status).toBe(503);
    const page = await fetchWithRetry()(`${origin}/company/careers`);
    expect(page.status).toBe(503);
    busyFor.set("/elsewhere.data", 1);
    const elsewhere = await retryingBusyNavigations(fetch, "https://quorvant.example", async () => {})(
      `${origin}/elsewhere.data`,
    );
    expect(elsewhere.status).toBe(503);
    expect(asked).toEqual(["POST /contact-sales.data", "GET /company/careers", "GET /elsewhere.data"]);
  });
});
