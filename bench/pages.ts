// Page-level benchmark: starts the built production server on a fresh SQLite database and prints
// (1) the JavaScript a first visit to `/` and to a post downloads, against the 105 KB budget, and
// (2) throughput of cache hits — the post page, `/robots.txt` — and of a static file
// (`/favicon.svg`) from our server, next to nginx (as installed: one worker per core) serving the
// very same bytes, the post page's brotli body with the headers our server sends, as a static
// file. Target: the cached post page at least a quarter of nginx.
//
// The machine is shared, so no single figure means much: the targets are measured in alternating
// rounds (ours, nginx, ours, nginx…) and the ratio is taken within each round. The server logs at
// `info` as in production (one JSON line per request, written to /dev/null here). The load comes
// from wrk when it is installed (`apt-get install -y wrk`), else from autocannon, whose Node
// client tops out below nginx on this machine and so makes the ratio look better than it is.
// Run after `npm run build`: `npm run bench:pages` (BENCH_SECONDS, BENCH_ROUNDS to change the load).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startBuiltServer } from "../scripts/lib/built-server";
import { rawRequest } from "../scripts/lib/raw-request";
import { runWrk, WRK } from "./support/wrk";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
/** What a browser sends: every cache hit is answered with its prepared brotli body. */
const ACCEPT_ENCODING = "gzip, deflate, br";

async function waitFor(url: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** One GET as a browser asks: the body exactly as sent (brotli, not decoded). */
const rawGet = (url: string) => rawRequest(url, { headers: { "accept-encoding": ACCEPT_ENCODING } });

type Figures = { rps: number; p50: number; p99: number; errors: number };

/** The load generator: wrk when installed, else autocannon (which flatters the ratio: see bench/support/wrk.ts). */
async function load(url: string, duration = DURATION_S): Promise<Figures> {
  const headers = { "accept-encoding": ACCEPT_ENCODING };
  if (WRK) {
    const result = await runWrk(url, { connections: CONNECTIONS, seconds: duration, headers });
    return { rps: result.rps, p50: result.p50, p99: result.p99, errors: result.errors + result.non2xx };
  }
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** An nginx `add_header` for each header our hit carries that nginx does not set itself. */
function nginxHeaders(headers: Record<string, string>): string {
  const own = new Set(["date", "connection", "keep-alive", "content-length", "content-type", "server", "x-request-id"]);
  return Object.entries(headers)
    .filter(([name, value]) => !own.has(name) && !value.includes("$"))
    .map(([name, value]) => `add_header ${name} "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}" always;`)
    .join("\n      ");
}

const dir = mkdtempSync(path.join(tmpdir(), "quorvant-bench-"));
const server = await startBuiltServer(
  { DATABASE_URL: `file:${path.join(dir, "site.db")}`, LOG_LEVEL: "info" },
  { discardStdout: true },
);
const base = server.url;
let nginx: ChildProcess | undefined;
try {
  const home = await (await fetch(`${base}/`)).text();
  const postPath = /href="(\/resources\/blog\/[^"?#]+)"/.exec(home)?.[1];
  if (!postPath) throw new Error("no post link on the home page");

  console.log("== JavaScript on first load (brotli) ==");
  spawnSync(process.execPath, ["scripts/js-budget.mjs", base, "/", postPath], { stdio: "inherit" });

  const targets: { name: string; url: string }[] = [
    { name: `site ${postPath} (cache hit)`, url: `${base}${postPath}` },
    { name: "site /robots.txt (cache hit)", url: `${base}/robots.txt` },
    { name: "site /favicon.svg (static file)", url: `${base}/favicon.svg` },
  ];

  await rawGet(`${base}${postPath}`); // cached for a second: the next request is a hit
  const hit = await rawGet(`${base}${postPath}`);
  if (hit.headers["x-page-cache"] !== "HIT" || hit.headers["content-encoding"] !== "br") {
    throw new Error(`the post page is not a brotli cache hit: ${JSON.stringify(hit.headers)}`);
  }
  const nginxBinary = spawnSync("sh", ["-c", "command -v nginx || ls /usr/sbin/nginx"]).stdout.toString().trim().split("\n")[0];
  if (!nginxBinary) {
    console.log("nginx: not installed (apt-get install -y nginx-light) — comparison skipped");
  } else {
    writeFileSync(path.join(dir, "post.html.br"), hit.body);
    chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
    const nginxPort = await freePort();
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `daemon off; worker_processes auto; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${dir};
    server_tokens off;
    etag off;
    location = /post {
      types { }
      default_type "${hit.headers["content-type"]}";
      try_files /post.html.br =404;
      add_header X-Request-Id $request_id always;
      ${nginxHeaders(hit.headers)}
    }
  }
}\n`,
    );
    nginx = spawn(nginxBinary, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
    await waitFor(`http://127.0.0.1:${nginxPort}/post`);
    const reference = await rawGet(`http://127.0.0.1:${nginxPort}/post`);
    if (!reference.body.equals(hit.body)) throw new Error("nginx does not send the same bytes");
    targets.splice(1, 0, { name: `nginx, the same ${hit.body.length} bytes`, url: `http://127.0.0.1:${nginxPort}/post` });
  }

  console.log(
    `\n== ${ROUNDS} rounds × ${DURATION_S} s per target, ${CONNECTIONS} connections, ${WRK ? "wrk (2 threads)" : "autocannon (wrk not installed)"}, Accept-Encoding: ${ACCEPT_ENCODING} ==`,
  );
  for (const target of targets) await load(target.url, 2); // warm-up
  const figures = new Map<string, Figures[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const result = await load(target.url);
      figures.get(target.name)!.push(result);
      console.log(
        `round ${round}  ${target.name.padEnd(52)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${+result.p50.toFixed(3)} ms  p99 ${+result.p99.toFixed(3)} ms  errors ${result.errors}`,
      );
    }
  }

  console.log("\n== median of the rounds ==");
  for (const target of targets) {
    const runs = figures.get(target.name)!;
    console.log(
      `${target.name.padEnd(52)} ${median(runs.map((run) => run.rps))
        .toFixed(0)
        .padStart(7)} req/s`,
    );
  }
  const nginxRuns = targets[1]?.name.startsWith("nginx") ? figures.get(targets[1].name) : undefined;
  if (nginxRuns) {
    const postRuns = figures.get(targets[0]!.name)!;
    const ratios = postRuns.map((run, index) => run.rps / nginxRuns[index]!.rps);
    console.log(
      `cached post page / nginx: ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")} per round; median ${median(ratios).toFixed(2)} (target ≥ 0.25)`,
    );
  }
} finally {
  nginx?.kill("SIGTERM");
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
