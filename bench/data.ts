// `npm run bench:data`: load 10,000 posts into a fresh database per engine and time the queries the
// pages run. Target: each under 5 ms median on SQLite. PostgreSQL comes from
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); a fresh database is made and dropped.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import pg from "pg";
import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import { countPublishedPosts, findPublishedPost, listPublishedPosts } from "~/features/blog/db/posts.server";

const POSTS = 10_000;
const RUNS = 300;
const CATEGORIES = ["AI Governance", "Compliance", "Engineering", "Product News", "Security", "Research", "Events", "Customers"];
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const paragraph =
  "Governance that engineers follow is governance that saves them time: one registration, one evaluation run, one audit trail, reused for every regulator. ";

async function load(open: OpenDatabase) {
  const start = Date.parse("2020-01-01T00:00:00Z");
  const rows = Array.from({ length: POSTS }, (_, i) => ({
    id: randomUUID(),
    slug: `post-${i}`,
    title: `Post number ${i}`,
    excerpt: `The excerpt of post ${i}.`,
    content: paragraph.repeat(15),
    category: CATEGORIES[i % CATEGORIES.length]!,
    author: "Bench",
    published_date: new Date(start + i * 3_600_000).toISOString(),
    read_time: 5,
    image_url: null,
    featured: i % 500 === 0,
    published: i % 10 !== 0, // one in ten is a draft the queries must skip
  }));
  const begun = performance.now();
  await open.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto("blog_posts")
        .values(rows.slice(i, i + 500))
        .execute();
  });
  // Fresh planner statistics, as a long-running database would have.
  await sql.raw(open.dialect === "postgres" ? "analyze blog_posts" : "analyze").execute(open.db);
  return performance.now() - begun;
}

async function time(run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 30; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const begun = performance.now();
    await run(i);
    samples.push(performance.now() - begun);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(RUNS / 2)]!, p95: samples[Math.floor(RUNS * 0.95)]! };
}

async function bench(name: string, url: string) {
  const open = await openDatabase(url, 4);
  try {
    await migrateToLatest(open.db, open.dialect);
    const loadMs = await load(open);
    const { db } = open;
    const results = {
      "newest 5": await time(() => listPublishedPosts(db, { limit: 5 })),
      count: await time(() => countPublishedPosts(db)),
      "category page (12, page 3)": await time((i) =>
        listPublishedPosts(db, { limit: 12, offset: 24, category: CATEGORIES[i % CATEGORIES.length] }),
      ),
      "category count": await time((i) => countPublishedPosts(db, { category: CATEGORIES[i % CATEGORIES.length] })),
      "by slug": await time((i) => findPublishedPost(db, `post-${(i * 7919) % POSTS}`)),
    };
    console.log(`\n${name}: ${POSTS.toLocaleString("en-US")} posts loaded in ${(loadMs / 1000).toFixed(2)} s`);
    for (const [query, { median, p95 }] of Object.entries(results)) {
      console.log(`  ${query.padEnd(28)} median ${median.toFixed(3).padStart(7)} ms   p95 ${p95.toFixed(3).padStart(7)} ms`);
    }
    return results;
  } finally {
    await open.db.destroy();
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-bench-"));
let failed = false;
try {
  const sqlite = await bench("SQLite (better-sqlite3, WAL)", `file:${path.join(dir, "bench.db")}`);
  const slow = Object.entries(sqlite).filter(([, { median }]) => median >= 5);
  if (slow.length) {
    failed = true;
    console.error(`\nSQLite over the 5 ms median target: ${slow.map(([query]) => query).join(", ")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
const reachable = await admin.connect().then(
  () => true,
  (error: Error) => {
    console.log(`\nPostgreSQL skipped: ${PG_URL} is unreachable (${error.message}).`);
    return false;
  },
);
if (reachable) {
  const name = `quorvant_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    await bench("PostgreSQL (pg pool)", url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
  }
}
await admin.end().catch(() => undefined);
process.exit(failed ? 1 : 0);
