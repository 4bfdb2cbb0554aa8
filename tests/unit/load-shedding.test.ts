import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShedder, type LoadShedder } from "../../server/load-shedding";

// The shedder on a real HTTP server. A "render" here holds its slot for a set time, as a page
// render holds the server; the line of waiting requests is what the shedder judges by.

const TARGET_MS = 50;
// Long enough that a burst of 150 ms of renders empties well within it on a busy machine (the other
// test files run beside this one).
const INTERVAL_MS = 1_000;
const RENDERS_AT_ONCE = 2;

let shedder: LoadShedder;
let base = "";
let close: () => void;
let renderMs = 10;

beforeAll(async () => {
  const app = express();
  shedder = loadShedder({
    targetMs: TARGET_MS,
    intervalMs: INTERVAL_MS,
    rendersAtOnce: RENDERS_AT_ONCE,
    refuse: (_req, res) => void res.status(503).send("busy"),
  });
  app.use(shedder.middleware);
  app.use((_req, res) => void setTimeout(() => res.send("rendered"), renderMs));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("load shedding", () => {
  it("a burst far larger than the renders at once is served whole: the line empties within the interval", async () => {
    renderMs = 10;
    // 30 renders two at a time take about 150 ms: longer than the target, shorter than the interval.
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${base}/page-${i}`).then((r) => r.status)));
    expect(statuses).toEqual(Array(30).fill(200));
    expect(shedder.waiting()).toBe(0);
  });

  it("a line that never empties for the interval is overload: requests that waited past the target are answered at once", async () => {
    renderMs = 100;
    const answers: Promise<{ status: number; ms: number }>[] = [];
    let sawOverload = false;
    // Five arrivals per render slot's worth of work, for three intervals.
    const until = Date.now() + 3 * INTERVAL_MS;
    while (Date.now() < until) {
      const started = performance.now();
      answers.push(fetch(`${base}/flood`).then(async (r) => ({ status: r.status, ms: performance.now() - started })));
      sawOverload ||= shedder.overloaded();
      await sleep(10);
    }
    // Never queued: health checks, posts (a lead is worth a slow answer), social cards.
    const spared = await Promise.all([
      fetch(`${base}/healthz`),
      fetch(`${base}/contact-sales`, { method: "POST" }),
      fetch(`${base}/resources/blog/a-post/og.png`),
      fetch(`${base}/social-cards/pages/00000000-0000-4000-8000-000000000000.png`),
    ]);
    const settled = await Promise.all(answers);
    expect(sawOverload).toBe(true);
    const shed = settled.filter((answer) => answer.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    expect(settled.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
    // Once overloaded, a refusal comes about when the target has passed, not after the line ahead of
    // it: that line (hundreds of 100 ms renders, two at a time) would take seconds. The bound leaves
    // room for a machine busy with the other test files.
    const lateRefusals = shed.slice(-5).map((answer) => answer.ms);
    expect(Math.max(...lateRefusals)).toBeLessThan(TARGET_MS + 950);
    expect(spared.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });

  it("once the line has emptied, everything renders again", async () => {
    renderMs = 10;
    await expect.poll(() => shedder.overloaded(), { timeout: 2_000 }).toBe(false);
    expect(shedder.waiting()).toBe(0);
    const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => fetch(`${base}/again-${i}`).then((r) => r.status)));
    expect(statuses).toEqual(Array(6).fill(200));
  });

  it("an event loop with no idle moment for half a second is saturated: beyond one render per sample, new ones are refused", async () => {
    renderMs = 50;
    // The loop kept busy in 150 ms slices with only brief turns between, as a flood of requests keeps it.
    let hogging = true;
    const hog = setInterval(() => {
      const until = performance.now() + 150;
      while (performance.now() < until) {
        // busy, as a flood's requests are
      }
      if (!hogging) clearInterval(hog);
    }, 1);
    const stopHog = setTimeout(() => (hogging = false), 8_000);
    try {
      await expect.poll(() => shedder.overloaded(), { timeout: 4_000, interval: 50 }).toBe(true);
      // Arriving together, within one sample: one render still goes ahead (a cold cache fills), the rest are refused.
      const statuses = await Promise.all(
        Array.from({ length: 4 }, (_, i) => fetch(`${base}/saturated-${i}`).then((response) => response.status)),
      );
      expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(2);
      expect(statuses).toContain(200);
    } finally {
      hogging = false;
      clearTimeout(stopHog);
    }
    await expect.poll(() => shedder.overloaded(), { timeout: 3_000 }).toBe(false);
  });

  it("a visitor who gives up waiting leaves the line", async () => {
    renderMs = 300;
    const holders = [fetch(`${base}/hold-1`), fetch(`${base}/hold-2`)];
    await sleep(20);
    const controller = new AbortController();
    const gaveUp = fetch(`${base}/impatient`, { signal: controller.signal }).catch(() => "aborted");
    await expect.poll(() => shedder.waiting()).toBe(1);
    controller.abort();
    expect(await gaveUp).toBe("aborted");
    await expect.poll(() => shedder.waiting()).toBe(0);
    await Promise.all(holders);
  });

  it("a delay of 0 turns shedding off", () => {
    const off = loadShedder({ targetMs: 0, intervalMs: INTERVAL_MS, rendersAtOnce: 1, refuse: () => {} });
    expect(off.overloaded()).toBe(false);
    expect(off.waiting()).toBe(0);
  });
});
