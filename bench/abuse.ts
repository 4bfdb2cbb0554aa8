// `npm run bench:abuse` (after `npm run build`): the built server under four floods from 32
// connections each: cached hits of one page (the floor the others are compared with),
// cache-busting requests (random query strings, case variants, a 1 MB post), posts to a page that
// has no form, and posts over the forms' rate limit; /healthz and a cached page are measured
// alongside, with and without each flood. Prints their p50/p99, each flood's /healthz p99 against
// the floor's, what each flood got back (pages, redirects, small refusals), the server's peak
// resident memory, and the page-path check on a 64 KB dotted path against a plain one (linear:
// ratio ~1).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { EventEmitter } from "node:events";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { isPagePath } from "../server/page-cache";
import { startBuiltServer } from "../scripts/lib/built-server";
import { runWrk, WRK } from "./support/wrk";

const FLOOD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const BIG_SLUG = "a-very-large-post";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

/**
 * Requests `url` one after another for `ms`, recording each latency, in a separate Node process:
 * the flood's load generator runs in this one, and its busy event loop would otherwise be timed
 * as the server's latency.
 */
const PROBE_SOURCE = `
const [url, ms] = process.argv.slice(1);
const latencies = [], statuses = new Set();
(async () => {
  const end = Date.now() + Number(ms);
  while (Date.now() < end) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    statuses.add(response.status);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(JSON.stringify({ latencies, statuses: [...statuses] }));
})();
`;

async function probe(url: string, ms: number): Promise<{ p50: number; p99: number; n: number; statuses: Set<number> }> {
  const child = spawn(process.execPath, ["-e", PROBE_SOURCE, url, String(ms)], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  await new Promise((resolve) => child.once("exit", resolve));
  const { latencies, statuses } = JSON.parse(output) as { latencies: number[]; statuses: number[] };
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), n: latencies.length, statuses: new Set(statuses) };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

function pathCheckRatio(): number {
  const dotted = "/" + ".a".repeat(32 * 1024);
  const plain = "/" + "ab".repeat(32 * 1024);
  const time = (value: string) => {
    const started = performance.now();
    for (let i = 0; i < 200; i += 1) isPagePath(value);
    return performance.now() - started;
  };
  time(dotted);
  time(plain); // warm-up
  return time(dotted) / time(plain);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The flood's paths: pages in the canonical case and upper case, the 1 MB post among them. */
const VARIANTS = ["/resources/blog", `/resources/blog/${BIG_SLUG}`, "/company/about", "/", "/contact-sales"];

/** Every request a new query string (a random one and a utm value the form page reads); every third in upper case. */
const GET_FLOOD_LUA = `
local variants = {${VARIANTS.map((variant) => `"${variant}"`).join(", ")}}
local n = 0
request = function()
  n = n + 1
  local base = variants[(n % #variants) + 1]
  if n % 3 == 0 then base = string.upper(base) end
  return wrk.format("GET", base .. "?x=" .. math.random(1, 1000000000) .. "&utm_source=" .. n)
end
`;

/** The same form post again and again, from the site's own origin (a cross-site post is refused even earlier). */
const postFloodLua = (path: string, origin: string) => `
request = function()
  return wrk.format("POST", "${path}", { ["Content-Type"] = "application/x-www-form-urlencoded", ["Origin"] = "${origin}" }, "${POST_BODY}")
end
`;
const POST_BODY = "first_name=Flood&last_name=Bench&email=flood%40example.com&company=Bench";

type Flood = {
  name: string;
  lua: (origin: string) => string;
  /** The same requests for autocannon, when wrk is not installed. */
  request: (
    n: number,
    origin: string,
  ) => { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string };
};

const FLOODS: Flood[] = [
  // The floor: nothing to render or refuse, only cached hits. What the other floods cost /healthz
  // beyond this is theirs; the rest is what 32 busy connections cost on this machine.
  {
    name: "cached hits of one page (the floor)",
    lua: () => `request = function() return wrk.format("GET", "/company/about") end\n`,
    request: () => ({ method: "GET" as const, path: "/company/about" }),
  },
  {
    name: "random queries, case variants and a 1 MB post",
    lua: () => GET_FLOOD_LUA,
    request: (n) => {
      const variant = VARIANTS[n % VARIANTS.length]!;
      const pathPart = n % 3 === 0 ? variant.toUpperCase() : variant;
      return { method: "GET" as const, path: `${pathPart}?x=${Math.random().toString(36).slice(2)}&utm_source=${n}` };
    },
  },
  ...[
    { name: "posts to a page without a form", path: "/company/about" },
    { name: "posts over the forms' rate limit", path: "/request-demo" },
  ].map(({ name, path }) => ({
    name,
    lua: (origin: string) => postFloodLua(path, origin),
    request: (_n: number, origin: string) => ({
      method: "POST" as const,
      path,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: POST_BODY,
    }),
  })),
];

/** Counts each answer's status; prints the totals when wrk is done. Appended to every flood's script. */
const STATUS_COUNTING_LUA = `
statuses = {}
response = function(status)
  statuses[status] = (statuses[status] or 0) + 1
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function()
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + count end
  end
  for status, count in pairs(total) do io.write("status ", status, " ", count, "\\n") end
end
`;

type FloodResult = {
  client: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Map<number, number>;
  errors: number;
};

/** FLOOD_SECONDS of `kind` from CONNECTIONS connections: wrk when installed, else autocannon. */
async function flood(base: string, dir: string, kind: Flood): Promise<FloodResult> {
  if (WRK) {
    const script = path.join(dir, "flood.lua");
    writeFileSync(script, kind.lua(base) + STATUS_COUNTING_LUA);
    const result = await runWrk(base, { connections: CONNECTIONS, seconds: FLOOD_SECONDS, script });
    const statuses = new Map(
      [...result.scriptOutput.matchAll(/^status (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]),
    );
    return { client: "wrk", ...result, statuses };
  }
  let n = 0;
  const statuses = new Map<number, number>();
  const run = autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: FLOOD_SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          n += 1;
          return { ...request, ...kind.request(n, base) };
        },
      },
    ],
  });
  // The instance autocannon returns is an event emitter as well as a promise (its types name only the promise).
  (run as unknown as EventEmitter).on("response", (_client: unknown, statusCode: number) =>
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1),
  );
  const result = await run;
  return {
    client: "autocannon",
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-abuse-"));
const databasePath = path.join(dir, "site.db");
// Load shedding on at its default, as deployed (the tests' servers turn it off), and the forms'
// rate limit at its default: after the first ten, every post of the flood is over it.
const server = await startBuiltServer({
  DATABASE_URL: `file:${databasePath}`,
  LOG_LEVEL: "silent",
  LOAD_SHED_DELAY_MS: "100",
  FORM_RATE_LIMIT: "10",
});
try {
  // A 1 MB post, written the way an editor's tool would.
  const db = new Database(databasePath);
  const paragraph = "Governance that engineers follow is governance that fits their tools. ".repeat(14);
  db.prepare(
    `insert into blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, published)
     values (lower(hex(randomblob(16))), ?, 'A very large post', 'One megabyte of text.', ?, 'Research', 'Bench', '2020-01-01T00:00:00.000Z', 60, 1)`,
  ).run(BIG_SLUG, Array.from({ length: 1024 }, () => paragraph).join("\n\n"));
  db.close();

  const health = `${server.url}/healthz`;
  const cached = `${server.url}/company/about`;
  await fetch(cached);
  const quietHealth = await probe(health, 3000);
  const quietPage = await probe(cached, 3000);

  const row = (name: string, quiet: { p50: number; p99: number }, loud: { p50: number; p99: number; statuses: Set<number> }) =>
    `${name.padEnd(16)} quiet p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms | flood p50 ${loud.p50.toFixed(1)} ms, p99 ${loud.p99.toFixed(1)} ms (statuses ${[...loud.statuses].join(",")})`;
  let floor: number | undefined;
  for (const kind of FLOODS) {
    const [floodHealth, floodPage, result] = await Promise.all([
      sleep(1000).then(() => probe(health, (FLOOD_SECONDS - 2) * 1000)),
      sleep(1000).then(() => probe(cached, (FLOOD_SECONDS - 2) * 1000)),
      flood(server.url, dir, kind),
    ]);
    console.log(`== flood: ${CONNECTIONS} connections, ${FLOOD_SECONDS} s of ${kind.name} ==`);
    console.log(row("/healthz", quietHealth, floodHealth));
    console.log(row("cached page", quietPage, floodPage));
    console.log(
      `flood answers (${result.client}): ${result.requests} requests, ${result.rps.toFixed(0)} req/s, latency p50 ${+result.p50.toFixed(1)} ms p99 ${+result.p99.toFixed(1)} ms; ` +
        `statuses ${[...result.statuses.entries()].map(([status, count]) => `${status}×${count}`).join(", ")}; errors ${result.errors}`,
    );
    floor ??= floodHealth.p99;
    console.log(
      `goal: /healthz p99 under 50 ms during the flood → ${floodHealth.p99 < 50 ? "met" : "NOT met"}` +
        (kind === FLOODS[0] ? "" : `; ${(floodHealth.p99 / floor).toFixed(2)}× the floor's p99`),
    );
    // The server settles before the next flood.
    await sleep(2000);
  }
  console.log(`server peak resident memory: ${peakRssMb(server.pid).toFixed(0)} MB`);
  console.log(`page-path check, 64 KB path of ".a" vs plain: ${pathCheckRatio().toFixed(2)}× (linear ≈ 1)`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
