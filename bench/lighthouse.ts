// `npm run bench:lighthouse` (after `npm run build`): Lighthouse (mobile, its default simulated
// slow 4G and 4× CPU slowdown) on six pages — `/`, the product page, the blog list, a post, a form
// page and a legal page — of this checkout's build and of a reference build, interleaved in one run: each round
// visits every page, on both builds one after the other, the order of the two alternating between
// rounds, so a busy moment of the shared machine falls on both alike.
//
// Every run prints Lighthouse's CPU benchmark index of the moment. A run whose index is below 1,000
// is a machine too busy to say anything: it is shown and not counted. Per page and build the summary
// gives the median and spread (lowest–highest) of the performance score, LCP and TBT over the
// counted runs, and the medians of the other category scores.
//
// The reference: REFERENCE_BUILD_DIR (an existing build), else LIGHTHOUSE_REFERENCE (a git ref, by
// default main before the hydration work) built in a temporary worktree (bench/support/compared-builds.ts).
// LIGHTHOUSE_REFERENCE=none measures this checkout's build alone.
// LIGHTHOUSE_RUNS: the number of rounds (3). LIGHTHOUSE_PAGES: other pages, comma-separated: by name
// ("blog list,post"), by path ("/company/about"), or "sitemap" (every page the sitemap lists).
// CHROMIUM_PATH: the browser (/usr/bin/chromium).
//
// LIGHTHOUSE_AS_INDEX (say 1000): measure what a run on a machine of that benchmark index would,
// on a faster one. Lighthouse simulates a phone by multiplying the task times it observes by its CPU
// slowdown (4×); a machine of index 2,700 observes tasks about 2.7 times shorter than one of 1,000.
// Each run's slowdown is then 4 × (the index the previous run measured) / LIGHTHOUSE_AS_INDEX,
// never below 4, and is printed with the run: the slowest machine whose runs still count, on demand.
//
// The floor: after each page of a round, an empty page served with the site's own response headers
// (bench/support/floor-page.ts) is audited too. Its blocking time is what the browser and
// Lighthouse's method cost here whatever a page holds; the summary gives every page's TBT above it.
// LIGHTHOUSE_FLOOR=off leaves it out; LIGHTHOUSE_FLOOR_WITHOUT (header names, comma-separated) serves
// it without those headers, to measure what a header costs.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/lib/chromium";
import { DEFAULT_REFERENCE, inRoundOrder, median, medianAndSpread, startComparedBuilds } from "./support/compared-builds";
import { startFloorPage } from "./support/floor-page";
import { representativePages } from "./support/representative-pages";
import { blockingByKind, TASK_KINDS } from "./support/long-tasks";

const ROUNDS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const REFERENCE = process.env.LIGHTHOUSE_REFERENCE ?? DEFAULT_REFERENCE;
/** Lighthouse's own line for a machine fast enough for its simulated 4× slowdown to mean a mid-range phone. */
const MIN_BENCHMARK_INDEX = 1000;
/** LIGHTHOUSE_PAGES: the pages to audit instead of the representative six (see above). */
const ONLY_PAGES = process.env.LIGHTHOUSE_PAGES?.split(",").map((page) => page.trim());
const SITEMAP_PAGES = "sitemap";
/** The bar every public page is held to, on the medians of the counted runs. */
const GOAL = { performance: 95, tbt: 100 };
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** Lighthouse's default mobile CPU slowdown. */
const CPU_SLOWDOWN = 4;
const AS_INDEX = Number(process.env.LIGHTHOUSE_AS_INDEX ?? 0);
const WITH_FLOOR = process.env.LIGHTHOUSE_FLOOR !== "off";
/** The floor's runs are recorded under this page and build name. */
const FLOOR = "floor";

type Run = {
  page: string;
  build: string;
  benchmarkIndex: number;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  tbt: number;
  /** The main thread's style and layout work over the whole load, as Lighthouse reports it (multiplied by the slowdown). */
  styleLayout: number;
  /** The blocking time by the kind of task it came from (bench/support/long-tasks.ts), when the trace could be read. */
  blockingByKind: Map<string, number> | null;
};

type WorkBreakdown = { items?: { group: string; duration: number }[] };

/**
 * One Lighthouse run. A run whose trace Chromium failed to record (NO_NAVSTART and the like,
 * seen on a busy machine) is a failed measurement, not a score: it is run again, twice at most.
 */
async function audit(url: string, port: number, cpuSlowdownMultiplier: number) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      throttling: { cpuSlowdownMultiplier },
    });
    const lhr = result?.lhr;
    if (result && lhr && !lhr.runtimeError) return result;
    if (attempt === 3) throw new Error(`${url}: ${lhr?.runtimeError?.message ?? "no result"}`);
  }
}

/** Every page the sitemap lists, named by its path. */
async function sitemapPages(origin: string): Promise<[string, string][]> {
  const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
  return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => {
    const { pathname } = new URL(match[1]!);
    return [pathname, pathname];
  });
}

/** The pages to audit, each as [name, path]. */
async function pagesToAudit(origin: string): Promise<[string, string][]> {
  const representative = await representativePages(origin);
  if (!ONLY_PAGES) return representative;
  const pages: [string, string][] = [];
  for (const name of ONLY_PAGES) {
    if (name === SITEMAP_PAGES) pages.push(...(await sitemapPages(origin)));
    else if (name.startsWith("/")) pages.push([name, name]);
    else {
      const page = representative.find(([known]) => known === name);
      if (!page)
        throw new Error(`LIGHTHOUSE_PAGES: no page named "${name}" (${representative.map(([known]) => known).join(", ")})`);
      pages.push(page);
    }
  }
  return pages;
}

const { builds, stop } = await startComparedBuilds(REFERENCE);
const floor = WITH_FLOOR
  ? await startFloorPage(
      `${builds[0]!.server.url}/`,
      (process.env.LIGHTHOUSE_FLOOR_WITHOUT ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    )
  : null;
// Each audit is a first visit in a browser of its own, always set to the same language (en-US), so
// that two pages (an English one and its German translation) differ only by themselves. A browser
// kept across audits carries state from one page to the next (processes, caches of fonts and
// compiled code); a browser in each page's language would add its own settings to the difference.
async function auditInOwnBrowser(url: string, cpuSlowdownMultiplier: number) {
  const browser = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS, "--lang=en-US", "--accept-lang=en-US"],
  });
  try {
    return await audit(url, browser.port, cpuSlowdownMultiplier);
  } finally {
    browser.kill();
  }
}
try {
  const pages = await pagesToAudit(builds[0]!.server.url);
  const width = Math.max(10, ...pages.map(([page]) => page.length));
  console.log(
    `Lighthouse, ${ROUNDS} rounds, mobile (simulated slow 4G, ${AS_INDEX ? `CPU slowdown scaled to a machine of index ${AS_INDEX}` : `${CPU_SLOWDOWN}× CPU`}), ${CHROMIUM_PATH}`,
  );
  for (const { name, label } of builds) console.log(`  ${name.padEnd(9)} ${label}`);
  if (floor) console.log(`  ${FLOOR.padEnd(9)} an empty page with the current build's headers (${floor.headerNames.join(", ")})`);
  console.log(`Runs with a benchmark index below ${MIN_BENCHMARK_INDEX} are shown and not counted.\n`);
  console.log(
    `${"round".padEnd(5)} ${"page".padEnd(width)} ${"build".padEnd(9)} ${"index".padStart(5)} ${"cpu".padStart(5)} ${"perf".padStart(4)} ${"LCP".padStart(7)} ${"TBT".padStart(7)}`,
  );

  const runs: Run[] = [];
  let lastIndex: number | undefined;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [page, pathname] of pages) {
      const targets: { page: string; name: string; url: string }[] = inRoundOrder(builds, round).map(({ name, server }) => ({
        page,
        name,
        url: `${server.url}${pathname}`,
      }));
      if (floor) targets.push({ page: FLOOR, name: FLOOR, url: floor.url });
      for (const { page, name, url } of targets) {
        const slowdown = AS_INDEX && lastIndex ? Math.max(CPU_SLOWDOWN, (CPU_SLOWDOWN * lastIndex) / AS_INDEX) : CPU_SLOWDOWN;
        const result = await auditInOwnBrowser(url, slowdown);
        const { lhr } = result;
        lastIndex = lhr.environment.benchmarkIndex;
        const run: Run = {
          page,
          build: name,
          benchmarkIndex: lhr.environment.benchmarkIndex,
          scores: Object.fromEntries(
            CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
          ) as Run["scores"],
          lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
          tbt: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
          styleLayout:
            (lhr.audits["mainthread-work-breakdown"]?.details as WorkBreakdown | undefined)?.items?.find(
              (item) => item.group === "styleLayout",
            )?.duration ?? NaN,
          blockingByKind: blockingByKind(result, slowdown),
        };
        runs.push(run);
        const dropped = run.benchmarkIndex < MIN_BENCHMARK_INDEX ? "  not counted (index < 1000)" : "";
        console.log(
          `${String(round + 1).padEnd(5)} ${page.padEnd(width)} ${name.padEnd(9)} ${String(Math.round(run.benchmarkIndex)).padStart(5)} ${`${slowdown.toFixed(1)}×`.padStart(5)} ` +
            `${String(run.scores.performance).padStart(4)} ${`${Math.round(run.lcp)} ms`.padStart(7)} ${`${Math.round(run.tbt)} ms`.padStart(7)}${dropped}`,
        );
      }
    }
  }

  const counted = runs.filter((run) => run.benchmarkIndex >= MIN_BENCHMARK_INDEX);
  const indexes = runs.map((run) => run.benchmarkIndex);
  console.log(
    `\nbenchmark index: median ${Math.round(median(indexes))}, ${Math.round(Math.min(...indexes))}–${Math.round(Math.max(...indexes))}; ` +
      `${runs.length - counted.length} of ${runs.length} runs dropped (index < ${MIN_BENCHMARK_INDEX}).\n`,
  );
  console.log("Medians (lowest–highest) over the counted runs:");
  console.log(
    `${"page".padEnd(width)} ${"build".padEnd(9)} ${"n".padStart(2)}  ${"perf".padEnd(13)} ${"LCP ms".padEnd(17)} ${"TBT ms".padEnd(17)} ${(floor ? "above floor" : "").padEnd(11)} ${"style+layout ms".padEnd(17)} ${"a11y".padStart(4)} ${"bp".padStart(4)} ${"seo".padStart(4)}`,
  );
  const floorTbt = median(counted.filter((run) => run.build === FLOOR).map((run) => run.tbt));
  const missed = new Map<string, string[]>(builds.map(({ name }) => [name, []]));
  const missedAboveFloor = new Map<string, string[]>(builds.map(({ name }) => [name, []]));
  const summarise = (page: string, name: string) => {
    const these = counted.filter((run) => run.page === page && run.build === name);
    const tbt = median(these.map((run) => run.tbt));
    if (!these.length || median(these.map((run) => run.scores.performance)) < GOAL.performance || tbt > GOAL.tbt)
      missed.get(name)?.push(page);
    if (!these.length || tbt - floorTbt > GOAL.tbt) missedAboveFloor.get(name)?.push(page);
    const categoryMedian = (category: (typeof CATEGORIES)[number]) =>
      (these.length ? String(median(these.map((run) => run.scores[category]))) : "—").padStart(4);
    const aboveFloor = floor && name !== FLOOR && these.length ? String(Math.round(tbt - floorTbt)) : "";
    console.log(
      `${page.padEnd(width)} ${name.padEnd(9)} ${String(these.length).padStart(2)}  ` +
        `${medianAndSpread(these.map((run) => run.scores.performance)).padEnd(13)} ` +
        `${medianAndSpread(these.map((run) => run.lcp)).padEnd(17)} ${medianAndSpread(these.map((run) => run.tbt)).padEnd(17)} ` +
        `${aboveFloor.padStart(11)} ${medianAndSpread(these.map((run) => run.styleLayout)).padEnd(17)} ` +
        `${categoryMedian("accessibility")} ${categoryMedian("best-practices")} ${categoryMedian("seo")}`,
    );
  };
  for (const [page] of pages) for (const { name } of builds) summarise(page, name);
  if (floor) summarise(FLOOR, FLOOR);

  // Whose work the blocking time is: medians per kind of task. The rows do not add up to the TBT
  // medians exactly (medians of parts; Lighthouse averages two simulations).
  console.log("\nBlocking time by the kind of task it came from, ms (medians over the counted runs whose trace could be read):");
  console.log(`${"page".padEnd(width)} ${"build".padEnd(9)} ${TASK_KINDS.map((kind) => kind.padStart(12)).join(" ")}`);
  for (const [page, name] of [
    ...pages.flatMap(([page]) => builds.map(({ name }) => [page, name])),
    ...(floor ? [[FLOOR, FLOOR]] : []),
  ]) {
    const traced = counted.filter((run) => run.page === page && run.build === name && run.blockingByKind);
    if (!traced.length) continue;
    const cells = TASK_KINDS.map((kind) =>
      String(Math.round(median(traced.map((run) => run.blockingByKind!.get(kind) ?? 0)))).padStart(12),
    );
    console.log(`${page!.padEnd(width)} ${name!.padEnd(9)} ${cells.join(" ")}`);
  }

  /** One line per build: the pages that missed a bar, or that none did. */
  const reportMissed = (missedBy: Map<string, string[]>) => {
    for (const [name, pagesMissed] of missedBy)
      console.log(
        `  ${name.padEnd(9)} ${pagesMissed.length ? `NOT met on ${pagesMissed.length} of ${pages.length}: ${pagesMissed.join(", ")}` : `met on all ${pages.length}`}`,
      );
  };
  console.log(`\nGoal: performance ≥ ${GOAL.performance} and TBT ≤ ${GOAL.tbt} ms (medians of the counted runs) on every page.`);
  reportMissed(missed);
  if (floor) {
    console.log(
      `  ${FLOOR.padEnd(9)} ${floorTbt > GOAL.tbt ? "NOT met" : "met"} by the empty page itself (TBT median ${Math.round(floorTbt)} ms)`,
    );
    console.log(`TBT above the floor ≤ ${GOAL.tbt} ms (what the pages themselves cost):`);
    reportMissed(missedAboveFloor);
  }
} finally {
  await floor?.stop();
  await stop();
}
