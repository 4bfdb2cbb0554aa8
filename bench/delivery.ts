// `npm run bench:delivery`: lead delivery under load, against the BUILT server (run `npm run build`
// first; BUILD_DIR is honoured). 2,000 demo requests from 50 concurrent clients, on (a) one server
// on SQLite and (b) two servers on one fresh PostgreSQL database (clients alternate between them),
// each configured with a webhook to a receiver on loopback that fails 30 % of attempts (500) at
// random, with fast retries. Prints the form's answer time p50/p99, the time from the form's 200
// to the first successful delivery p50/p99, and fails (exit 1) unless every lead was delivered
// exactly once. The same load with delivery off (no webhook) gives the baseline: the ratio on/off
// of the answer times shows what delivery costs a visitor (target: within 10 %). Off and on
// alternate over BENCH_ROUNDS rounds (default 3) and the ratio compares their medians.
//
// BENCH_REQUESTS and BENCH_CONCURRENCY change the load; `--sqlite-only` skips PostgreSQL, which is
// a fresh database on TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/test),
// dropped afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { demoRequestBody } from "./support/demo-request";
import { startBuiltServer, type BuiltServer } from "../scripts/lib/built-server";
import { postgresAvailability, postgresEngine } from "../tests/data/support/engines";
import {
  deliveryRows,
  inPool,
  leadsOfCampaign,
  newWebhookSecret,
  sleep,
  startWebhookReceiver,
  waitUntil,
  type WebhookReceiver,
} from "../tests/e2e/support/delivery-receivers";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
/** Rounds of off and on per setup; the ratio compares the medians over the rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Share of webhook attempts the receiver answers 500. */
const FAILURE_RATE = 0.3;
const DELIVERY_ENV = { DELIVERY_RETRY_BASE_MS: "200", DELIVERY_RETRY_MAX_MS: "2000", DELIVERY_POLL_MS: "100" };
/** Every bounded wait: one form post, the queue draining after the load, a server stopping. */
const POST_TIMEOUT_MS = 30_000;
const DRAIN_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 20_000;
const SUCCESS_TEXT = "Demo Request Submitted";

type Setup = { name: string; servers: number; database: () => Promise<{ url: string; cleanup: () => Promise<void> }> };

type LoadResult = {
  seconds: number;
  latencies: number[];
  /** Email → when the form's 200 arrived (Date.now()). */
  acked: Map<string, number>;
  failed: number;
};

type Run = {
  setup: string;
  delivery: "off" | "on";
  load: LoadResult;
  /** Delivery on only. */
  deliveryLatencies?: number[];
  attempts?: number;
  problems: string[];
};

async function main() {
  if ([REQUESTS, CONCURRENCY, ROUNDS].some((value) => !Number.isInteger(value) || value < 1)) {
    throw new Error("BENCH_REQUESTS, BENCH_CONCURRENCY and BENCH_ROUNDS must be whole numbers from 1");
  }
  const setups: Setup[] = [{ name: "sqlite, 1 server", servers: 1, database: sqliteDatabase }];
  if (!process.argv.includes("--sqlite-only")) {
    const postgres = await postgresAvailability();
    if (postgres.available) setups.push({ name: "postgres, 2 servers", servers: 2, database: postgresDatabase });
    else console.warn(`Skipping PostgreSQL: ${postgres.reason}`);
  }

  const runs: Run[] = [];
  for (const setup of setups) {
    // Off and on alternate (off→on, then on→off, …), each on a fresh database and fresh server
    // processes, so a machine that gets busier or quieter during the run weighs on both alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      const order: ("off" | "on")[] = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
      for (const delivery of order) runs.push(await measure(setup, delivery));
    }
  }
  report(runs);
}

async function sqliteDatabase() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "delivery-bench-"));
  return { url: `file:${path.join(dir, "site.db")}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresDatabase() {
  const engine = postgresEngine();
  return { url: await engine.create(), cleanup: () => engine.cleanup() };
}

async function measure(setup: Setup, delivery: "off" | "on"): Promise<Run> {
  const label = `${setup.name}, delivery ${delivery}`;
  console.log(`\n${label}: ${REQUESTS} demo requests from ${CONCURRENCY} clients…`);
  const database = await setup.database();
  const secret = newWebhookSecret();
  let receiver: WebhookReceiver | undefined;
  const servers: BuiltServer[] = [];
  try {
    let env: Record<string, string> = { DATABASE_URL: database.url, LOG_LEVEL: "warn" };
    if (delivery === "on") {
      receiver = await startWebhookReceiver({ secret, responder: () => (Math.random() < FAILURE_RATE ? 500 : 204) });
      env = { ...env, ...DELIVERY_ENV, WEBHOOK_URL_REQUEST_DEMO: `${receiver.url}/leads`, WEBHOOK_SECRET: secret };
    }
    // Several servers start together, as after a deploy: migrations meet under the advisory lock.
    const started = await Promise.allSettled(Array.from({ length: setup.servers }, () => startBuiltServer(env)));
    for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
    for (const result of started) if (result.status === "rejected") throw result.reason;

    const campaign = `delivery-${delivery}-${Date.now()}`;
    const load = await postLoad(servers, campaign);
    console.log(
      `  ${load.acked.size} acknowledged, ${load.failed} failed in ${load.seconds.toFixed(1)} s; form p50 ${pct(load.latencies, 50).toFixed(1)} ms, p99 ${pct(load.latencies, 99).toFixed(1)} ms`,
    );
    const run: Run = { setup: setup.name, delivery, load, problems: [] };
    if (load.failed > 0) run.problems.push(`${load.failed} form posts were not acknowledged`);
    if (receiver) await checkDeliveries(run, receiver, database.url, campaign);
    else {
      const rows = await deliveryRows(database.url);
      if (rows.length > 0) run.problems.push(`delivery off, yet ${rows.length} lead_deliveries rows were written`);
    }
    return run;
  } finally {
    for (const server of servers) await stopBounded(server);
    await receiver?.close();
    await database.cleanup();
  }
}

/** REQUESTS demo posts from CONCURRENCY clients, request i going to server i mod n. */
async function postLoad(servers: BuiltServer[], campaign: string): Promise<LoadResult> {
  // Warm-up (one page load per client, not counted) so connection set-up does not skew p99.
  await inPool(CONCURRENCY, CONCURRENCY, async (index) => {
    const server = servers[index % servers.length]!;
    await fetch(`${server.url}/request-demo`, { signal: AbortSignal.timeout(POST_TIMEOUT_MS) }).then((r) => r.arrayBuffer());
  });
  const latencies: number[] = [];
  const acked = new Map<string, number>();
  let failed = 0;
  const begun = performance.now();
  await inPool(REQUESTS, CONCURRENCY, async (index) => {
    const server = servers[index % servers.length]!;
    const email = `lead-${index}@${campaign}.example.com`;
    const body = demoRequestBody(index, email);
    const target = `${server.url}/request-demo?utm_source=bench&utm_medium=delivery&utm_campaign=${campaign}`;
    const started = performance.now();
    try {
      const response = await fetch(target, {
        method: "POST",
        body,
        headers: { Origin: server.url },
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      });
      // The form's 200: its status line has arrived (the page may still be streaming).
      const answeredAt = Date.now();
      const html = await response.text();
      latencies.push(performance.now() - started);
      if (response.status === 200 && html.includes(SUCCESS_TEXT)) acked.set(email, answeredAt);
      else failed += 1;
    } catch {
      latencies.push(performance.now() - started);
      failed += 1;
    }
  });
  return { seconds: (performance.now() - begun) / 1000, latencies, acked, failed };
}

/**
 * Waits (bounded) until every stored lead has had a successful webhook and every delivery row
 * is sent, then checks: each lead delivered exactly once, each webhook-id answered 2xx once,
 * every request signed, one delivery row per lead.
 */
async function checkDeliveries(run: Run, receiver: WebhookReceiver, databaseUrl: string, campaign: string) {
  const leads = await leadsOfCampaign(databaseUrl, "demo_requests", campaign);
  const leadIdByEmail = new Map(leads.map((lead) => [String(lead.email), String(lead.id)]));
  for (const email of run.load.acked.keys())
    if (!leadIdByEmail.has(email)) run.problems.push(`acknowledged but not stored: ${email}`);
  const drainBegun = performance.now();
  try {
    await waitUntil(
      () => leads.every((lead) => receiver.deliveredPerLeadId().has(String(lead.id))),
      DRAIN_TIMEOUT_MS,
      () =>
        `${leads.filter((lead) => !receiver.deliveredPerLeadId().has(String(lead.id))).length} of ${leads.length} leads undelivered`,
      200,
    );
    await waitUntil(
      async () => (await deliveryRows(databaseUrl)).every((row) => row.status === "sent"),
      30_000,
      () => "delivery rows not all marked sent",
      500,
    );
  } catch (error) {
    run.problems.push((error as Error).message);
  }
  console.log(`  queue drained ${((performance.now() - drainBegun) / 1000).toFixed(1)} s after the last answer`);
  // A few more polls of every worker: anything sent twice would show now.
  await sleep(1_000);

  const rows = await deliveryRows(databaseUrl);
  if (rows.length !== leads.length) run.problems.push(`${rows.length} delivery rows for ${leads.length} leads`);
  const notSent = rows.filter((row) => row.status !== "sent");
  if (notSent.length) run.problems.push(`${notSent.length} deliveries not sent: ${JSON.stringify(notSent.slice(0, 3))}`);
  const perLead = receiver.deliveredPerLeadId();
  const twice = [...perLead].filter(([, count]) => count > 1);
  if (twice.length)
    run.problems.push(`${twice.length} leads delivered more than once, e.g. ${JSON.stringify(twice.slice(0, 3))}`);
  const missing = leads.filter((lead) => !perLead.has(String(lead.id)));
  if (missing.length) run.problems.push(`${missing.length} leads never delivered`);
  const idTwice = [...receiver.deliveredPerWebhookId()].filter(([, count]) => count > 1);
  if (idTwice.length) run.problems.push(`${idTwice.length} webhook-ids answered 2xx more than once`);
  const unsigned = receiver.requests.filter((request) => !request.verified);
  if (unsigned.length)
    run.problems.push(`${unsigned.length} webhooks failed signature verification: ${unsigned[0]!.verifyError}`);

  // Form's 200 → the receiver's 2xx answer to the first successful attempt.
  const firstSuccess = new Map<string, number>();
  for (const request of receiver.requests) {
    if (!request.delivered || request.finishedAt === undefined) continue;
    const email = String(request.payload?.lead.email);
    firstSuccess.set(email, Math.min(firstSuccess.get(email) ?? Infinity, request.finishedAt));
  }
  run.deliveryLatencies = [...run.load.acked]
    .filter(([email]) => firstSuccess.has(email))
    .map(([email, ackedAt]) => firstSuccess.get(email)! - ackedAt);
  run.attempts = receiver.requests.length;
  const failures = receiver.requests.filter((request) => request.status === 500).length;
  console.log(
    `  ${receiver.requests.length} webhook attempts (${failures} answered 500) for ${leads.length} leads; 200 → delivered p50 ${pct(run.deliveryLatencies, 50).toFixed(0)} ms, p99 ${pct(run.deliveryLatencies, 99).toFixed(0)} ms`,
  );
}

async function stopBounded(server: BuiltServer) {
  const stopped = await Promise.race([server.stop().then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    console.warn(`a server did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; killed`);
    await server.kill("SIGKILL");
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function report(runs: Run[]) {
  console.log(
    "\nsetup                 delivery  seconds  req/s  form p50  form p99  acked  failed  attempts  200→sent p50  200→sent p99",
  );
  for (const run of runs) {
    const { load } = run;
    console.log(
      [
        run.setup.padEnd(21),
        run.delivery.padEnd(8),
        load.seconds.toFixed(1).padStart(8),
        (load.acked.size / load.seconds).toFixed(0).padStart(6),
        `${pct(load.latencies, 50).toFixed(1)} ms`.padStart(9),
        `${pct(load.latencies, 99).toFixed(1)} ms`.padStart(9),
        String(load.acked.size).padStart(6),
        String(load.failed).padStart(7),
        (run.attempts === undefined ? "-" : String(run.attempts)).padStart(9),
        (run.deliveryLatencies ? `${pct(run.deliveryLatencies, 50).toFixed(0)} ms` : "-").padStart(13),
        (run.deliveryLatencies ? `${pct(run.deliveryLatencies, 99).toFixed(0)} ms` : "-").padStart(13),
      ].join(" "),
    );
  }
  console.log(`\nform answer time, delivery on / off, medians over ${ROUNDS} rounds (target: within 10 %):`);
  for (const setup of new Set(runs.map((run) => run.setup))) {
    const off = runs.filter((run) => run.setup === setup && run.delivery === "off");
    const on = runs.filter((run) => run.setup === setup && run.delivery === "on");
    if (!off.length || !on.length) continue;
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    const at = (group: Run[], p: number) => median(group.map((run) => pct(run.load.latencies, p)));
    const ratio = (p: number) => at(on, p) / at(off, p);
    const verdict = (value: number) => (value <= 1.1 ? "within 10 %" : "OVER 10 %");
    console.log(
      `  ${setup.padEnd(21)} p50 ×${ratio(50).toFixed(2)} (${verdict(ratio(50))})   p99 ×${ratio(99).toFixed(2)} (${verdict(ratio(99))})`,
    );
  }
  const failedRuns = runs.filter((run) => run.problems.length > 0);
  for (const run of failedRuns) {
    console.error(`\nFAILED: ${run.setup}, delivery ${run.delivery}:\n  ${run.problems.join("\n  ")}`);
  }
  if (failedRuns.length) process.exitCode = 1;
  else if (runs.some((run) => run.delivery === "on")) console.log("\nevery lead delivered exactly once");
}

await main();
