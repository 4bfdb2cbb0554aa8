// `npm run bench:lighthouse` (after `npm run build`): Lighthouse (mobile, its default simulated
// slow 4G and 4× CPU slowdown) RUNS times on five pages of the built server — `/`, the blog list,
// a post, a form page and a legal page — in Debian's Chromium. Prints per page the median of each
// category score and of FCP, LCP, TBT and CLS, with the spread (lowest–highest) of the performance
// score. Scores are Lighthouse's own; the simulated network makes them comparable across runs on
// a busy machine, but the spread says how much to trust one.
//
// CHROMIUM_PATH picks the browser (default /usr/bin/chromium); LIGHTHOUSE_RUNS the number of runs.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startBuiltServer } from "../scripts/lib/built-server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/lib/chromium";

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS = [
  ["FCP", "first-contentful-paint", "ms"],
  ["LCP", "largest-contentful-paint", "ms"],
  ["TBT", "total-blocking-time", "ms"],
  ["CLS", "cumulative-layout-shift", ""],
] as const;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * One Lighthouse run. A run whose trace Chromium failed to record (NO_NAVSTART and the like,
 * seen on a busy machine) is a failed measurement, not a score: it is run again, twice at most.
 */
async function audit(url: string, port: number) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    if (attempt === 3) throw new Error(`${url}: ${lhr?.runtimeError?.message ?? "no result"}`);
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-lighthouse-"));
const server = await startBuiltServer({ DATABASE_URL: `file:${path.join(dir, "site.db")}`, LOG_LEVEL: "silent" });
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
});
try {
  // A post from the site's own list, so the benchmark follows the sample content.
  const list = await (await fetch(`${server.url}/resources/blog`)).text();
  const post = /href="(\/resources\/blog\/[^"?#]+)"/.exec(list)?.[1];
  if (!post) throw new Error("no post link on /resources/blog");
  const pages: [string, string][] = [
    ["home", "/"],
    ["blog list", "/resources/blog"],
    ["post", post],
    ["form", "/request-demo"],
    ["legal", "/terms/privacy-policy"],
  ];

  console.log(`Lighthouse ${RUNS}× per page, mobile (simulated slow 4G, 4× CPU), ${CHROMIUM_PATH}\n`);
  console.log(
    `${"page".padEnd(10)} ${"perf".padStart(4)} ${"spread".padStart(8)} ${"a11y".padStart(4)} ${"bp".padStart(4)} ${"seo".padStart(4)}  ` +
      METRICS.map(([label]) => label.padStart(8)).join(" "),
  );
  for (const [name, pathname] of pages) {
    const scores = new Map<string, number[]>(CATEGORIES.map((category) => [category, []]));
    const metrics = new Map<string, number[]>(METRICS.map(([label]) => [label, []]));
    for (let run = 0; run < RUNS; run += 1) {
      const lhr = await audit(`${server.url}${pathname}`, chrome.port);
      for (const category of CATEGORIES) scores.get(category)!.push(Math.round((lhr.categories[category]?.score ?? 0) * 100));
      for (const [label, audit] of METRICS) metrics.get(label)!.push(lhr.audits[audit]?.numericValue ?? NaN);
    }
    const perf = scores.get("performance")!;
    console.log(
      `${name.padEnd(10)} ${String(median(perf)).padStart(4)} ${`${Math.min(...perf)}–${Math.max(...perf)}`.padStart(8)} ` +
        `${String(median(scores.get("accessibility")!)).padStart(4)} ${String(median(scores.get("best-practices")!)).padStart(4)} ` +
        `${String(median(scores.get("seo")!)).padStart(4)}  ` +
        METRICS.map(([label, , unit]) => {
          const value = median(metrics.get(label)!);
          return (unit ? `${Math.round(value)} ${unit}` : value.toFixed(3)).padStart(8);
        }).join(" "),
    );
  }
} finally {
  await chrome.kill();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
