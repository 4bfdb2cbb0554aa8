// Part of `npm run bench:leads`: the back office's lead inbox on 100,000 leads per form against
// the same queries on 1,000, per engine. Each query (newest page, a page deep in the inbox, an
// email-prefix search, a full-name search) is timed as a median of RUNS; the ratio large/small is
// the goal (at most 3x: a page must not get slower as leads pile up). A one-letter search, which
// matches a large share of the leads, is printed for information.
// PostgreSQL: a fresh database from BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// dropped afterwards; `--sqlite-only` skips it. BENCH_INBOX_LEADS changes the large size.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import pg from "pg";
import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import { listLeadInbox, type LeadCursor, type LeadInboxFilter } from "~/features/leads/db/lead-inbox.server";
import type { LeadTable } from "~/db/schema";

const LARGE = Number(process.env.BENCH_INBOX_LEADS ?? 100_000);
const SMALL = 1_000;
const RUNS = 200;
const GOAL = 3;
const PAGE = 50;
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TABLES: LeadTable[] = ["sales_leads", "demo_requests", "career_applications"];
const FIRST = ["Ada", "Grace", "Alan", "Barbara", "Edsger", "Frances", "Donald", "Margaret", "Ken", "Radia"];
const SYLLABLES = [
  "ba",
  "ko",
  "ri",
  "ta",
  "mel",
  "vos",
  "dun",
  "sar",
  "lin",
  "pe",
  "gor",
  "hu",
  "zan",
  "fi",
  "wel",
  "tro",
  "ma",
  "nes",
  "ul",
  "chi",
];
/** 8,000 surnames: one per 12 or so of the large inbox's leads, as in a real list of people. */
const surname = (n: number) =>
  [SYLLABLES[n % 20]!, SYLLABLES[Math.floor(n / 20) % 20]!, SYLLABLES[Math.floor(n / 400) % 20]!]
    .join("")
    .replace(/^./, (letter) => letter.toUpperCase());
/** The lead every search looks for: it exists in the small inbox and in the large one. */
const SOUGHT = 500;

const person = (index: number) => {
  const first = FIRST[index % FIRST.length]!;
  const last = surname((index * 7919) % 8000);
  return { first, last, email: `${first}.${last}.${index}@company${index % 2000}.example`.toLowerCase() };
};

async function load(open: OpenDatabase, count: number) {
  const begun = performance.now();
  const start = Date.parse("2024-01-01T00:00:00Z");
  for (const table of TABLES) {
    for (let offset = 0; offset < count; offset += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - offset) }, (_, step) => {
        const index = offset + step;
        const { first, last, email } = person(index);
        return {
          id: randomUUID(),
          // Two years of leads, a few seconds apart.
          created_at: new Date(start + Math.floor((index * 63_000_000_000) / count)).toISOString(),
          first_name: first,
          last_name: last,
          email,
          ...(table === "career_applications" ? {} : { company: `Company ${index % 2000}` }),
          status: ["new", "new", "contacted", "qualified", "lost"][index % 5]!,
          source_page: table === "career_applications" ? "/company/careers" : "/request-demo",
          utm_campaign: `campaign-${index % 12}`,
        };
      });
      await open.db
        .insertInto(table as "sales_leads")
        .values(rows)
        .execute();
    }
  }
  // PostgreSQL's autovacuum keeps planner statistics on a live database; the site never runs
  // ANALYZE on SQLite, so the SQLite half is measured without them, as it runs.
  if (open.dialect === "postgres") await sql`analyze`.execute(open.db);
  return (performance.now() - begun) / 1000;
}

async function median(run: () => Promise<unknown>) {
  for (let index = 0; index < 20; index += 1) await run();
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const begun = performance.now();
    await run();
    samples.push(performance.now() - begun);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(RUNS / 2)]!;
}

type Timings = Record<string, number>;

async function timeQueries(open: OpenDatabase, count: number): Promise<Timings> {
  const db = open.db;
  const sought = person(SOUGHT);
  const timings: Timings = {};
  for (const table of TABLES) {
    const page = (filter: LeadInboxFilter, after?: LeadCursor) => listLeadInbox(db, table, filter, { after, limit: PAGE });
    // A page halfway down the inbox, reached by its cursor.
    const middle = (await listLeadInbox(db, table, { search: person(Math.floor(count / 2)).email }, { limit: 1 })).leads[0]!;
    const found = await page({ search: sought.email });
    if (!found.leads.some((lead) => lead.email === sought.email)) throw new Error(`the sought lead is missing from ${table}`);
    timings[`${table}: newest page`] = await median(() => page({}));
    timings[`${table}: page halfway`] = await median(() => page({}, middle.cursor));
    timings[`${table}: newest page, one status`] = await median(() => page({ status: "qualified" }));
    timings[`${table}: email prefix`] = await median(() =>
      page({ search: sought.email.slice(0, sought.email.indexOf("@") + 1) }),
    );
    timings[`${table}: first and last name`] = await median(() => page({ search: `${sought.first} ${sought.last}` }));
    timings[`${table}: last name`] = await median(() => page({ search: sought.last }));
    timings[`${table}: one letter (information)`] = await median(() => page({ search: "a" }));
  }
  return timings;
}

async function bench(engine: string, makeUrl: () => Promise<{ url: string; drop: () => Promise<void> }>) {
  const results: Record<number, Timings> = {};
  for (const count of [SMALL, LARGE]) {
    const { url, drop } = await makeUrl();
    const open = await openDatabase(url, 4);
    try {
      await migrateToLatest(open.db, open.dialect);
      const seconds = await load(open, count);
      console.log(`${engine}: ${count.toLocaleString("en-US")} leads per form loaded in ${seconds.toFixed(1)} s`);
      results[count] = await timeQueries(open, count);
    } finally {
      await open.db.destroy();
      await drop();
    }
  }
  console.log(`\n${engine} (median of ${RUNS}, ms)`);
  console.log(`${"query".padEnd(52)} ${`${SMALL}`.padStart(9)} ${`${LARGE}`.padStart(9)}   ratio`);
  let over = 0;
  for (const [query, small] of Object.entries(results[SMALL]!)) {
    const large = results[LARGE]![query]!;
    const ratio = large / small;
    const gated = !query.endsWith("(information)");
    const verdict = gated ? (ratio <= GOAL ? "ok" : `OVER ${GOAL}x`) : "";
    if (gated && ratio > GOAL) over += 1;
    console.log(
      `${query.padEnd(52)} ${small.toFixed(3).padStart(9)} ${large.toFixed(3).padStart(9)} ${ratio.toFixed(2).padStart(6)}x ${verdict}`,
    );
  }
  return over;
}

let over = 0;
over += await bench("SQLite", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "leads-inbox-"));
  return { url: `file:${path.join(dir, "site.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
});
if (!process.argv.includes("--sqlite-only")) {
  over += await bench("PostgreSQL", async () => {
    const name = `leads_inbox_${process.pid}_${randomUUID().replaceAll("-", "").slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const client = new pg.Client({ connectionString: PG_ADMIN_URL });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  });
}
if (over) {
  console.error(
    `\n${over} inbox queries are more than ${GOAL}x slower on ${LARGE.toLocaleString("en-US")} leads than on ${SMALL}.`,
  );
  process.exitCode = 1;
}
