// `npm run bench:diff` (after `npm run build`): how long the largest diff the back office allows
// holds the event loop, next to how long a public page's render takes, measured in the same run.
//
// Renders: the built server on a fresh SQLite database, each representative page (home, product,
// blog list, a post, a form, a legal page) asked with a new `utm_campaign` each time, which the
// page cache keys separately and so renders anew (at most 5 a second: the requests are spaced);
// its wall time on loopback, and the server's CPU time per render (from /proc).
// Diffs: in this process, under perf_hooks' monitorEventLoopDelay, the revision pages' diff of
// the largest texts allowed: two unrelated texts of MAX_DIFF_LINES lines (the most work, ending in
// the summary at MAX_DIFF_EDITS), the largest change still shown (MAX_DIFF_EDITS lines spread over
// MAX_DIFF_LINES), and texts just over MAX_DIFF_LINES (summarised at once). Rounds alternate
// renders and diffs, so both meet the same load on a shared machine. Printed: the worst loop
// delay over the public renders' median wall time, and the diff's CPU over a render's; both
// should stay below 1. BENCH_ROUNDS (10) sets the rounds.
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { diffFields, MAX_DIFF_EDITS, MAX_DIFF_LINES } from "~/ui/admin/line-diff";
import { startBuiltServer } from "../scripts/lib/built-server";
import { median } from "./support/compared-builds";
import { representativePages } from "./support/representative-pages";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
/** A post's fields as the revisions page compares them (the body is the long one). */
const POST_LABELS = { title: "Title", excerpt: "Excerpt", content: "Text" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A line as long as a paragraph of a real post. */
const line = (word: string, index: number) =>
  `${word} ${index}: Sentinel inspects every prompt and every response for leaks, with a link to the docs. `.repeat(3);
const lines = (count: number, word: string) => Array.from({ length: count }, (_, index) => line(word, index));

/** User plus system CPU time a process has used, in ms (from /proc: 10 ms ticks). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** One render of `pagePath` (a page cache miss: a new campaign), its wall time; undefined when it was no miss. */
async function render(origin: string, pagePath: string, campaign: string): Promise<number | undefined> {
  const started = performance.now();
  const response = await fetch(`${origin}${pagePath}?utm_campaign=${campaign}`);
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  return response.status === 200 && response.headers.get("x-page-cache") === "MISS" ? elapsed : undefined;
}

/** Runs `work` once in its own turn of the loop: the loop's worst delay meanwhile, its wall and CPU time. */
async function diffRun(work: () => unknown): Promise<{ delay: number; wall: number; cpu: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(5);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  work();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await sleep(5);
  histogram.disable();
  return { delay: histogram.max / 1e6, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function diffCases(): [string, Record<string, string>, Record<string, string>][] {
  const changed = lines(MAX_DIFF_LINES, "line");
  const spread = Math.floor(MAX_DIFF_LINES / (MAX_DIFF_EDITS / 2));
  const edited = changed.map((text, index) =>
    index % spread === 0 && index / spread < MAX_DIFF_EDITS / 2 ? `${text} Edited.` : text,
  );
  const over = lines(MAX_DIFF_LINES + 1, "line");
  return [
    [
      `two unrelated texts of ${MAX_DIFF_LINES} lines`,
      { title: "A", excerpt: "a", content: lines(MAX_DIFF_LINES, "before").join("\n") },
      { title: "B", excerpt: "b", content: lines(MAX_DIFF_LINES, "after").join("\n") },
    ],
    [
      `${MAX_DIFF_EDITS} lines changed in ${MAX_DIFF_LINES}`,
      { title: "A", excerpt: "a", content: changed.join("\n") },
      { title: "B", excerpt: "b", content: edited.join("\n") },
    ],
    [
      `texts of ${MAX_DIFF_LINES + 1} lines`,
      { title: "A", excerpt: "a", content: over.join("\n") },
      { title: "B", excerpt: "b", content: [...over.slice(1), "new"].join("\n") },
    ],
  ];
}

const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-bench-diff-"));
const server = await startBuiltServer(
  { DATABASE_URL: `file:${path.join(dir, "site.db")}`, MEDIA_CACHE_DIR: path.join(dir, "media"), LOG_LEVEL: "warn" },
  { discardStdout: true },
);
try {
  const pages = await representativePages(server.url);
  const cases = diffCases();
  const renders = new Map(pages.map(([name]) => [name, [] as number[]]));
  const diffs = new Map(cases.map(([name]) => [name, [] as { delay: number; wall: number; cpu: number }[]]));
  let serverCpu = 0;
  // Warm, as a server that has been up a while is: the first run of each compiles its code.
  for (const [, before, after] of cases) diffFields(before, after, POST_LABELS);
  // Rounds alternate renders and diffs, so that both meet the same load on a shared machine.
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, pagePath] of pages) {
      await sleep(250); // the page cache renders at most 5 campaign variants a second
      const cpuBefore = processCpuMs(server.pid);
      const time = await render(server.url, pagePath, `diff-bench-${round}`);
      serverCpu += processCpuMs(server.pid) - cpuBefore;
      if (time !== undefined) renders.get(name)!.push(time);
    }
    for (const [name, before, after] of cases) diffs.get(name)!.push(await diffRun(() => diffFields(before, after, POST_LABELS)));
  }

  const allRenders = [...renders.values()].flat();
  const renderMedian = median(allRenders);
  const renderCpu = serverCpu / allRenders.length;
  console.log(`Public renders (${ROUNDS} per page, each a page cache miss), wall time:`);
  for (const [name, times] of renders)
    console.log(`  ${name.padEnd(10)} median ${ms(median(times))}, fastest ${ms(Math.min(...times))}`);
  console.log(`  all pages  median ${ms(renderMedian)}; the server's CPU per render ${ms(renderCpu)} (10 ms ticks, averaged)`);

  console.log(`\nThe revision pages' diff of the largest texts allowed (${ROUNDS} runs each):`);
  let worstDelay = 0;
  let worstCpu = 0;
  for (const [name, before, after] of cases) {
    const runs = diffs.get(name)!;
    const [content] = diffFields(before, after, POST_LABELS).filter((field) => field.field === "content");
    const shown = content?.diff.tooLarge ? "summary" : `shown: ${content?.diff.added} added, ${content?.diff.removed} removed`;
    const delay = Math.max(...runs.map((run) => run.delay));
    const cpu = median(runs.map((run) => run.cpu));
    worstDelay = Math.max(worstDelay, delay);
    worstCpu = Math.max(worstCpu, cpu);
    console.log(
      `  ${name.padEnd(36)} loop delay worst ${ms(delay)}, wall median ${ms(median(runs.map((run) => run.wall)))}, CPU median ${ms(cpu)} (${shown})`,
    );
  }
  const renderWorst = Math.max(...allRenders);
  const wallMedian = Math.max(...cases.map(([name]) => median(diffs.get(name)!.map((run) => run.wall))));
  console.log(
    `\nWorst event loop delay during the largest diff allowed ${ms(worstDelay)} / a public render's median ${ms(renderMedian)}: ratio ${(worstDelay / renderMedian).toFixed(2)}` +
      ` (/ the slowest render ${ms(renderWorst)}: ${(worstDelay / renderWorst).toFixed(2)})`,
  );
  console.log(
    `Wall time of the largest diff allowed, median ${ms(wallMedian)} / a public render's median: ratio ${(wallMedian / renderMedian).toFixed(2)}`,
  );
  console.log(
    `CPU of the largest diff allowed ${ms(worstCpu)} / a public render's ${ms(renderCpu)}: ratio ${(worstCpu / renderCpu).toFixed(2)} (target: both below 1)`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
