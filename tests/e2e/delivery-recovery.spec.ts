import { freePort, startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { postgresAvailability, postgresEngine } from "../data/support/engines";
import { uniqueCampaign } from "./forms-support";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";
import {
  FAST_DELIVERY,
  deliveryRows,
  inPool,
  leadsOfCampaign,
  newWebhookSecret,
  postLead,
  sleep,
  startWebhookReceiver,
  waitUntil,
  type WebhookReceiver,
} from "./support/delivery-receivers";

// Lead delivery survives crashes: deliveries are rows written with the lead, so a server killed
// with deliveries pending, in flight or leased loses none of them. Whoever runs next (a restarted
// server, or another server on the same PostgreSQL database) sends them, and no delivery is
// answered 2xx twice.

const DEMO = { first_name: "Grace", last_name: "Hopper", company: "Navy Compilers" };

function webhookEnv(receiverUrl: string, secret: string): Record<string, string> {
  return { WEBHOOK_URL_REQUEST_DEMO: `${receiverUrl}/hook`, WEBHOOK_SECRET: secret, ...FAST_DELIVERY };
}

/** Posts `count` demo requests (`servers` taking turns), returns the lead ids of those answered 200. */
async function submitDemos(
  servers: BuiltServer[],
  databaseUrl: string,
  campaign: string,
  count: number,
  options: { concurrency?: number; offset?: number } = {},
): Promise<{ acknowledged: string[]; sentAt: Map<string, number> }> {
  const acknowledgedEmails = new Set<string>();
  const sentAt = new Map<string, number>();
  await inPool(count, options.concurrency ?? 4, async (index) => {
    const email = `lead-${(options.offset ?? 0) + index}@${campaign}.example.com`;
    const server = servers[index % servers.length]!;
    const answer = await postLead(server.url, "request-demo", { ...DEMO, email }, campaign).catch(() => undefined);
    if (answer?.status === 200) {
      acknowledgedEmails.add(email);
      sentAt.set(email, answer.sentAt);
    }
  });
  const rows = await leadsOfCampaign(databaseUrl, "demo_requests", campaign);
  const byEmail = new Map(rows.map((row) => [String(row.email), String(row.id)]));
  const acknowledged = [...acknowledgedEmails].map((email) => byEmail.get(email) ?? `missing lead for ${email}`);
  return { acknowledged, sentAt: new Map([...sentAt].map(([email, at]) => [byEmail.get(email) ?? email, at])) };
}

/** Waits until the receiver has a verified 2xx delivery of every lead id. */
async function waitForLeads(receiver: WebhookReceiver, leadIds: string[], timeoutMs: number, diagnostics: () => string) {
  await waitUntil(
    () => leadIds.every((id) => receiver.deliveredPerLeadId().has(id)),
    timeoutMs,
    () => {
      const missing = leadIds.filter((id) => !receiver.deliveredPerLeadId().has(id));
      return `${missing.length} of ${leadIds.length} leads never delivered (${missing.slice(0, 5).join(", ")}…)\n${diagnostics()}`;
    },
    100,
  );
}

/** Every lead delivered exactly once; every successful delivery id once; every request signed. */
function expectExactlyOnce(receiver: WebhookReceiver, leadIds: string[]) {
  const perLead = receiver.deliveredPerLeadId();
  expect([...perLead.keys()].sort()).toEqual([...leadIds].sort());
  expect(
    [...perLead].filter(([, count]) => count !== 1),
    "leads delivered more than once",
  ).toEqual([]);
  expect(
    [...receiver.deliveredPerWebhookId()].filter(([, count]) => count !== 1),
    "webhook-ids answered 2xx twice",
  ).toEqual([]);
  expect(receiver.requests.filter((request) => !request.verified).map((request) => request.verifyError)).toEqual([]);
}

test("SIGKILL with deliveries pending (receiver down): restarted on the same SQLite file, the server delivers every lead", async () => {
  test.setTimeout(90_000);
  const secret = newWebhookSecret();
  // Nothing listens on this port yet: every attempt meets a refused connection.
  const port = await freePort();
  const env = { ...webhookEnv(`http://127.0.0.1:${port}`, secret), DELIVERY_BACKLOG_LOG_MS: "1000" };
  const first = await startPrivateServer(env);
  const databaseUrl = `file:${first.databasePath}`;
  let receiver: WebhookReceiver | undefined;
  let second: BuiltServer | undefined;
  try {
    const campaign = uniqueCampaign("crash-sqlite");
    const total = 12;
    const { acknowledged } = await submitDemos([first], databaseUrl, campaign, total);
    expect(acknowledged).toHaveLength(total);

    // Every delivery has been tried and failed, saying why; the backlog is logged.
    await waitUntil(
      async () => {
        const rows = await deliveryRows(databaseUrl);
        return rows.length === total && rows.every((row) => row.status === "pending" && row.attempts >= 1 && row.last_error);
      },
      15_000,
      () => `deliveries never all failed once\n${first.output()}`,
    );
    for (const row of await deliveryRows(databaseUrl)) expect(row.last_error).toMatch(/ECONNREFUSED|refused|connect/i);
    const backlog = await waitUntil(
      () =>
        first
          .output()
          .split("\n")
          .filter((line) => line.includes('"deliveries pending"'))
          .map((line) => JSON.parse(line) as { msg: string; pending: number; oldestPendingSeconds: number })
          .find((entry) => entry.pending >= 1),
      10_000,
      () => `no "deliveries pending" line\n${first.output()}`,
    );
    expect(backlog.msg).toBe("deliveries pending");
    expect(backlog.pending).toBeLessThanOrEqual(total);
    expect(backlog.oldestPendingSeconds).toBeGreaterThanOrEqual(0);

    await first.kill("SIGKILL");
    receiver = await startWebhookReceiver({ secret, port });
    second = await startBuiltServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ...env });
    await waitForLeads(receiver, acknowledged, 30_000, () => second!.output());
    await waitUntil(
      async () => (await deliveryRows(databaseUrl)).every((row) => row.status === "sent"),
      10_000,
      () => "deliveries not all marked sent",
    );
    expectExactlyOnce(receiver, acknowledged);
  } finally {
    await first.kill("SIGKILL");
    await second?.stop();
    await receiver?.close();
  }
});

test("SIGTERM with a send in flight: the server exits promptly and the delivery is finished or released, never lost", async () => {
  test.setTimeout(90_000);
  const secret = newWebhookSecret();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const receiver = await startWebhookReceiver({ secret, responder: () => gate.then(() => 204) });
  // The production lease (60 s): a delivery the stopping server neither finished nor released
  // would stay locked far longer than this test waits.
  const env = { ...webhookEnv(receiver.url, secret), DELIVERY_TIMEOUT_MS: "10000", DELIVERY_LEASE_MS: "60000" };
  const first = await startPrivateServer(env);
  const databaseUrl = `file:${first.databasePath}`;
  let second: BuiltServer | undefined;
  try {
    expect(
      (await postLead(first.url, "request-demo", { ...DEMO, email: "inflight@example.com" }, uniqueCampaign("sigterm"))).status,
    ).toBe(200);
    await waitUntil(
      () => receiver.inFlight().length === 1,
      10_000,
      () => `no webhook in flight\n${first.output()}`,
    );
    // The receiver answers 3 s into the shutdown: a bounded wait may still get the answer.
    const signalled = Date.now();
    const stopped = first.stop();
    setTimeout(release, 3_000);
    const exited = await Promise.race([stopped.then(() => true), sleep(20_000).then(() => false)]);
    expect(exited, `the server did not exit within 20 s of SIGTERM\n${first.output()}`).toBe(true);

    const [row] = await deliveryRows(databaseUrl);
    expect(["sent", "pending"]).toContain(row!.status);
    test.info().annotations.push({
      type: "shutdown",
      description: `exited ${Date.now() - signalled} ms after SIGTERM with the delivery ${row!.status === "sent" ? "finished" : "released"}`,
    });
    second = await startBuiltServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ...env });
    await waitUntil(
      async () => (await deliveryRows(databaseUrl))[0]?.status === "sent",
      15_000,
      () => `the delivery was not sent after the restart (a lease left behind?)\n${first.output()}\n${second!.output()}`,
    );
    await sleep(500);
    expect(receiver.deliveredPerWebhookId()).toEqual(new Map([[row!.id, 1]]));
  } finally {
    release();
    await first.kill("SIGKILL");
    await second?.stop();
    await receiver.close();
  }
});

test.describe("two servers on one PostgreSQL database", () => {
  let databaseUrl = "";
  let engine: ReturnType<typeof postgresEngine> | undefined;
  test.beforeEach(async () => {
    const postgres = await postgresAvailability();
    test.skip(!postgres.available, postgres.available ? "" : postgres.reason);
    engine = postgresEngine();
    databaseUrl = await engine.create();
  });
  test.afterEach(async () => {
    await engine?.cleanup();
  });

  test("40 leads posted to both servers: each delivered, no delivery answered 2xx twice", async () => {
    test.setTimeout(90_000);
    const secret = newWebhookSecret();
    // Answers after a short random wait, so both workers are often busy at once.
    const receiver = await startWebhookReceiver({ secret, responder: () => sleep(Math.random() * 30).then(() => 204) });
    const servers: BuiltServer[] = [];
    try {
      const started = await Promise.allSettled(
        [0, 1].map(() => startBuiltServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ...webhookEnv(receiver.url, secret) })),
      );
      for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
      for (const result of started) if (result.status === "rejected") throw result.reason;

      const campaign = uniqueCampaign("pg-two");
      const { acknowledged } = await submitDemos(servers, databaseUrl, campaign, 40, { concurrency: 8 });
      expect(acknowledged).toHaveLength(40);
      const diagnostics = () => servers.map((server) => server.output()).join("\n");
      await waitForLeads(receiver, acknowledged, 30_000, diagnostics);
      await waitUntil(
        async () => {
          const rows = await deliveryRows(databaseUrl);
          return rows.length === 40 && rows.every((row) => row.status === "sent");
        },
        10_000,
        () => `deliveries not all sent\n${diagnostics()}`,
      );
      await sleep(500); // a few more polls of both workers: nothing further may arrive
      expectExactlyOnce(receiver, acknowledged);
      expect(receiver.requests.filter((request) => request.status !== 204)).toEqual([]);
    } finally {
      for (const server of servers) await server.stop();
      await receiver.close();
    }
  });

  test("a server SIGKILLed while it holds deliveries: the other sends them once their lease ends", async () => {
    test.setTimeout(90_000);
    const secret = newWebhookSecret();
    // The receiver holds every webhook until released, so the doomed server dies mid-send.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startWebhookReceiver({ secret, responder: () => gate.then(() => 204) });
    // The doomed server's held attempt must not time out before it is killed: attempts of 8 s, so
    // leases of 10 s.
    const lease = 10_000;
    const env = {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      ...webhookEnv(receiver.url, secret),
      DELIVERY_TIMEOUT_MS: "8000",
      DELIVERY_LEASE_MS: String(lease),
    };
    let doomed: BuiltServer | undefined;
    let survivor: BuiltServer | undefined;
    try {
      doomed = await startBuiltServer(env);
      const campaign = uniqueCampaign("pg-kill");
      const before = await submitDemos([doomed], databaseUrl, campaign, 10);
      expect(before.acknowledged).toHaveLength(10);
      // What the receiver holds now, only the doomed server can have sent (it runs alone).
      await waitUntil(
        () => receiver.inFlight().length >= 1,
        10_000,
        () => `no webhook in flight\n${doomed!.output()}`,
      );
      const heldByDoomed = receiver.inFlight();

      survivor = await startBuiltServer(env);
      const after = await submitDemos([doomed, survivor], databaseUrl, campaign, 10, { offset: 10 });
      expect(after.acknowledged).toHaveLength(10);
      await doomed.kill("SIGKILL");
      await waitUntil(
        () => heldByDoomed.every((request) => request.aborted),
        5_000,
        () => "the killed server's connections stayed open",
      );
      release();

      const acknowledged = [...before.acknowledged, ...after.acknowledged];
      const sentAt = new Map([...before.sentAt, ...after.sentAt]);
      await waitForLeads(receiver, acknowledged, 30_000 + lease, () => `${doomed!.output()}\n${survivor!.output()}`);
      await sleep(500);
      expectExactlyOnce(receiver, acknowledged);
      // The deliveries the dead server held were sent again only after their lease: the row was
      // claimed after the lead was posted, so not before post time + DELIVERY_LEASE_MS.
      for (const held of heldByDoomed) {
        const id = String(held.payload?.lead.id);
        const delivered = receiver.requests.find((request) => request.delivered && request.payload?.lead.id === id);
        expect(delivered?.webhookId, "the same delivery, sent again").toBe(held.webhookId);
        expect(delivered!.receivedAt).toBeGreaterThanOrEqual(sentAt.get(id)! + lease - 50);
      }
      const rows = await deliveryRows(databaseUrl);
      expect(rows.filter((row) => row.status !== "sent")).toEqual([]);
      test.info().annotations.push({
        type: "lease",
        description: `${heldByDoomed.length} webhook(s) in flight on the killed server, re-sent by the survivor`,
      });
    } finally {
      release();
      await doomed?.kill("SIGKILL");
      await survivor?.stop();
      await receiver.close();
    }
  });
});
