// `BENCH_REFERENCE=<checkout> npm run bench:pages` (after `npm run build` here and there): the
// marketing pages of this build against the same pages of another build, say the last one whose
// pages were written in code, each served by its own checkout's server on its own fresh SQLite
// database seeded as `npm start` seeds it (SEED=auto), logging at `info` as in production (to
// /dev/null). BENCH_REFERENCE is a checkout holding its build (build/ and server.js), or a git ref
// built here in a temporary worktree (bench/support/compared-builds.ts).
//
// BENCH_PAGES picks the pages, comma-separated (default: the 13 marketing pages); `<ours>=<reference>`
// compares a page of this build with another page of the reference (a page that is new here with
// the page it is measured against). BENCH_POSITIONS=<n>: before this build's server starts, its
// database gets the sample content and then positions saved and published through the content core
// (bench/support/open-positions.ts) until n are open; the pages are then, unless BENCH_PAGES says
// otherwise, /company/careers and a sample position's page, both against the reference's
// /company/careers. Every page must answer 200, then X-Page-Cache: HIT in brotli when asked again;
// whether its HTML holds a character past Latin-1 (a two-byte string for every step after the
// render) is printed with its size.
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
import { samplePositionPath, seedOpenPositions } from "./support/open-positions";

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
const MARKETING_PAGES = [
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

const CAREERS_PAGE = "/company/careers";
const POSITIONS = process.env.BENCH_POSITIONS === undefined ? undefined : Number(process.env.BENCH_POSITIONS);
if (POSITIONS !== undefined && !(Number.isInteger(POSITIONS) && POSITIONS > 0))
  throw new Error(`BENCH_POSITIONS must be a number of positions, got "${process.env.BENCH_POSITIONS}"`);

/** A page of this build and the page of the reference it is measured against (the same path but when told otherwise). */
type ComparedPage = { label: string; ours: string; reference: string };
const comparedPage = (entry: string): ComparedPage => {
  const [ours = "", reference = ours] = entry.split("=").map((part) => part.trim());
  if (!ours.startsWith("/") || !reference.startsWith("/"))
    throw new Error(`BENCH_PAGES: "${entry}" is not <path> or <path>=<path>`);
  return { label: ours === reference ? ours : `${ours} vs ${reference}`, ours, reference };
};
const PAGES = (
  process.env.BENCH_PAGES
    ? process.env.BENCH_PAGES.split(",").filter((entry) => entry.trim())
    : POSITIONS !== undefined
      ? [CAREERS_PAGE, `${samplePositionPath()}=${CAREERS_PAGE}`]
      : MARKETING_PAGES
).map(comparedPage);
const pathOn = (build: ComparedBuild, page: ComparedPage) => (build.name === "current" ? page.ours : page.reference);
const WIDTH = Math.max(28, ...PAGES.map((page) => page.label.length + 1));

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
let published = 0;
const { builds, stop } = await startComparedBuilds(
  REFERENCE,
  { LOG_LEVEL: "info" },
  {
    discardStdout: true,
    prepareCurrentDatabase:
      POSITIONS === undefined
        ? undefined
        : async (databaseUrl) => {
            published = await seedOpenPositions(databaseUrl, POSITIONS);
          },
  },
);
try {
  const [ours, reference] = builds as [ComparedBuild, ComparedBuild];
  console.log(`== the pages: ${ours.label} against ${reference.label} ==`);
  if (POSITIONS !== undefined)
    console.log(
      `ours: ${POSITIONS} open positions, ${POSITIONS - published} of the sample content and ${published} published by the bench`,
    );

  // Each page answers on both, and a second request is a brotli cache hit: the load below measures hits.
  for (const page of PAGES) {
    const sizesOfPage: string[] = [];
    for (const build of builds) {
      const url = `${build.server.url}${pathOn(build, page)}`;
      const first = await rawRequest(url, { headers });
      if (first.status !== 200) throw new Error(`${build.name} answered ${pathOn(build, page)} with ${first.status}`);
      const hit = await rawRequest(url, { headers });
      if (hit.headers["x-page-cache"] !== "HIT" || hit.headers["content-encoding"] !== "br")
        throw new Error(`${build.name}: ${pathOn(build, page)} is not a brotli cache hit: ${JSON.stringify(hit.headers)}`);
      const html = await (await fetch(url)).text();
      const pastLatin1 = /[\u0100-\uffff]/.exec(html)?.[0];
      sizesOfPage.push(
        `${(Buffer.byteLength(html) / 1024).toFixed(1)} KB html, ${(hit.body.length / 1024).toFixed(1)} KB br, HIT, ${
          pastLatin1
            ? `two-byte ("${pastLatin1}" U+${pastLatin1.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`
            : "Latin-1"
        }`,
      );
    }
    console.log(`${page.label.padEnd(WIDTH)} ours ${sizesOfPage[0]}  ref ${sizesOfPage[1]}`);
  }

  console.log(
    `\n== (a) cached: ${ROUNDS} rounds × ${DURATION_S} s per page and build, ${CONNECTIONS} connections, ${LOAD_TOOL}, Accept-Encoding: ${ACCEPT_ENCODING} ==`,
  );
  type Runs = { ours: number[]; reference: number[] };
  const cached = new Map<ComparedPage, Runs & { cpuUs: Runs; errors: number }>();
  for (const page of PAGES) {
    const runs = { ours: [] as number[], reference: [] as number[], cpuUs: { ours: [], reference: [] } as Runs, errors: 0 };
    for (const build of builds)
      await browserLoad(`${build.server.url}${pathOn(build, page)}`, { connections: CONNECTIONS, seconds: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of inRoundOrder(builds, round)) {
        const cpuBefore = cpuNs(build.server.pid);
        const figures = await browserLoad(`${build.server.url}${pathOn(build, page)}`, {
          connections: CONNECTIONS,
          seconds: DURATION_S,
        });
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
      `${page.label.padEnd(WIDTH)} ours ${runs.ours.map((rps) => rps.toFixed(0)).join(", ")}  ref ${runs.reference.map((rps) => rps.toFixed(0)).join(", ")} req/s  ratio ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}${runs.errors ? `  ERRORS ${runs.errors}` : ""}`,
    );
    console.log(
      `${"".padEnd(WIDTH)} CPU per hit ours ${runs.cpuUs.ours.map((us) => us.toFixed(0)).join(", ")}  ref ${runs.cpuUs.reference.map((us) => us.toFixed(0)).join(", ")} µs  ref/ours ${cpuRatios.map((ratio) => ratio.toFixed(2)).join(", ")}`,
    );
  }

  console.log(
    `\n== (b) uncached: ${SAMPLES} requests per page and build, each more than ${PAST_FRESHNESS_MS} ms after the last one of its page on its server ==`,
  );
  const uncached = new Map<ComparedPage, Runs & { cpuMs: Runs }>(
    PAGES.map((page) => [page, { ours: [], reference: [], cpuMs: { ours: [], reference: [] } }]),
  );
  // The load above just had each page rendered or answered: every page waits its freshness out first.
  const lastAt = new Map<string, number>(
    PAGES.flatMap((page) => builds.map((build) => [`${build.name} ${pathOn(build, page)}`, performance.now()] as const)),
  );
  const notRendered: string[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    for (const page of PAGES) {
      for (const build of inRoundOrder(builds, sample)) {
        // By path: a page of the reference measured against two of ours waits for its own last render.
        const key = `${build.name} ${pathOn(build, page)}`;
        const wait = (lastAt.get(key) ?? 0) + PAST_FRESHNESS_MS - performance.now();
        if (wait > 0) await sleep(wait);
        const cpuBefore = cpuNs(build.server.pid);
        const started = performance.now();
        const answer = await rawRequest(`${build.server.url}${pathOn(build, page)}`, { headers });
        const ms = performance.now() - started;
        const cpuMs = (cpuNs(build.server.pid) - cpuBefore) / 1e6;
        lastAt.set(key, performance.now());
        if (answer.status !== 200 || answer.headers["x-page-cache"] !== "MISS") {
          // Not a render: left out.
          notRendered.push(
            `${build.name} ${pathOn(build, page)}: ${answer.status} ${answer.headers["x-page-cache"] ?? "(no X-Page-Cache)"}`,
          );
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
      `${page.label.padEnd(WIDTH)} ours ${times.ours.map((ms) => ms.toFixed(0)).join(" ")} ms\n${"".padEnd(WIDTH)} ref  ${times.reference.map((ms) => ms.toFixed(0)).join(" ")} ms`,
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
      page.label,
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
  console.log("\n== this build's pages against the reference's ==\n");
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
