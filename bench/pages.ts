// Page-level benchmark: starts the built production server on a fresh SQLite database and prints
// (1) the JavaScript a first visit to `/` and to a post downloads, against the 105 KB budget, and
// (2) post-page throughput from our server (page cache on) next to nginx serving the same bytes
// as a static file, when nginx is installed (target: at least a quarter of nginx).
// Run after `npm run build`: `npm run bench:pages`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startBuiltServer } from "../scripts/lib/built-server";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

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

async function load(url: string) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: { "accept-encoding": "identity" } }); // warm-up
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { "accept-encoding": "identity" },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const dir = mkdtempSync(path.join(tmpdir(), "quorvant-bench-"));
const server = await startBuiltServer({ DATABASE_URL: `file:${path.join(dir, "site.db")}`, LOG_LEVEL: "warn" });
const base = server.url;
let nginx: ChildProcess | undefined;
try {
  const home = await (await fetch(`${base}/`)).text();
  const postPath = /href="(\/resources\/blog\/[^"?#]+)"/.exec(home)?.[1];
  if (!postPath) throw new Error("no post link on the home page");

  console.log("== JavaScript on first load (brotli) ==");
  spawnSync(process.execPath, ["scripts/js-budget.mjs", base, "/", postPath], { stdio: "inherit" });

  console.log(`\n== ${postPath}: ${CONNECTIONS} connections, ${DURATION_S} s ==`);
  const ours = await load(`${base}${postPath}`);
  console.log(`site (page cache): ${ours.rps.toFixed(0)} req/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, errors ${ours.errors}`);

  const nginxBinary = spawnSync("sh", ["-c", "command -v nginx"]).stdout.toString().trim();
  if (!nginxBinary) {
    console.log("nginx: not installed (apt-get install -y nginx-light) — comparison skipped");
  } else {
    const html = Buffer.from(await (await fetch(`${base}${postPath}`)).arrayBuffer());
    writeFileSync(path.join(dir, "post.html"), html);
    chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
    const nginxPort = await freePort();
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:${nginxPort}; root ${dir}; location / { default_type text/html; } } }\n`,
    );
    nginx = spawn(nginxBinary, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
    await waitFor(`http://127.0.0.1:${nginxPort}/post.html`);
    const reference = await load(`http://127.0.0.1:${nginxPort}/post.html`);
    console.log(
      `nginx (same ${html.length} bytes, 1 worker): ${reference.rps.toFixed(0)} req/s, p50 ${reference.p50} ms, p99 ${reference.p99} ms`,
    );
    console.log(`ratio: ${((ours.rps / reference.rps) * 100).toFixed(0)}% of nginx (target ≥ 25%)`);
  }
} finally {
  nginx?.kill("SIGTERM");
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
