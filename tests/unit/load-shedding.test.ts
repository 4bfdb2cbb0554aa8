import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShedder, type LoadShedder } from "../../server/load-shedding";

// The shedder on a real HTTP server, overloaded for real: the test holds this process's event loop
// busy, as a burst of renders would, and then asks for pages while the sample says overloaded.

const SAMPLE_MS = 200;
/**
 * The sample that sees the hold may also hold up to SAMPLE_MS of idle time before it: holding
 * eleven samples long keeps its busy share above the 90 % line whatever the phase.
 */
const HOLD_MS = SAMPLE_MS * 11;

function holdEventLoop(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy, as a render is
  }
}

let shedder: LoadShedder;
let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  // A long delay limit: only the event loop's utilisation can make this server overloaded.
  shedder = loadShedder({ maxDelayMs: 10_000, sampleMs: SAMPLE_MS, exempt: (req) => req.path === "/known" });
  app.use(shedder.middleware);
  app.use((_req, res) => void res.send("rendered"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

async function untilOverloaded(expected: boolean) {
  const deadline = Date.now() + 5 * SAMPLE_MS;
  while (shedder.overloaded() !== expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(shedder.overloaded()).toBe(expected);
}

describe("load shedding", () => {
  it("a quiet server renders everything", async () => {
    await untilOverloaded(false);
    for (const path of ["/a", "/b", "/c"]) expect((await fetch(`${base}${path}`)).status).toBe(200);
  });

  it("a loop busy all the time (each render short, so its delay stays low) sheds new renders beyond one per sample", async () => {
    holdEventLoop(HOLD_MS);
    await untilOverloaded(true);
    // All at once, so that they all arrive within the overloaded sample. One render per sample
    // still goes ahead (a cold server under load fills its cache), the other is shed.
    const [first, second, known, health, post, card] = await Promise.all([
      fetch(`${base}/first`),
      fetch(`${base}/second`),
      fetch(`${base}/known`),
      fetch(`${base}/healthz`),
      fetch(`${base}/form`, { method: "POST" }),
      fetch(`${base}/resources/blog/a-post/og.png`),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 503]);
    const shed = first.status === 503 ? first : second;
    expect(shed.headers.get("retry-after")).toBe("1");
    expect(shed.headers.get("cache-control")).toBe("no-store");
    // Never shed: the refresh of a page the cache holds, health checks, form posts and social
    // cards (a crawler that gets a 503 shows the post without its picture).
    expect([known.status, health.status, post.status, card.status]).toEqual([200, 200, 200, 200]);
  });

  it("once the loop has idled through a sample, renders go ahead again", async () => {
    await untilOverloaded(false);
    expect((await fetch(`${base}/third`)).status).toBe(200);
  });

  it("a limit of 0 turns shedding off", () => {
    holdEventLoop(50);
    expect(loadShedder({ maxDelayMs: 0 }).overloaded()).toBe(false);
  });
});
