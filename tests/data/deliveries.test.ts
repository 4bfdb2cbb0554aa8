import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OpenDatabase } from "~/db/connection.server";
import {
  claimDueDeliveries,
  deliveryCounts,
  listDeliveries,
  markAttemptFailed,
  markDelivered,
  pendingBacklog,
  releaseDelivery,
  requeueDeliveries,
} from "~/features/leads/db/deliveries.server";
import { insertLead } from "~/features/leads/db/leads.server";
import type { Database, DeliveryDestination } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { demo, sleep } from "./support/fixtures";

// The lead-delivery outbox on both engines: written with the lead, claimed by one worker at a
// time under a lease, fenced by the claim's token.

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`lead delivery outbox on ${engine.name}`, () => {
    let opened: OpenDatabase;
    let db: Kysely<Database>;

    beforeEach(async () => {
      opened = await migratedDatabase(engine, 6);
      db = opened.db;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    const leadCount = async () => (await db.selectFrom("demo_requests").select("id").execute()).length;

    it("writes one pending delivery per destination with the lead, in one transaction", async () => {
      const leadId = await insertLead(db, "request-demo", demo, ["email", "webhook"]);
      const deliveries = (await listDeliveries(db)).sort((a, b) => a.destination.localeCompare(b.destination));
      expect(deliveries.map((delivery) => [delivery.destination, delivery.status, delivery.lead_id, delivery.attempts])).toEqual([
        ["email", "pending", leadId, 0],
        ["webhook", "pending", leadId, 0],
      ]);
      // A delivery that cannot be written takes its lead with it: no lead without its deliveries.
      await expect(insertLead(db, "request-demo", demo, ["fax" as DeliveryDestination])).rejects.toThrow();
      expect(await leadCount()).toBe(1);
      // No destination configured: the lead alone.
      await insertLead(db, "request-demo", demo, []);
      expect(await leadCount()).toBe(2);
      expect(await listDeliveries(db)).toHaveLength(2);
    });

    it("never hands one delivery to two claims at once, and counts each claim as an attempt", async () => {
      for (let i = 0; i < 10; i += 1) await insertLead(db, "request-demo", demo, ["webhook"]);
      const claims = await Promise.all(
        [1, 2, 3].map(() => claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 6 })),
      );
      const ids = claims.flat().map((delivery) => delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(10);
      expect(claims.flat().every((delivery) => delivery.attempts === 1)).toBe(true);
      // Everything is leased: nothing more to claim.
      expect(await claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 10 })).toEqual([]);
    });

    it("claims only deliveries due by the given time (the worker's deferral while the server is busy)", async () => {
      await insertLead(db, "request-demo", demo, ["webhook"]);
      const earlier = new Date(Date.now() - 60_000);
      expect(await claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 5, dueBy: earlier })).toEqual([]);
      expect((await listDeliveries(db))[0]?.attempts).toBe(0);
      const later = new Date(Date.now() + 1_000);
      expect(await claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 5, dueBy: later })).toHaveLength(1);
    });

    it("takes a delivery over once its lease ran out, and ignores the first claim's late outcome", async () => {
      await insertLead(db, "request-demo", demo, ["webhook"]);
      const first = randomUUID();
      const [claimed] = await claimDueDeliveries(db, { token: first, leaseMs: 100, limit: 1 });
      expect(claimed).toBeDefined();
      await sleep(250);
      const second = randomUUID();
      const [again] = await claimDueDeliveries(db, { token: second, leaseMs: 60_000, limit: 1 });
      expect(again?.id).toBe(claimed!.id);
      expect(again?.attempts).toBe(2);
      expect(await markDelivered(db, claimed!.id, first)).toBe(false);
      expect(await markDelivered(db, claimed!.id, second)).toBe(true);
      const [sent] = await listDeliveries(db, { status: "sent" });
      expect(sent?.sent_at).toBeTruthy();
    });

    it("reschedules a failed attempt, marks it dead when there is no retry, and queues it again on request", async () => {
      await insertLead(db, "request-demo", demo, ["webhook"]);
      const token = randomUUID();
      const [claimed] = await claimDueDeliveries(db, { token, leaseMs: 60_000, limit: 1 });
      const retryAt = new Date(Date.now() + 60_000);
      await markAttemptFailed(db, claimed!.id, token, { error: "webhook: HTTP 500", retryAt });
      let [delivery] = await listDeliveries(db);
      expect(delivery).toMatchObject({ status: "pending", attempts: 1, last_error: "webhook: HTTP 500" });
      expect(delivery!.next_attempt_at).toBe(retryAt.toISOString());
      // Not due yet.
      expect(await claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 1 })).toEqual([]);
      expect(await pendingBacklog(db)).toMatchObject({ pending: 1 });

      await requeueDeliveries(db, { ids: [claimed!.id] });
      const next = randomUUID();
      const [due] = await claimDueDeliveries(db, { token: next, leaseMs: 60_000, limit: 1 });
      await markAttemptFailed(db, due!.id, next, { error: "webhook: HTTP 410", retryAt: null });
      [delivery] = await listDeliveries(db, { status: "dead" });
      expect(delivery).toMatchObject({ status: "dead", attempts: 1, last_error: "webhook: HTTP 410" });

      expect(await requeueDeliveries(db, { ids: [randomUUID()] })).toMatchObject({ queued: 0 });
      expect(await requeueDeliveries(db, { dead: true })).toEqual({ queued: 1, unknown: [] });
      [delivery] = await listDeliveries(db);
      expect(delivery).toMatchObject({ status: "pending", attempts: 0 });
      expect(await pendingBacklog(db)).toMatchObject({ pending: 1 });
    });

    it("counts pending, retrying and dead deliveries per destination in one query (the metrics' gauges)", async () => {
      expect(await deliveryCounts(db)).toEqual([]);
      for (let i = 0; i < 3; i += 1) await insertLead(db, "request-demo", demo, ["email", "webhook"]);
      const before = Date.now();
      // One webhook retried later, one dead, one delivered; the emails untouched.
      const token = randomUUID();
      const claimed = await claimDueDeliveries(db, { token, leaseMs: 60_000, limit: 6 });
      const webhooks = claimed.filter((delivery) => delivery.destination === "webhook");
      await markAttemptFailed(db, webhooks[0]!.id, token, { error: "HTTP 500", retryAt: new Date(Date.now() + 60_000) });
      await markAttemptFailed(db, webhooks[1]!.id, token, { error: "HTTP 410", retryAt: null });
      await markDelivered(db, webhooks[2]!.id, token);
      for (const email of claimed.filter((delivery) => delivery.destination === "email")) await releaseDelivery(db, email.id, token);
      const counts = (await deliveryCounts(db)).sort((a, b) => a.destination.localeCompare(b.destination));
      expect(counts.map(({ oldestPendingAt: _, ...rest }) => rest)).toEqual([
        { destination: "email", pending: 3, retrying: 0, dead: 0 },
        { destination: "webhook", pending: 1, retrying: 1, dead: 1 },
      ]);
      for (const { oldestPendingAt } of counts) {
        expect(Date.parse(oldestPendingAt!)).toBeGreaterThan(before - 60_000);
        expect(Date.parse(oldestPendingAt!)).toBeLessThanOrEqual(Date.now());
      }
    });

    it("gives a released claim back without counting it as an attempt", async () => {
      await insertLead(db, "request-demo", demo, ["email"]);
      const token = randomUUID();
      const [claimed] = await claimDueDeliveries(db, { token, leaseMs: 60_000, limit: 1 });
      await releaseDelivery(db, claimed!.id, token);
      const [again] = await claimDueDeliveries(db, { token: randomUUID(), leaseMs: 60_000, limit: 1 });
      expect(again).toMatchObject({ id: claimed!.id, attempts: 1 });
    });
  });
}
