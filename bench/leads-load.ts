// `npm run bench:leads`: 2,000 demo requests from 50 concurrent clients against the BUILT server
// (run `npm run build` first; BUILD_DIR is honoured), once on SQLite and once on PostgreSQL.
// Prints throughput and p50/p99 latency, then checks that every acknowledged submission is in
// demo_requests: 0 lost. PostgreSQL: a fresh database is created from BENCH_DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) and dropped afterwards; `--sqlite-only` skips it.
// Then the back office's inbox on 100,000 leads per form (bench/leads-inbox.ts, which runs alone too).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "~/db/connection.server";
import { listLeads } from "~/features/leads/db/leads.server";
import { demoRequestBody } from "./support/demo-request";
import { startBuiltServer } from "../scripts/lib/built-server";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SUCCESS_TEXT = "Demo Request Submitted";

type Result = {
  engine: string;
  seconds: number;
  acked: number;
  failed: number;
  p50: number;
  p99: number;
  stored: number;
  lost: number;
  duplicates: number;
};

async function main() {
  const results: Result[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), "leads-load-"));
  try {
    results.push(await runAgainst("sqlite", `file:${path.join(dir, "site.db")}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!process.argv.includes("--sqlite-only")) {
    const name = `leads_load_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      results.push(await runAgainst("postgres", url.toString()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
  console.log("\nengine    requests  clients  seconds  req/s   p50 ms  p99 ms  acked  failed  stored  lost");
  for (const r of results) {
    console.log(
      [
        r.engine.padEnd(9),
        String(REQUESTS).padStart(8),
        String(CONCURRENCY).padStart(8),
        r.seconds.toFixed(2).padStart(8),
        (r.acked / r.seconds).toFixed(0).padStart(6),
        r.p50.toFixed(1).padStart(8),
        r.p99.toFixed(1).padStart(7),
        String(r.acked).padStart(6),
        String(r.failed).padStart(7),
        String(r.stored).padStart(7),
        String(r.lost).padStart(5),
      ].join(" "),
    );
  }
  const bad = results.filter((r) => r.lost > 0 || r.duplicates > 0);
  if (bad.length) {
    console.error(`LOST OR DUPLICATED SUBMISSIONS on ${bad.map((r) => r.engine).join(", ")}`);
    process.exitCode = 1;
  }
}

async function runAgainst(engine: string, databaseUrl: string): Promise<Result> {
  const server = await startBuiltServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
  try {
    const campaign = `load-${engine}-${Date.now()}`;
    const target = `${server.url}/request-demo?utm_source=bench&utm_medium=load&utm_campaign=${campaign}`;
    // Warm-up (one request per client, not counted) so connection set-up does not skew p99.
    await Promise.all(
      Array.from({ length: CONCURRENCY }, () => fetch(`${server.url}/request-demo`).then((r) => r.arrayBuffer())),
    );

    const latencies: number[] = [];
    const acked: string[] = [];
    let failed = 0;
    let next = 0;
    const begun = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < REQUESTS; i = next++) {
          const email = `lead-${i}@${campaign}.example.com`;
          const body = demoRequestBody(i, email);
          const started = performance.now();
          try {
            const response = await fetch(target, { method: "POST", body });
            const html = await response.text();
            latencies.push(performance.now() - started);
            if (response.status === 200 && html.includes(SUCCESS_TEXT)) acked.push(email);
            else failed += 1;
          } catch {
            latencies.push(performance.now() - started);
            failed += 1;
          }
        }
      }),
    );
    const seconds = (performance.now() - begun) / 1000;

    // Every acknowledged submission must be in the table, exactly once.
    const open = await openDatabase(databaseUrl, 2);
    let rows: Record<string, unknown>[];
    try {
      rows = (await listLeads(open.db, "demo_requests")).filter((row) => row.utm_campaign === campaign);
    } finally {
      await open.db.destroy();
    }
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(String(row.email), (counts.get(String(row.email)) ?? 0) + 1);
    const lost = acked.filter((email) => !counts.has(email)).length;
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const result = {
      engine,
      seconds,
      acked: acked.length,
      failed,
      p50: pct(50),
      p99: pct(99),
      stored: rows.length,
      lost,
      duplicates,
    };
    console.log(`${engine}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await server.stop();
  }
}

await main();
await import("./leads-inbox");
