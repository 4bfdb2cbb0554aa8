import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import pg from "pg";
import { startBuiltServer } from "../../scripts/lib/built-server";
import { uniqueCampaign } from "../e2e/forms-support";
import { FAST_DELIVERY, newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from "../e2e/support/delivery-receivers";
import { privatePostgresBinaries, startPrivatePostgres } from "./support/private-postgres";
import { useTopology } from "./support/topology";

// PostgreSQL stopped for 30 s under the running site (nginx, two servers): every post a visitor
// was told "sent" for is kept in the answering server's lead spool, and stored exactly once,
// deliveries and all, when the database is back, also the leads of a server killed with SIGKILL
// during the outage and restarted. The database is a cluster of the test's own. And a spool that
// is full tells the visitor the post failed: never "sent" for a lead that was not kept.

const OUTAGE_MS = 30_000;
const CLIENTS = 4;
/** Each client's pause between posts: a steady stream, not a flood, on a shared machine. */
const PAUSE_MS = 150;

type Health = { status: string; database: string; spool: { entries: number; bytes: number; accepting: boolean } };

test.describe("the lead spool", () => {
  test.describe.configure({ mode: "default" });
  const secret = newWebhookSecret();
  let receiver: WebhookReceiver | undefined;
  test.beforeAll(async () => {
    receiver = await startWebhookReceiver({ secret });
  });
  test.afterAll(async () => {
    await receiver?.close();
  });
  const topology = useTopology(
    () => ({
      FORM_RATE_LIMIT: "100000",
      WEBHOOK_SECRET: secret,
      WEBHOOK_URL_REQUEST_DEMO: `${receiver!.url}/demo`,
      ...FAST_DELIVERY,
    }),
    { privatePostgres: true },
  );

  test("PostgreSQL stopped for 30 s, a server killed during it: every acknowledged lead is stored once and delivered", async ({
    request,
  }) => {
    test.setTimeout(240_000);
    const { url, servers, kill, restart, postgres, sql, leadRows, diagnostics } = topology();
    if (!postgres) throw new Error("the topology has no private PostgreSQL");
    const campaign = uniqueCampaign("spool-outage");
    const health = async (serverUrl: string) => {
      const response = await fetch(`${serverUrl}/healthz`);
      return { code: response.status, body: (await response.json()) as Health };
    };

    let next = 0;
    let posting = true;
    const acknowledged: { email: string; at: number }[] = [];
    const refused: string[] = [];
    const clients = Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (posting) {
          const email = `lead-${next++}@${campaign}.example.com`;
          if (await postDemo(request, url, campaign, email)) acknowledged.push({ email, at: Date.now() });
          else refused.push(email);
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      }),
    );

    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await postgres.stop();
      const outageStarted = Date.now();

      // Both servers keep leads: healthz says so (200 "degraded": the spool accepts).
      let keptBeforeKill = 0;
      await expect
        .poll(
          async () => {
            const [zero, one] = await Promise.all(servers.map((server) => health(server.url)));
            keptBeforeKill = one!.body.spool.entries;
            return [zero!.code, zero!.body.status, zero!.body.spool.entries > 0, one!.code, one!.body.status, keptBeforeKill > 0];
          },
          { timeout: 15_000, message: diagnostics() },
        )
        .toEqual([200, "degraded", true, 200, "degraded", true]);

      // A third of the way in, server 1 crashes with leads in its spool, and is started again at
      // once: it waits for the database (its spool holds leads) and does not listen until then.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageStarted + OUTAGE_MS / 3 - Date.now())));
      keptBeforeKill = (await health(servers[1]!.url)).body.spool.entries;
      await kill(1);
      const restarted = restart(1, { healthyWithinMs: OUTAGE_MS + 60_000 });
      restarted.catch(() => undefined); // awaited below

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageStarted + OUTAGE_MS - Date.now())));
      await postgres.start();
      const back = Date.now();

      // The spools empty, both servers healthy: the time from the database's return to that, for
      // the server that kept running, and for both (server 1 first has to start).
      const drained = (state: { code: number; body: Health }) =>
        state.code === 200 && state.body.status === "ok" && state.body.spool.entries === 0;
      let survivorDrainedAt = 0;
      await expect
        .poll(
          async () => {
            const empty = drained(await health(servers[0]!.url));
            if (empty && survivorDrainedAt === 0) survivorDrainedAt = Date.now();
            return empty;
          },
          { timeout: 60_000, intervals: [100], message: diagnostics() },
        )
        .toBe(true);
      await restarted;
      let drainedAt = 0;
      await expect
        .poll(
          async () => {
            const empty = (await Promise.all(servers.map((server) => health(server.url)))).every(drained);
            if (empty && drainedAt === 0) drainedAt = Date.now();
            return empty;
          },
          { timeout: 60_000, intervals: [100], message: diagnostics() },
        )
        .toBe(true);
      posting = false;
      await clients;

      const duringOutage = acknowledged.filter(({ at }) => at > outageStarted && at < back).length;
      const counts = new Map<string, number>();
      const rows = await leadRows("demo_requests", campaign);
      for (const row of rows) counts.set(String(row.email), (counts.get(String(row.email)) ?? 0) + 1);
      const lost = acknowledged.filter(({ email }) => counts.get(email) !== 1).map(({ email }) => email);
      const duplicates = [...counts].filter(([, count]) => count > 1).length;
      const figures =
        `acknowledged ${acknowledged.length} (${duringOutage} during the outage), stored ${rows.length}, ` +
        `duplicates ${duplicates}, refused ${refused.length}, server 1 spool at its kill ${keptBeforeKill}, ` +
        `spools empty after PostgreSQL was back: server 0 in ${survivorDrainedAt - back} ms, both ` +
        `(server 1 restarted, waiting for the database) in ${drainedAt - back} ms`;
      console.log(`lead spool outage: ${figures}`);
      test.info().annotations.push({ type: "lead spool outage", description: figures });

      expect(lost, `acknowledged but not stored exactly once:\n${diagnostics()}`).toEqual([]);
      expect(duplicates).toBe(0);
      expect(duringOutage, "leads were acknowledged while PostgreSQL was down").toBeGreaterThan(0);
      expect(keptBeforeKill, "server 1 held leads when it was killed").toBeGreaterThan(0);
      // The restarted server waited for the database, then replayed what its predecessor kept.
      const successorLog = servers[1]!.output();
      expect(successorLog).toContain("database unreachable at start; kept leads wait in the lead spool");
      expect(successorLog).toContain("lead spool holds leads from before this start; replaying");

      // Each stored lead has its delivery queued, and it goes out as usual.
      const ids = rows.map((row) => String(row.id));
      const deliveries = await sql<{ lead_id: string }>(
        "select lead_id from lead_deliveries where lead_table = 'demo_requests' and lead_id::text = any($1::text[])",
        [ids],
      );
      expect(deliveries.map((delivery) => String(delivery.lead_id)).sort()).toEqual([...ids].sort());
      await expect
        .poll(() => ids.filter((id) => !receiver!.deliveredPerLeadId().has(id)).length, {
          timeout: 60_000,
          message: diagnostics(),
        })
        .toBe(0);

      // Depth and counts in the logs, never what a visitor typed.
      expect(diagnostics()).not.toContain(`@${campaign}.example.com`);
    } catch (error) {
      // What went wrong on the servers: everything but their info lines.
      console.log(
        diagnostics()
          .split("\n")
          .filter((line) => !line.startsWith('{"level":"info"') && !line.startsWith('{"level":30'))
          .slice(-200)
          .join("\n"),
      );
      throw error;
    } finally {
      posting = false;
      await clients;
    }
  });
});

test('a full lead spool: the visitor is told the post failed, and every lead told "sent" is stored', async ({ request }) => {
  test.setTimeout(120_000);
  const binaries = await privatePostgresBinaries();
  test.skip(!binaries.ok, binaries.ok ? "" : binaries.reason);
  if (!binaries.ok) return;
  const postgres = await startPrivatePostgres(binaries.binaries);
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-full-spool-"));
  // The smallest limit there is: room for a few dozen demo requests.
  const server = await startBuiltServer({
    DATABASE_URL: postgres.databaseUrl,
    LEAD_SPOOL_DIR: path.join(dir, "lead-spool"),
    LEAD_SPOOL_MAX_BYTES: "65536",
    LOG_LEVEL: "info",
  }).catch(async (error: unknown) => {
    await postgres.destroy();
    throw error;
  });
  try {
    const campaign = uniqueCampaign("spool-full");
    await postgres.stop();
    const acknowledged: string[] = [];
    let failure: { status: number; text: string } | undefined;
    for (let index = 0; index < 500 && !failure; index++) {
      const email = `lead-${index}@${campaign}.example.com`;
      const response = await request.post(`${server.url}/request-demo?utm_campaign=${campaign}`, {
        form: { first_name: "Full", last_name: "Spool", email, company: "Spool Ltd" },
        headers: { Origin: server.url },
      });
      const text = await response.text();
      if (response.status() === 200 && text.includes("Demo Request Submitted")) acknowledged.push(email);
      else failure = { status: response.status(), text };
    }
    expect(acknowledged.length, "the spool took leads before it was full").toBeGreaterThan(10);
    expect(failure?.status).toBe(500);
    expect(failure?.text).toContain("Failed to submit demo request. Please try again.");
    // Full, with the database unreachable: no longer a server to send visitors to.
    const full = await fetch(`${server.url}/healthz`);
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ status: "error", database: "unreachable", spool: { accepting: false } });
    expect(server.output()).toContain("database unreachable and the lead spool refused the lead");

    await postgres.start();
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/healthz`)).json()) as Health).spool.entries, { timeout: 30_000 })
      .toBe(0);
    const client = new pg.Client({ connectionString: postgres.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string }>("select email from demo_requests where utm_campaign = $1", [
        campaign,
      ]);
      expect(rows.map((row) => row.email).sort()).toEqual([...acknowledged].sort());
    } finally {
      await client.end();
    }
    expect(server.output()).not.toContain(`@${campaign}.example.com`);
  } finally {
    await server.stop();
    await postgres.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** One demo request posted as a browser without JavaScript would; true when it was acknowledged. */
async function postDemo(request: APIRequestContext, url: string, campaign: string, email: string): Promise<boolean> {
  try {
    const response = await request.post(`${url}/request-demo?utm_source=topology&utm_medium=outage&utm_campaign=${campaign}`, {
      form: { first_name: "Outage", last_name: "Test", email, company: "Spool Ltd" },
      headers: { Origin: url },
      maxRedirects: 0,
      timeout: 15_000,
    });
    return response.status() === 200 && (await response.text()).includes("Demo Request Submitted");
  } catch {
    return false; // the connection failed: not acknowledged
  }
}
