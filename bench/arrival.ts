// `npm run bench:arrival` (after `npm run build`): what a response header costs a visitor's first
// paint, by how the visitor arrives. Lighthouse opens every page from about:blank in the same tab;
// a visitor follows a link from another site. `Cross-Origin-Opener-Policy` makes Lighthouse's
// navigation commit in a fresh renderer process (docs/decisions/020-blocking-time-floor.md); a
// link from another site commits in one with or without it, since sites are isolated. This prints
// both, so the header's cost in the benchmark is not taken for a visitor's.
//
// This checkout's build is served through two loopback proxies under another site's name: one
// passes its answers as they are, the other drops the headers ARRIVAL_WITHOUT names
// (comma-separated, default cross-origin-opener-policy). Each visit is a fresh browser context at
// 1× CPU and a phone's width, interleaved as in bench:lighthouse. ARRIVAL_RUNS: rounds (5).
// ARRIVAL_SITE_ISOLATION=off runs Chromium without strict site isolation (as on Android, which
// isolates only some sites).
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/lib/chromium";
import { inRoundOrder, median, medianAndSpread, NO_REFERENCE, startComparedBuilds } from "./support/compared-builds";
import { representativePages } from "./support/representative-pages";

const ROUNDS = Number(process.env.ARRIVAL_RUNS ?? 5);
const WITHOUT = (process.env.ARRIVAL_WITHOUT ?? "cross-origin-opener-policy").toLowerCase().split(",").filter(Boolean);
const STRICT_SITE_ISOLATION = process.env.ARRIVAL_SITE_ISOLATION !== "off";
/** The kinds of page measured, of bench/support/representative-pages.ts. */
const PAGE_NAMES = ["home", "post", "form"];
const ARRIVALS = ["from about:blank", "by a link from another site"] as const;
type Arrival = (typeof ARRIVALS)[number];

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host === "127.0.0.1" ? "localhost" : host}:${(server.address() as AddressInfo).port}`;
}

/** Forwards to `upstream`, dropping the response headers named in `without`. */
function headerProxy(upstream: URL, without: readonly string[]): Server {
  return createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer: IncomingMessage) => {
        const headers = { ...answer.headers };
        for (const name of without) delete headers[name];
        outgoing.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
}

/** A page of another site with one link: where the visitor comes from. */
function otherSite(): Server {
  return createServer((incoming, outgoing) => {
    const to = new URL(incoming.url ?? "/", "http://other").searchParams.get("to") ?? "/";
    outgoing.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    outgoing.end(`<!DOCTYPE html><html lang="en"><title>Elsewhere</title><a id="go" href="${encodeURI(to)}">Quorvant</a></html>`);
  });
}

type Visit = { firstPaintMs: number; longestTaskMs: number };

/** One visit in a fresh context: the destination's first contentful paint and its renderer's longest task until load. */
async function visit(browser: Browser, url: string, arrival: Arrival, otherSiteUrl: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    if (arrival !== "from about:blank") await page.goto(`${otherSiteUrl}/?to=${encodeURIComponent(url)}`);
    const cdp = await context.newCDPSession(page);
    const events: { name: string; ph: string; pid: number; dur?: number }[] = [];
    cdp.on("Tracing.dataCollected", ({ value }) => events.push(...(value as unknown as typeof events)));
    const traced = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", {
      categories: "devtools.timeline,disabled-by-default-devtools.timeline",
      transferMode: "ReportEvents",
    });
    if (arrival === "from about:blank") await page.goto(url, { waitUntil: "load" });
    else await Promise.all([page.waitForURL(url, { waitUntil: "load" }), page.locator("#go").click()]);
    await cdp.send("Tracing.end");
    await traced;
    // The first paint may come after the load event.
    const firstPaintMs = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          new PerformanceObserver((list) => {
            const paint = list.getEntriesByName("first-contentful-paint")[0];
            if (paint) resolve(paint.startTime);
          }).observe({ type: "paint", buffered: true }),
        ),
    );
    // The destination's renderer: the process that parsed its document.
    const renderers = new Set(events.filter((event) => event.name === "ParseHTML").map((event) => event.pid));
    const tasks = events.filter((event) => event.name === "RunTask" && event.ph === "X" && renderers.has(event.pid));
    return { firstPaintMs, longestTaskMs: Math.max(0, ...tasks.map((task) => (task.dur ?? 0) / 1000)) };
  } finally {
    await context.close();
  }
}

const { builds, stop } = await startComparedBuilds(NO_REFERENCE);
const upstream = new URL(builds[0]!.server.url);
const variants = [
  { name: "with", server: headerProxy(upstream, []) },
  { name: "without", server: headerProxy(upstream, WITHOUT) },
];
const elsewhere = otherSite();
let browser: Browser | undefined;
try {
  const pages = (await representativePages(upstream.origin))
    .filter(([name]) => PAGE_NAMES.includes(name))
    .map(([name, path]) => ({ name, path }));
  // Our pages under "localhost", the other site under 127.0.0.2: two sites.
  const origins = await Promise.all(variants.map(({ server }) => listen(server, "127.0.0.1")));
  const otherSiteUrl = await listen(elsewhere, "127.0.0.2");
  const served = variants.map(({ name }, index) => ({ name, origin: origins[index]! }));
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...(STRICT_SITE_ISOLATION ? [] : ["--disable-site-isolation-trials"])],
  });
  console.log(
    `Arrival, ${ROUNDS} rounds, 1× CPU, Chromium ${browser.version()}${STRICT_SITE_ISOLATION ? "" : " without strict site isolation"}`,
  );
  console.log(`  with     this build's answers as they are`);
  console.log(`  without  the same less ${WITHOUT.join(", ")}\n`);

  const results = new Map<string, Visit[]>();
  const key = (arrival: Arrival, page: string, variant: string) => `${arrival}|${page}|${variant}`;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const arrival of ARRIVALS) {
      for (const page of pages) {
        for (const variant of inRoundOrder(served, round)) {
          const measured = await visit(browser, `${variant.origin}${page.path}`, arrival, otherSiteUrl);
          const list = results.get(key(arrival, page.name, variant.name)) ?? [];
          list.push(measured);
          results.set(key(arrival, page.name, variant.name), list);
        }
      }
    }
    process.stdout.write(`round ${round + 1} of ${ROUNDS} done\n`);
  }

  console.log("\nMedians (lowest–highest), ms:");
  console.log(
    `${"arrival".padEnd(28)} ${"page".padEnd(5)} ${"first paint with".padEnd(18)} ${"without".padEnd(18)} ${"ratio".padEnd(6)} ${"longest task with".padEnd(18)} without`,
  );
  for (const arrival of ARRIVALS) {
    for (const page of pages) {
      const [withHeader, withoutHeader] = variants.map(({ name }) => results.get(key(arrival, page.name, name)) ?? []);
      const paint = (visits: Visit[]) => visits.map((v) => v.firstPaintMs);
      const task = (visits: Visit[]) => visits.map((v) => v.longestTaskMs);
      const ratio = median(paint(withHeader!)) / median(paint(withoutHeader!));
      console.log(
        `${arrival.padEnd(28)} ${page.name.padEnd(5)} ${medianAndSpread(paint(withHeader!)).padEnd(18)} ${medianAndSpread(paint(withoutHeader!)).padEnd(18)} ${`×${ratio.toFixed(2)}`.padEnd(6)} ${medianAndSpread(task(withHeader!)).padEnd(18)} ${medianAndSpread(task(withoutHeader!))}`,
      );
    }
  }
} finally {
  await browser?.close();
  await Promise.all(
    [...variants.map(({ server }) => server), elsewhere].map((server) => new Promise((resolve) => server.close(resolve))),
  );
  await stop();
}
