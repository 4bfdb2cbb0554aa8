import { expect, test, type APIRequestContext } from "@playwright/test";
import { freePort } from "../../scripts/lib/built-server";
import { uniqueCampaign } from "../e2e/forms-support";
import { FAST_DELIVERY, newWebhookSecret } from "../e2e/support/delivery-receivers";
import { startPrometheus, type RunningPrometheus } from "./support/prometheus";
import { useTopology } from "./support/topology";

// A real Prometheus scraping both servers of the deployed shape and evaluating the shipped alert
// rules (their `for:` shortened to a second): the counts it reads are the requests, deliveries and
// spooled leads the test made, and the alerts that should wake someone fire when their fault is
// made for real: a webhook to a closed port (a dead delivery), PostgreSQL stopped (a spooled
// lead), a server killed (down). Metrics are never served on the public port nor through nginx.

test.describe("metrics and alerts", () => {
  test.describe.configure({ mode: "default" });
  let closedPort = 0;
  test.beforeAll(async () => {
    // Nothing listens here: every webhook delivery fails, and with one attempt allowed it is dead.
    closedPort = await freePort();
  });
  const topology = useTopology(
    () => ({
      FORM_RATE_LIMIT: "100000",
      // The counts below are exact: a busy machine must not shed one of the test's requests with a
      // 503 (shedding has tests of its own).
      LOAD_SHED_DELAY_MS: "0",
      WEBHOOK_SECRET: newWebhookSecret(),
      WEBHOOK_URL_REQUEST_DEMO: `http://127.0.0.1:${closedPort}/hook`,
      DELIVERY_MAX_ATTEMPTS: "1",
      ...FAST_DELIVERY,
    }),
    { privatePostgres: true },
  );
  let prometheus: RunningPrometheus | undefined;
  test.afterAll(async () => {
    await prometheus?.stop();
  });

  test("Prometheus counts what happened and the alerts fire on real faults", async ({ request }) => {
    test.setTimeout(120_000);
    const { url, servers, metricsTargets, postgres, kill, diagnostics } = topology();
    if (!postgres) throw new Error("the topology has no private PostgreSQL");

    // Not through nginx, not on a server's public port: the site's own 404 there.
    for (const publicUrl of [url, servers[0]!.url]) {
      const response = await request.get(`${publicUrl}/metrics`);
      expect(response.status(), publicUrl).toBe(404);
      expect(await response.text()).not.toContain("quorvant_");
    }
    const direct = await request.get(`http://${metricsTargets[0]}/metrics`);
    expect(direct.status()).toBe(200);
    expect(await direct.text()).toContain("quorvant_http_requests_total");

    const started = Date.now();
    prometheus = await startPrometheus(metricsTargets);
    console.log(`prometheus ready in ${Date.now() - started} ms`);
    const running = prometheus;
    const value = async (expression: string) => (await running.query(expression))[0]?.value;
    const firing = async (alertname: string) =>
      (await running.alerts())
        .filter((alert) => alert.labels.alertname === alertname && alert.state === "firing")
        .map((alert) => alert.labels);
    const poll = <T>(read: () => Promise<T>, timeout = 20_000) =>
      expect.poll(read, { timeout, intervals: [250], message: `${diagnostics()}\nprometheus:\n${running.output()}` });

    // Traffic: unknown addresses, and the home page over and over (cache hits after the first).
    const unknown = Array.from({ length: 7 }, (_, index) => `/no-such-page-${index}-${Date.now()}`);
    for (const path of unknown) expect((await request.get(`${url}${path}`)).status()).toBe(404);
    for (let index = 0; index < 20; index++) expect((await request.get(`${url}/`)).status()).toBe(200);
    // The two asks for /metrics above were unknown addresses as well.
    await poll(() => value('sum(quorvant_http_requests_total{route="unmatched", status="4xx"})')).toBe(unknown.length + 2);
    await poll(() => value('sum(quorvant_page_cache_requests_total{result="hit"})')).toBeGreaterThan(0);
    // Every answer of the home page is counted once, as a cache hit or as its render.
    await poll(() =>
      value('sum(quorvant_http_requests_total{route!~"unmatched|unrouted|healthz|assets|media|static"})'),
    ).toBeGreaterThanOrEqual(20);
    expect(await value("sum(quorvant_http_request_duration_seconds_count)")).toBeGreaterThan(0);

    // A lead whose webhook can never be reached: dead after its one attempt.
    const campaign = uniqueCampaign("metrics-dead");
    expect(await postDemo(request, url, campaign)).toBe(true);
    await poll(() => value('max(quorvant_lead_deliveries{destination="webhook", state="dead"})')).toBe(1);
    // The attempt is counted by the server that made it, which Prometheus may scrape a second later.
    await poll(() => value('sum(quorvant_lead_delivery_attempts_total{destination="webhook", outcome="dead"})')).toBe(1);
    await poll(() => firing("DeadDelivery")).toEqual([expect.objectContaining({ destination: "webhook" })]);
    // Never run on a fresh database (the purge's first look is minutes after start): late, too.
    await poll(() => firing("RetentionJobLate")).toHaveLength(1);

    // PostgreSQL stopped: the next lead is kept in the answering server's spool, and said so.
    await postgres.stop();
    try {
      expect(await postDemo(request, url, uniqueCampaign("metrics-spool"))).toBe(true);
      await poll(() => value("sum(quorvant_lead_spool_entries)")).toBe(1);
      await poll(() => firing("LeadsSpooled")).toHaveLength(1);
      expect(await value("max(quorvant_lead_spool_oldest_age_seconds)")).toBeGreaterThan(0);
    } finally {
      await postgres.start();
    }
    await poll(() => value("sum(quorvant_lead_spool_entries)"), 30_000).toBe(0);

    // The pool and the event loop are watched too.
    expect(await value('sum(quorvant_db_pool_connections{state="total"})')).toBeGreaterThan(0);
    expect(await value("max(nodejs_eventloop_lag_seconds)")).toBeGreaterThanOrEqual(0);
    expect(await value("sum(quorvant_db_query_duration_seconds_count)")).toBeGreaterThan(0);

    // A server killed: down, and only that one.
    await kill(1);
    await poll(() => firing("ServerDown")).toEqual([expect.objectContaining({ instance: metricsTargets[1] })]);
    console.log(`metrics topology test: ${Date.now() - started} ms after Prometheus started`);
  });
});

/** One demo request posted as a browser without JavaScript would; true when it was acknowledged. */
async function postDemo(request: APIRequestContext, url: string, campaign: string): Promise<boolean> {
  const response = await request.post(`${url}/request-demo?utm_campaign=${campaign}`, {
    form: { first_name: "Metrics", last_name: "Test", email: `lead@${campaign}.example.com`, company: "Metrics Ltd" },
    headers: { Origin: url },
    maxRedirects: 0,
  });
  return response.status() === 200 && (await response.text()).includes("Demo Request Submitted");
}
