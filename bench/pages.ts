// Page-level benchmark: starts the built production server on a fresh SQLite database and prints
// (1) the JavaScript a first visit to `/` and to a post downloads, against the 105 KB budget (the
// careers page and a position's page, which carry the application form, against 145 KB), and
// (2) throughput of cache hits — the post page, `/robots.txt` — and of a static file
// (`/favicon.svg`) from our server, next to nginx (as installed: one worker per core) serving the
// very same bytes, the post page's brotli body with the headers our server sends, as a static
// file. Target: the cached post page at least a quarter of nginx.
// (3) The cached post page with visit counting on (as deployed) against a second server with it
// off (VISIT_COUNTING=off): counting a view must not cost a cache hit its speed. Target: about 1.
// (5) Each German page against its English original, cached (the home, the product page, the demo
// form), in short alternations of the two: a language's pages must be as fast as English ones.
// Target: ≥ 0.95. `BENCH_ONLY=languages npm run bench:pages` measures only this.
// (6) The cached post page on a server with metrics (METRICS_PORT, scraped every second during
// the load, fifteen times Prometheus's usual rate) against the server without, in short
// alternations: what measuring costs a cache hit. Target: ≥ 0.97.
// `BENCH_ONLY=metrics npm run bench:pages` measures only this.
// (4) An uploaded image's variant (/media, made from the database on its first request, then a
// file on the server's disk) against the same variant of a built-in image (/assets, made by the
// build): the first request's time, then the ratio of their throughput. Target: about 1.
//
// The machine is shared, so no single figure means much: the targets are measured in alternating
// rounds (ours, nginx, ours, nginx…) and the ratio is taken within each round. The server logs at
// `info` as in production (one JSON line per request, written to /dev/null here). The load comes
// from wrk when it is installed (`apt-get install -y wrk`), else from autocannon, whose Node
// client tops out below nginx on this machine and so makes the ratio look better than it is.
// Run after `npm run build`: `npm run bench:pages` (BENCH_SECONDS, BENCH_ROUNDS to change the load).
// With BENCH_REFERENCE (another checkout holding its build, or a git ref) it compares the marketing
// pages with that build's instead: bench/pages-reference.ts.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { mediaVariantUrl, parseMediaPath } from "~/features/media/media";
import { storeUpload } from "~/features/media/media.server";
import type { ImageManifest } from "~/features/media/responsive-image";
import { createUser } from "~/features/auth/db/admin-users.server";
import { openDatabase } from "~/db/connection.server";
import { freePort, startBuiltServer } from "../scripts/lib/built-server";
import { rawRequest } from "../scripts/lib/raw-request";
import { ACCEPT_ENCODING, browserLoad, LOAD_TOOL, type Figures } from "./support/browser-load";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
/** The pages of LANGUAGE_PAIRS with a lead form, whose first load carries the form's code. */
const FORM_PAGES = new Set(["/request-demo", "/de/demo-anfordern"]);
/** English pages and their German translations in the sample content. */
const LANGUAGE_PAIRS: [string, string][] = [
  ["/", "/de"],
  ["/products/sentinel", "/de/produkte/sentinel"],
  ["/request-demo", "/de/demo-anfordern"],
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
/** The languages' comparison: alternations of each pair, and seconds per page in each. */
const LANGUAGE_ALTERNATIONS = Number(process.env.BENCH_LANGUAGE_ALTERNATIONS ?? 8);
const LANGUAGE_SECONDS = Number(process.env.BENCH_LANGUAGE_SECONDS ?? 4);

if (process.env.BENCH_REFERENCE) {
  // The pages of this build against another checkout's build, instead of the figures below.
  await import("./pages-reference");
  process.exit(0);
}
console.log(
  "(to compare the pages with another build: BENCH_REFERENCE=<a checkout with its build, or a git ref> npm run bench:pages)\n",
);

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

/** The load generator: wrk when installed, else autocannon (which flatters the ratio: see bench/support/wrk.ts). */
const load = (url: string, seconds = DURATION_S) => browserLoad(url, { connections: CONNECTIONS, seconds });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** An nginx `add_header` for each header our hit carries that nginx does not set itself. */
function nginxHeaders(headers: Record<string, string>): string {
  const own = new Set(["date", "connection", "keep-alive", "content-length", "content-type", "server", "x-request-id"]);
  return Object.entries(headers)
    .filter(([name, value]) => !own.has(name) && !value.includes("$"))
    .map(([name, value]) => `add_header ${name} "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}" always;`)
    .join("\n      ");
}

/** The same photograph as a built-in image (its 800 px WebP from the build) and uploaded (stored in the database). */
async function imageVariants(databaseUrl: string): Promise<{ builtIn: string; uploaded: string }> {
  const source = "/images/photos/city-lights-at-dusk.jpg";
  const manifest = JSON.parse(
    readFileSync(path.resolve(process.env.BUILD_DIR ?? "build", "image-manifest.json"), "utf8"),
  ) as ImageManifest;
  const builtIn = manifest.images[source]?.variants["image/webp"].find((file) => file.width === 800)?.src;
  if (!builtIn) throw new Error(`the build made no 800 px WebP of ${source}`);
  const { db } = await openDatabase(databaseUrl, 1);
  try {
    const user = await createUser(db, { email: "bench@quorvant.com", roles: ["editor"] });
    const stored = await storeUpload(
      db,
      new File([readFileSync(`public${source}`)], path.basename(source)),
      "City lights at dusk",
      {
        ...user,
        ip: "command line",
      },
    );
    if (!stored.ok) throw new Error(`upload refused: ${JSON.stringify(stored.fieldErrors)}`);
    const { id, fileName } = parseMediaPath(stored.image.url)!;
    return { builtIn, uploaded: mediaVariantUrl({ id, fileName }, "image/webp", 800) };
  } finally {
    await db.destroy();
  }
}

/**
 * Each German page against its English original, cached, measured back to back (English then
 * German, German then English in the next alternation, so neither always has the warmer machine):
 * the ratio of each alternation, then their median. Short alternations keep the machine's drift out
 * of each ratio, which rounds of every target in turn did not.
 */
async function compareLanguages(pairs: readonly [string, string][]) {
  if (!pairs.length) return console.log("\nno German pages published: the languages' comparison is skipped");
  console.log(
    `\n== German pages against their English originals, cached: ${LANGUAGE_ALTERNATIONS} alternations × ${LANGUAGE_SECONDS} s per page ==`,
  );
  for (const [english, german] of pairs) {
    const sizes = await Promise.all([english, german].map(async (page) => (await rawGet(`${base}${page}`)).body.length));
    for (const page of [english, german]) await load(`${base}${page}`, 1); // cached and warm
    const ratios: number[] = [];
    for (let alternation = 0; alternation < LANGUAGE_ALTERNATIONS; alternation++) {
      const order = alternation % 2 === 0 ? [english, german] : [german, english];
      const rps = new Map<string, number>();
      for (const page of order) rps.set(page, (await load(`${base}${page}`, LANGUAGE_SECONDS)).rps);
      ratios.push(rps.get(german)! / rps.get(english)!);
    }
    console.log(
      `${german} (${sizes[1]} B brotli) / ${english} (${sizes[0]} B): ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}; median ${median(ratios).toFixed(2)} (target ≥ 0.95)`,
    );
  }
}

/** The metrics' comparison: alternations, and seconds per server in each. */
const METRICS_ALTERNATIONS = Number(process.env.BENCH_METRICS_ALTERNATIONS ?? 8);
const METRICS_SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 4);

/**
 * The cached post page on a server that serves metrics (and is scraped every second) against the
 * same page on the server without, measured back to back in alternating order: the ratio of each
 * alternation, then their median.
 */
async function compareMetrics(postPath: string) {
  const metricsPort = await freePort();
  const measured = await startBuiltServer(
    {
      DATABASE_URL: `file:${path.join(dir, "measured.db")}`,
      LOG_LEVEL: "info",
      MEDIA_CACHE_DIR: path.join(dir, "media-cache-3"),
      METRICS_PORT: String(metricsPort),
    },
    { discardStdout: true },
  );
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let scrapes = 0;
  const scraper = setInterval(() => void scrape().then(() => (scrapes += 1)), 1_000);
  try {
    console.log(
      `\n== The cached post page with metrics (scraped every second) against without: ${METRICS_ALTERNATIONS} alternations × ${METRICS_SECONDS} s per server ==`,
    );
    const [plain, withMetrics] = [`${base}${postPath}`, `${measured.url}${postPath}`];
    for (const url of [plain, withMetrics]) await load(url, 1); // cached and warm
    const ratios: number[] = [];
    const rps = { plain: [] as number[], withMetrics: [] as number[] };
    for (let alternation = 0; alternation < METRICS_ALTERNATIONS; alternation++) {
      const order = alternation % 2 === 0 ? (["plain", "withMetrics"] as const) : (["withMetrics", "plain"] as const);
      for (const which of order) rps[which].push((await load(which === "plain" ? plain : withMetrics, METRICS_SECONDS)).rps);
      ratios.push(rps.withMetrics.at(-1)! / rps.plain.at(-1)!);
    }
    const hits = /^quorvant_http_requests_total\{route="cached",method="GET",status="2xx"\} (\d+)/m.exec(await scrape())?.[1];
    console.log(
      `without metrics: median ${median(rps.plain).toFixed(0)} req/s; with metrics: median ${median(rps.withMetrics).toFixed(0)} req/s (${hits ?? "?"} hits counted, ${scrapes} scrapes)`,
    );
    console.log(
      `with / without metrics: ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")}; median ${median(ratios).toFixed(3)} (target ≥ 0.97)`,
    );
  } finally {
    clearInterval(scraper);
    await measured.stop();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "quorvant-bench-"));
const databaseUrl = `file:${path.join(dir, "site.db")}`;
const server = await startBuiltServer(
  { DATABASE_URL: databaseUrl, LOG_LEVEL: "info", MEDIA_CACHE_DIR: path.join(dir, "media-cache"), SITE_LOCALES: "en,de" },
  { discardStdout: true },
);
const base = server.url;
const uncounted = await startBuiltServer(
  {
    DATABASE_URL: `file:${path.join(dir, "uncounted.db")}`,
    LOG_LEVEL: "info",
    VISIT_COUNTING: "off",
    MEDIA_CACHE_DIR: path.join(dir, "media-cache-2"),
  },
  { discardStdout: true },
);
let nginx: ChildProcess | undefined;
try {
  const home = await (await fetch(`${base}/`)).text();
  const postPath = /href="(\/resources\/blog\/[^"?#]+)"/.exec(home)?.[1];
  if (!postPath) throw new Error("no post link on the home page");

  // The careers page and a position's page carry the application form's code: a budget of their own.
  const positionPath = /href="(\/company\/careers\/[^"?#]+)"/.exec(await (await fetch(`${base}/company/careers`)).text())?.[1];
  if (!positionPath) throw new Error("no position link on /company/careers");

  // German pages with their English originals, where the German one is published.
  const languagePairs: [string, string][] = [];
  for (const pair of LANGUAGE_PAIRS) if ((await fetch(`${base}${pair[1]}`)).status === 200) languagePairs.push(pair);

  if (process.env.BENCH_ONLY === "languages") {
    await compareLanguages(languagePairs);
    process.exitCode = 0;
  } else if (process.env.BENCH_ONLY === "metrics") {
    await compareMetrics(postPath);
  } else {
    console.log("== JavaScript on first load (brotli) ==");
    spawnSync(
      process.execPath,
      [
        "scripts/js-budget.mjs",
        base,
        "/",
        postPath,
        "/company/careers=145",
        `${positionPath}=145`,
        // Each German page beside its English original; the demo form's carry the form's code, as careers does.
        ...languagePairs.flat().map((page) => (FORM_PAGES.has(page) ? `${page}=145` : page)),
      ],
      { stdio: "inherit" },
    );

    const uncountedPost = { name: `site ${postPath} (cache hit, counting off)`, url: `${uncounted.url}${postPath}` };
    const targets: { name: string; url: string }[] = [
      { name: `site ${postPath} (cache hit)`, url: `${base}${postPath}` },
      uncountedPost,
      { name: "site /robots.txt (cache hit)", url: `${base}/robots.txt` },
      { name: "site /favicon.svg (static file)", url: `${base}/favicon.svg` },
    ];

    console.log("\n== An uploaded image's variant against a built-in one ==");
    const images = await imageVariants(databaseUrl);
    const started = performance.now();
    const made = await rawGet(`${base}${images.uploaded}`);
    if (made.status !== 200) throw new Error(`${images.uploaded} answered ${made.status}`);
    console.log(
      `first request of ${images.uploaded}: ${(performance.now() - started).toFixed(0)} ms (encoded from the database)`,
    );
    const builtInBytes = (await rawGet(`${base}${images.builtIn}`)).body.length;
    console.log(`800 px WebP: built-in ${builtInBytes} bytes, uploaded ${made.body.length} bytes`);
    const builtInImage = { name: "site built-in image variant (800 px WebP)", url: `${base}${images.builtIn}` };
    const uploadedImage = { name: "site uploaded image variant (800 px WebP)", url: `${base}${images.uploaded}` };
    targets.push(builtInImage, uploadedImage);

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
      `\n== ${ROUNDS} rounds × ${DURATION_S} s per target, ${CONNECTIONS} connections, ${LOAD_TOOL}, Accept-Encoding: ${ACCEPT_ENCODING} ==`,
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
    const countedRuns = figures.get(targets[0]!.name)!;
    const uncountedRuns = figures.get(uncountedPost.name)!;
    const countingRatios = countedRuns.map((run, index) => run.rps / uncountedRuns[index]!.rps);
    console.log(
      `cached post page, visits counted / not counted: ${countingRatios.map((ratio) => ratio.toFixed(2)).join(", ")} per round; median ${median(countingRatios).toFixed(2)} (target ≈ 1)`,
    );
    const { db } = await openDatabase(databaseUrl, 1);
    try {
      await new Promise((resolve) => setTimeout(resolve, 11_000)); // one flush interval
      const counted = await db
        .selectFrom("page_views")
        .select((eb) => eb.fn.sum<number>("views").as("views"))
        .where("path", "=", postPath)
        .executeTakeFirst();
      console.log(`views of ${postPath} counted by the server: ${Number(counted?.views ?? 0)}`);
    } finally {
      await db.destroy();
    }
    const uploadedRuns = figures.get(uploadedImage.name)!;
    const builtInRuns = figures.get(builtInImage.name)!;
    const imageRatios = uploadedRuns.map((run, index) => run.rps / builtInRuns[index]!.rps);
    console.log(
      `uploaded image variant / built-in image variant: ${imageRatios.map((ratio) => ratio.toFixed(2)).join(", ")} per round; median ${median(imageRatios).toFixed(2)} (target ≈ 1)`,
    );
    await compareLanguages(languagePairs);
    await compareMetrics(postPath);
  }
} finally {
  nginx?.kill("SIGTERM");
  await server.stop();
  await uncounted.stop();
  rmSync(dir, { recursive: true, force: true });
}
