import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OpenDatabase } from "~/db/connection.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import { insertLead } from "~/features/leads/db/leads.server";
import type { Database } from "~/db/schema";
import type { DeliveryConfig } from "~/features/leads/delivery/config.server";
import { claimDueBy, startDeliveryWorker, type DeliveryWorker } from "~/features/leads/delivery/worker.server";
import { sqliteEngine } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { demo, sleep } from "./support/fixtures";

// The worker gives way to visitors: while the event loop is busy, a new delivery waits (up to
// maxDeferMs) instead of competing with page and form answers; once quiet, it goes at once.

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(25);
  }
  return false;
}

/** Keeps the event loop about 80 % busy, as a flood of page renders would, until stopped. */
function keepEventLoopBusy() {
  const timer = setInterval(() => {
    const until = Date.now() + 40;
    while (Date.now() < until);
  }, 50);
  return () => clearInterval(timer);
}

describe("the delivery worker under load", () => {
  const engine = sqliteEngine();
  let opened: OpenDatabase;
  let db: Kysely<Database>;
  let receiver: Server;
  let received = 0;
  let worker: DeliveryWorker | undefined;

  beforeEach(async () => {
    opened = await migratedDatabase(engine, 2);
    db = opened.db;
    received = 0;
    receiver = createServer((_req, res) => {
      received += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    await worker?.stop();
    await new Promise((resolve) => receiver.close(resolve));
    await db.destroy();
  });
  afterAll(() => engine.cleanup());

  const config = (maxDeferMs: number): DeliveryConfig => ({
    webhook: {
      secret: `whsec_${Buffer.from("a test secret of thirty-two bytes!").toString("base64")}`,
      urls: { "request-demo": `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
    },
    maxAttempts: 3,
    retryBaseMs: 100,
    retryMaxMs: 400,
    timeoutMs: 2_000,
    leaseMs: 5_000,
    pollMs: 50,
    backlogLogMs: 60_000,
    maxDeferMs,
  });

  const sent = async () => (await listDeliveries(db, { status: "sent" })).length;

  it("claims nothing new while busy, takes a delivery once it has waited maxDeferMs, and sends at once when quiet", async () => {
    worker = startDeliveryWorker(config(2_500), () => db);
    const stopLoad = keepEventLoopBusy();
    try {
      await sleep(600); // the worker's gauge has seen the load
      await insertLead(db, "request-demo", demo, ["webhook"]);
      worker.nudge();
      await sleep(1_000);
      // Busy, and the delivery is younger than maxDeferMs: not even claimed.
      expect((await listDeliveries(db))[0]).toMatchObject({ status: "pending", attempts: 0 });
      expect(received).toBe(0);
      // Still busy, but a delivery is never held back for more than maxDeferMs.
      expect(await waitFor(async () => (await sent()) === 1, 10_000)).toBe(true);
      expect(received).toBe(1);
    } finally {
      stopLoad();
    }
    await sleep(600); // quiet again
    await insertLead(db, "request-demo", demo, ["webhook"]);
    worker.nudge();
    // Quiet: sent well before maxDeferMs.
    expect(await waitFor(async () => (await sent()) === 2, 2_000)).toBe(true);
  });

  it("takes only deliveries that have waited maxDeferMs while busy, everything due when quiet", () => {
    const now = Date.parse("2026-11-23T12:00:00.000Z");
    expect(claimDueBy(now, false, 20_000).toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(claimDueBy(now, true, 20_000).toISOString()).toBe("2026-11-23T11:59:40.000Z");
    expect(claimDueBy(now, true, 0).toISOString()).toBe("2026-11-23T12:00:00.000Z");
  });
});
