import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/built-server";
import { startPrivateServer, type RunningServer } from "./support/server";

// The metrics' labels come from fixed sets: a flood of distinct unknown addresses (each a render
// of the not-found page, a data request, a refused post) adds no series, and no address reaches
// a label. The metrics are on their own port only.

const DISTINCT_PATHS = 10_000;
/** Requests in flight at once: enough to keep the server busy, few enough for a shared machine. */
const CONCURRENCY = 16;

let server: RunningServer;
let metricsUrl: string;
test.beforeAll(async () => {
  const port = await freePort();
  // Quiet: ten thousand log lines would cost more than the requests.
  server = await startPrivateServer({ METRICS_PORT: String(port), LOG_LEVEL: "warn" });
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});
test.afterAll(async () => {
  await server?.stop();
});

/** The series of the request, page cache and refusal metrics, one line each. */
async function requestSeries(): Promise<string[]> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split("\n")
    .filter((line) => /^quorvant_(http_|page_cache_requests|refused_)/.test(line))
    .map((line) => line.slice(0, line.lastIndexOf(" ")));
}

test("10,000 distinct unknown addresses add no series", async () => {
  test.setTimeout(240_000);
  // Every kind of address once first, so the series they use exist. One in ten is rendered (the
  // not-found page, a missing post, a data request); the others are answered before any route
  // runs (a post to a page without a form, a missing asset, a non-canonical spelling).
  const kinds = (index: number): [string, RequestInit] => {
    const post: RequestInit = { method: "POST", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } };
    if (index % 10 === 0) {
      const render = (index / 10) % 3;
      if (render === 0) return [`/no-such-page-${index}`, {}];
      if (render === 1) return [`/resources/blog/no-such-post-${index}?utm_campaign=c${index}`, {}];
      return [`/no-such-page-${index}.data`, {}];
    }
    if (index % 10 <= 3) return [`/no-such-form-${index}`, post];
    if (index % 10 <= 6) return [`/assets/no-such-${index}.js`, {}];
    return [`/No-Such-Page-${index}/`, { redirect: "manual" }];
  };
  const send = async (index: number) => {
    const [path, init] = kinds(index);
    const response = await fetch(`${server.url}${path}`, init);
    await response.arrayBuffer();
    return response.status;
  };
  for (let index = 0; index < 40; index++) await send(index);
  const before = await requestSeries();

  const started = Date.now();
  let next = 40;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < DISTINCT_PATHS + 40) {
        const status = await send(next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  console.log(
    `${DISTINCT_PATHS} distinct unknown addresses in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  expect([...statuses.keys()].sort()).toEqual([308, 404, 405]);

  const after = await requestSeries();
  expect(after).toEqual(before);
  const text = await (await fetch(metricsUrl)).text();
  expect(text).not.toContain("no-such");
  // Each was counted, under one label.
  const unmatched = text.match(/^quorvant_http_requests_total\{route="unmatched",method="GET",status="4xx"\} (\d+)$/m);
  expect(Number(unmatched?.[1])).toBeGreaterThanOrEqual(((DISTINCT_PATHS / 10) * 2) / 3);

  // The health checks of the start, under their fixed name (latency alerts leave them out).
  expect(text).toMatch(/^quorvant_http_requests_total\{route="healthz",method="GET",status="2xx"\} [1-9]/m);
  expect(text).not.toMatch(/route="[^"]*healthz[^"]+"/);

  // Not on the public port.
  const publicAsk = await fetch(`${server.url}/metrics`);
  expect(publicAsk.status).toBe(404);
  expect(await publicAsk.text()).not.toContain("quorvant_");
});
