// `BENCH_REFERENCE=<checkout> npm run bench:pages` (after `npm run build` here and there): the
// marketing pages of this build against the same pages of another build, say the last one whose
// pages were written in code, each served by its own checkout's server on its own fresh SQLite
// database seeded as `npm start` seeds it (SEED=auto), logging at `info` as in production (to
// /dev/null). BENCH_REFERENCE is a checkout holding its build (build/ and server.js), or a git ref
// built here in a temporary worktree (bench/support/compared-builds.ts).
//
// Per page:
// (a) cached: requests per second for BENCH_SECONDS (3) over 16 connections with a browser's
//     Accept-Encoding and user agent, this build and the reference in turn, in BENCH_ROUNDS (3)
//     rounds (who goes first alternates); the ratio is taken within each round, and the median of
//     the rounds' ratios is the page's. Target ≥ 0.95.
// (b) uncached: the time of a whole answer to a request the page cache does not answer. Neither
//     build can turn its cache off, and for these pages it keys on no query parameter, so each
//     request waits until its page's copy on that server is more than the cache's second old:
//     the request then renders the page again (the answer says X-Page-Cache: MISS, checked).
//     BENCH_UNCACHED_SAMPLES (15) sequential requests per page and build, interleaved; the ratio of
//     the medians. Target ≤ 1.10.
// Both also in the server's own CPU time (all its threads, from /proc/<pid>/task/*/schedstat), which
// other processes on a shared machine inflate far less than they do a rate or a wall-clock time:
// (a) CPU time per hit over each run, the ratio reference/ours (what the throughput ratio would be
// with the CPU to itself); (b) CPU time per render, the ratio of the medians, ours/reference.
// The figures are printed with PASS or MISS against each target; the exit code does not depend on
// them (the machine may be shared and noisy).
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { rawRequest } from "../scripts/lib/raw-request";
import { ACCEPT_ENCODING, browserLoad, LOAD_TOOL, USER_AGENT } from "./support/browser-load";
import { inRoundOrder, median, startComparedBuilds, type ComparedBuild } from "./support/compared-builds";

const REFERENCE = process.env.BENCH_REFERENCE;
if (!REFERENCE) throw new Error("BENCH_REFERENCE names the build to compare with: a checkout holding its build, or a git ref");
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLES = Number(process.env.BENCH_UNCACHED_SAMPLES ?? 15);
const CONNECTIONS = 16;
/** The page cache keeps a copy fresh for 1 s (server/page-cache.ts): a request later than this renders. */
const PAST_FRESHNESS_MS = 1_100;
const CACHED_TARGET = 0.95;
const UNCACHED_TARGET = 1.1;

/** The marketing pages that became blocks. */
const PAGES = [
  "/",
  "/products/sentinel",
  "/company/about",
  "/company/careers",
  "/company/brand",
  "/company/charter",
  "/resources",
  "/resources/documentation",
  "/resources/support",
  "/resources/api",
  "/community",
  "/terms/legal",
  "/terms/trust-transparency",
];

const headers = { "accept-encoding": ACCEPT_ENCODING, "user-agent": USER_AGENT };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/** Nanoseconds the process `pid` has run on a CPU, all its threads (Linux); NaN elsewhere. */
function cpuNs(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  let total = 0;
  for (const task of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

const verdict = (pass: boolean, value: number) => (Number.isNaN(value) ? "—" : pass ? "PASS" : "MISS");

const startedAt = new Date();
const loadAtStart = loadAverage();
const { builds, stop } = await startComparedBuilds(REFERENCE, { LOG_LEVEL: "info" }, { discardStdout: true });
try {
  const [ours, reference] = builds as [ComparedBuild, ComparedBuild];
  console.log(`== the marketing pages: ${ours.label} against ${reference.label} ==`);

  // Each page answers on both, and a second request is a brotli cache hit: the load below measures hits.
  for (const page of PAGES) {
    const sizesOfPage: string[] = [];
    for (const build of builds) {
      const first = await rawRequest(`${build.server.url}${page}`, { headers });
      if (first.status !== 200) throw new Error(`${build.name} answered ${page} with ${first.status}`);
      const hit = await rawRequest(`${build.server.url}${page}`, { headers });
      if (hit.headers["x-page-cache"] !== "HIT" || hit.headers["content-encoding"] !== "br")
        throw new Error(`${build.name}: ${page} is not a brotli cache hit: ${JSON.stringify(hit.headers)}`);
      const html = await (await fetch(`${build.server.url}${page}`)).text();
      sizesOfPage.push(`${(Buffer.byteLength(html) / 1024).toFixed(1)} KB html, ${(hit.body.length / 1024).toFixed(1)} KB br`);
    }
    console.log(`${page.padEnd(28)} ours ${sizesOfPage[0]}  ref ${sizesOfPage[1]}`);
  }

  console.log(
    `\n== (a) cached: ${ROUNDS} rounds × ${DURATION_S} s per page and build, ${CONNECTIONS} connections, ${LOAD_TOOL}, Accept-Encoding: ${ACCEPT_ENCODING} ==`,
  );
  type Runs = { ours: number[]; reference: number[] };
  const cached = new Map<string, Runs & { cpuUs: Runs; errors: number }>();
  for (const page of PAGES) {
    const runs = { ours: [] as number[], reference: [] as number[], cpuUs: { ours: [], reference: [] } as Runs, errors: 0 };
    for (const build of builds) await browserLoad(`${build.server.url}${page}`, { connections: CONNECTIONS, seconds: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of inRoundOrder(builds, round)) {
        const cpuBefore = cpuNs(build.server.pid);
        const figures = await browserLoad(`${build.server.url}${page}`, { connections: CONNECTIONS, seconds: DURATION_S });
        const side = build.name === "current" ? "ours" : "reference";
        runs[side].push(figures.rps);
        runs.cpuUs[side].push((cpuNs(build.server.pid) - cpuBefore) / 1_000 / figures.requests);
        runs.errors += figures.errors;
      }
    }
    const ratios = runs.ours.map((rps, index) => rps / runs.reference[index]!);
    const cpuRatios = runs.cpuUs.reference.map((us, index) => us / runs.cpuUs.ours[index]!);
    cached.set(page, runs);
    console.log(
      `${page.padEnd(28)} ours ${runs.ours.map((rps) => rps.toFixed(0)).join(", ")}  ref ${runs.reference.map((rps) => rps.toFixed(0)).join(", ")} req/s  ratio ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}${runs.errors ? `  ERRORS ${runs.errors}` : ""}`,
    );
    console.log(
      `${"".padEnd(28)} CPU per hit ours ${runs.cpuUs.ours.map((us) => us.toFixed(0)).join(", ")}  ref ${runs.cpuUs.reference.map((us) => us.toFixed(0)).join(", ")} µs  ref/ours ${cpuRatios.map((ratio) => ratio.toFixed(2)).join(", ")}`,
    );
  }

  console.log(
    `\n== (b) uncached: ${SAMPLES} requests per page and build, each more than ${PAST_FRESHNESS_MS} ms after the last one of its page on its server ==`,
  );
  const uncached = new Map<string, Runs & { cpuMs: Runs }>(
    PAGES.map((page) => [page, { ours: [], reference: [], cpuMs: { ours: [], reference: [] } }]),
  );
  const lastAt = new Map<string, number>();
  const notRendered: string[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    for (const page of PAGES) {
      for (const build of inRoundOrder(builds, sample)) {
        const key = `${build.name} ${page}`;
        const wait = (lastAt.get(key) ?? 0) + PAST_FRESHNESS_MS - performance.now();
        if (wait > 0) await sleep(wait);
        const cpuBefore = cpuNs(build.server.pid);
        const started = performance.now();
        const answer = await rawRequest(`${build.server.url}${page}`, { headers });
        const ms = performance.now() - started;
        const cpuMs = (cpuNs(build.server.pid) - cpuBefore) / 1e6;
        lastAt.set(key, performance.now());
        if (answer.status !== 200 || answer.headers["x-page-cache"] !== "MISS") {
          // Not a render: left out.
          notRendered.push(`${build.name} ${page}: ${answer.status} ${answer.headers["x-page-cache"] ?? "(no X-Page-Cache)"}`);
          continue;
        }
        const side = build.name === "current" ? "ours" : "reference";
        const times = uncached.get(page)!;
        times[side].push(ms);
        times.cpuMs[side].push(cpuMs);
      }
    }
  }
  if (notRendered.length)
    console.log(`${notRendered.length} answers were not renders (not a 200 MISS), left out: ${notRendered.join("; ")}`);

  for (const page of PAGES) {
    const times = uncached.get(page)!;
    console.log(
      `${page.padEnd(28)} ours ${times.ours.map((ms) => ms.toFixed(0)).join(" ")} ms\n${"".padEnd(28)} ref  ${times.reference.map((ms) => ms.toFixed(0)).join(" ")} ms`,
    );
  }

  const rows = PAGES.map((page) => {
    const load = cached.get(page)!;
    const cachedRatio = median(load.ours.map((rps, index) => rps / load.reference[index]!));
    const cpuPerHitRatio = median(load.cpuUs.reference.map((us, index) => us / load.cpuUs.ours[index]!));
    const times = uncached.get(page)!;
    const uncachedRatio = median(times.ours) / median(times.reference);
    const cpuPerRenderRatio = median(times.cpuMs.ours) / median(times.cpuMs.reference);
    return [
      page,
      median(load.ours).toFixed(0),
      median(load.reference).toFixed(0),
      cachedRatio.toFixed(2),
      verdict(cachedRatio >= CACHED_TARGET, cachedRatio),
      `${median(load.cpuUs.ours).toFixed(0)} / ${median(load.cpuUs.reference).toFixed(0)}`,
      cpuPerHitRatio.toFixed(2),
      verdict(cpuPerHitRatio >= CACHED_TARGET, cpuPerHitRatio),
      median(times.ours).toFixed(1),
      median(times.reference).toFixed(1),
      uncachedRatio.toFixed(2),
      verdict(uncachedRatio <= UNCACHED_TARGET, uncachedRatio),
      `${median(times.cpuMs.ours).toFixed(1)} / ${median(times.cpuMs.reference).toFixed(1)}`,
      cpuPerRenderRatio.toFixed(2),
      verdict(cpuPerRenderRatio <= UNCACHED_TARGET, cpuPerRenderRatio),
    ];
  });
  const heading = [
    "page",
    "cached req/s ours",
    "ref",
    "ratio",
    `≥ ${CACHED_TARGET}`,
    "CPU µs/hit ours / ref",
    "ref/ours",
    `≥ ${CACHED_TARGET}`,
    "uncached ms ours",
    "ref",
    "ratio",
    `≤ ${UNCACHED_TARGET.toFixed(2)}`,
    "CPU ms/render ours / ref",
    "ratio",
    `≤ ${UNCACHED_TARGET.toFixed(2)}`,
  ];
  console.log("\n== pages from the database (ours) against the reference ==\n");
  console.log(`| ${heading.join(" | ")} |`);
  console.log(`|${heading.map((_, index) => (index === 0 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  const missedBy = (columns: number[]) =>
    rows.filter((row) => columns.some((column) => row[column] === "MISS")).map((row) => row[0]);
  console.log(
    `\ncached: median of ${ROUNDS} per-round ratios of ${DURATION_S} s runs (req/s and µs columns: medians of the rounds); uncached: ratio of the medians of ${SAMPLES} renders each`,
  );
  console.log(
    `settings: ${LOAD_TOOL}, ${CONNECTIONS} connections, Node ${process.version}, ${os.cpus().length} CPUs; started ${startedAt.toISOString()}; load average (1, 5, 15 min) ${loadAtStart} at the start, ${loadAverage()} at the end`,
  );
  const wallMisses = missedBy([4, 11]);
  const cpuMisses = missedBy([7, 14]);
  console.log(`targets missed in req/s or wall time: ${wallMisses.join(", ") || "none"}`);
  console.log(`targets missed in the servers' CPU time: ${cpuMisses.join(", ") || "none"}`);
} finally {
  await stop();
}
