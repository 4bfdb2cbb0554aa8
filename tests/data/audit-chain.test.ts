import { createHash, randomUUID } from "node:crypto";
import { Migrator, sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { auditHeadJob, logAuditHead } from "~/features/audit/audit-head-job.server";
import { recordAudit } from "~/features/audit/audit.server";
import { auditEntryHash, AUDIT_CHAIN_GENESIS, canonicalJson } from "~/db/audit-chain";
import { appendAuditEntry, listAuditEntries, readAuditHead, verifyAuditChain } from "~/features/audit/db/audit-log.server";
import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import type { Dialect } from "~/db/normalize";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// The audit log as a hash chain on both engines: appends chain, verify walks it and names the first
// entry changed, removed or slipped in behind the application's back (its triggers dropped); the
// migration redacts and chains the entries written before it; two pools appending at once on
// PostgreSQL keep one chain.

const owner = { id: randomUUID(), email: "owner@quorvant.com" };

describe("canonical JSON", () => {
  it("sorts keys at every depth and writes what JSON.stringify writes otherwise", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "é\u2028" }, u: undefined })).toBe(
      '{"a":{"c":"é\u2028","d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ n: 1.5e21, m: 0.1, k: -0 })).toBe('{"k":0,"m":0.1,"n":1.5e+21}');
  });
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the audit chain on ${engine.name}`, () => {
    let opened: OpenDatabase & { url: string };
    let db: Kysely<Database>;

    beforeEach(async () => {
      opened = await migratedDatabase(engine, 4);
      db = opened.db;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    /** Details that the engines store differently: jsonb reorders keys and rewrites numbers, SQLite keeps the text. */
    const awkward = { zeta: 1, alpha: { b: [1.5, 1e21, 0.1, -3], a: "Zoë ✓ \"quoted\" \\ line\nbreak" }, empty: {}, none: null };

    async function appendSome(count: number) {
      for (let index = 0; index < count; index += 1) {
        if (index % 2 === 0) {
          await db.transaction().execute((trx) =>
            recordAudit(trx, { actor: owner, action: "post.saved", target: { type: "post", id: String(index) }, details: { ...awkward, index }, ip: "192.0.2.1" }),
          );
        } else {
          await recordAudit(db, { actor: index % 3 ? null : "system", action: "sign-in.failed", details: { reason: "unknown passkey", index }, ip: "192.0.2.2" });
        }
      }
    }

    const rows = () =>
      db.selectFrom("audit_log").select(["id", "seq", "prev_hash", "hash", "action"]).orderBy("seq").execute();

    async function liftTriggers() {
      if (opened.dialect === "postgres") await sql`drop trigger audit_log_append_only on audit_log`.execute(db);
      else {
        await sql`drop trigger audit_log_no_update`.execute(db);
        await sql`drop trigger audit_log_no_delete`.execute(db);
      }
    }

    it("chains each entry to the one before, and verify walks the whole chain page by page", async () => {
      expect(await verifyAuditChain(db)).toEqual({ ok: true, entries: 0, head: { seq: 0, hash: AUDIT_CHAIN_GENESIS } });
      await appendSome(6);
      // An id written in capitals comes back from PostgreSQL's uuid column in small letters.
      await recordAudit(db, { actor: { id: randomUUID().toUpperCase(), email: "caps@quorvant.com" }, action: "sign-in", ip: "192.0.2.4" });
      const chain = await rows();
      expect(chain.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(chain[0]!.prev_hash).toBe(AUDIT_CHAIN_GENESIS);
      for (let index = 1; index < chain.length; index += 1) expect(chain[index]!.prev_hash).toBe(chain[index - 1]!.hash);
      expect(new Set(chain.map((row) => row.hash)).size).toBe(7);
      for (const pageSize of [1, 3, 7, 500]) {
        expect(await verifyAuditChain(db, { pageSize }), `page size ${pageSize}`).toEqual({
          ok: true,
          entries: 7,
          head: { seq: 7, hash: chain[6]!.hash },
        });
      }
      expect(await readAuditHead(db)).toEqual({ seq: 7, hash: chain[6]!.hash });
      // The page still reads them as before.
      const { entries } = await listAuditEntries(db, { action: "post.saved" }, { limit: 10 });
      const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
      expect(entries.map((entry) => entry.details as { index: number }).sort(byIndex)).toEqual(
        [0, 2, 4].map((index) => ({ ...awkward, index })),
      );
    });

    it("an entry's details changed behind the application's back fail verify at that entry", async () => {
      await appendSome(5);
      const target = (await rows())[2]!;
      await liftTriggers();
      await sql`update audit_log set details = ${JSON.stringify({ ...awkward, index: 99 })} where id = ${target.id}`.execute(db);
      const report = await verifyAuditChain(db, { pageSize: 2 });
      expect(report).toMatchObject({
        ok: false,
        entries: 2,
        broken: { seq: 3, id: String(target.id), action: target.action, reason: expect.stringMatching(/^content hash mismatch/) },
      });
    });

    it.runIf(engine.name === "sqlite")("an entry whose details are no longer JSON is named, not a crash", async () => {
      await appendSome(3);
      const target = (await rows())[1]!;
      await liftTriggers();
      await sql`update audit_log set details = '{"reason":' where id = ${target.id}`.execute(db);
      expect(await verifyAuditChain(db)).toMatchObject({
        ok: false,
        entries: 1,
        broken: { seq: 2, id: String(target.id), reason: expect.stringMatching(/^content hash mismatch: its details/) },
      });
    });

    it("an entry changed with its hash recomputed breaks the link of the next one", async () => {
      await appendSome(4);
      const [, second] = await rows();
      await liftTriggers();
      const forged = await db.selectFrom("audit_log").selectAll().where("id", "=", second!.id).executeTakeFirstOrThrow();
      const entry = (await listAuditEntries(db, {}, { limit: 10 })).entries.find((found) => found.id === String(second!.id))!;
      const hash = auditEntryHash({ ...entry, ip: "198.51.100.7", seq: 2, prevHash: forged.prev_hash! });
      await sql`update audit_log set ip = '198.51.100.7', hash = ${hash} where id = ${second!.id}`.execute(db);
      const report = await verifyAuditChain(db);
      expect(report).toMatchObject({ ok: false, entries: 2, broken: { seq: 3, reason: expect.stringMatching(/^prev link broken/) } });
    });

    it("a middle entry deleted fails verify at the next one; an entry inserted outside the chain is named too", async () => {
      await appendSome(5);
      const chain = await rows();
      await liftTriggers();
      await db.deleteFrom("audit_log").where("id", "=", chain[2]!.id).execute();
      expect(await verifyAuditChain(db)).toMatchObject({
        ok: false,
        entries: 2,
        broken: { seq: 4, id: String(chain[3]!.id), reason: expect.stringMatching(/^missing seq: seq 3 is missing/) },
      });
      // The last entry removed leaves a shorter chain that verifies: only a head kept outside (the server log) shows it.
      await db.deleteFrom("audit_log").where("seq", ">=", 3).execute();
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, entries: 2 });
      const id = randomUUID();
      await db
        .insertInto("audit_log")
        .values({ id, created_at: "2026-01-01T00:00:00.000Z", actor_email: "x@example.com", action: "sign-in", details: "{}", ip: "" })
        .execute();
      expect(await verifyAuditChain(db)).toMatchObject({ ok: false, entries: 2, broken: { seq: null, id, action: "sign-in" } });
    });

    it("a chain rewritten from an entry on, or cut short, verifies alone but not against a head the log recorded", async () => {
      await appendSome(5);
      const logged = await readAuditHead(db);
      expect(await verifyAuditChain(db, { loggedHead: logged })).toMatchObject({ ok: true, entries: 5 });
      // A careful forger changes entry 3 and re-hashes it and everything after it.
      await liftTriggers();
      const listed = (await listAuditEntries(db, {}, { limit: 10 })).entries;
      const entries = (await rows()).map((row) => listed.find((entry) => entry.id === String(row.id))!);
      let prevHash = (await rows())[1]!.hash!;
      for (const [index, entry] of entries.entries()) {
        if (index < 2) continue;
        const ip = index === 2 ? "198.51.100.7" : entry.ip;
        const hash = auditEntryHash({ ...entry, ip, seq: index + 1, prevHash });
        await sql`update audit_log set ip = ${ip}, prev_hash = ${prevHash}, hash = ${hash} where id = ${entry.id}`.execute(db);
        prevHash = hash;
      }
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, entries: 5 });
      expect(await verifyAuditChain(db, { loggedHead: logged })).toMatchObject({
        ok: false,
        entries: 4,
        broken: { seq: 5, id: entries[4]!.id, reason: expect.stringMatching(/^not the logged head/) },
      });
      // Cut short: the last two entries removed.
      await db.deleteFrom("audit_log").where("seq", ">=", 4).execute();
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, entries: 3 });
      expect(await verifyAuditChain(db, { loggedHead: logged })).toEqual({
        ok: false,
        entries: 3,
        broken: { seq: 5, reason: expect.stringMatching(/^missing seq: the chain ends at seq 3/) },
      });
    });

    it("writes the chain's head to the server log, at start-up and daily", async () => {
      const info = vi.spyOn(logger, "info").mockImplementation(() => undefined);
      try {
        expect(await logAuditHead(db)).toEqual({ seq: 0, hash: AUDIT_CHAIN_GENESIS });
        await appendSome(3);
        const head = await logAuditHead(db);
        expect(head.seq).toBe(3);
        expect(info).toHaveBeenLastCalledWith({ seq: 3, hash: head.hash }, "audit log head");
        expect(head.hash).toMatch(/^[0-9a-f]{64}$/);
        // Each server writes it as soon as its jobs start, then once a day.
        info.mockClear();
        const running = auditHeadJob.start({ env: {} as never, getDb: () => db });
        await running?.stop();
        expect(info).toHaveBeenCalledWith({ seq: 3, hash: head.hash }, "audit log head");
      } finally {
        info.mockRestore();
      }
    });

    it.runIf(engine.name === "postgres")("two pools appending at once keep one chain", async () => {
      const other = await openDatabase(opened.url, 4);
      try {
        await appendSome(1);
        await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            (index % 2 ? db : other.db).transaction().execute(async (trx) => {
              await sql`select pg_sleep(0.002)`.execute(trx);
              await recordAudit(trx, { actor: owner, action: "lead.view", target: { type: "lead", id: String(index) }, ip: "192.0.2.3" });
            }),
          ),
        );
        expect(await verifyAuditChain(db)).toMatchObject({ ok: true, entries: 41 });
      } finally {
        await other.db.destroy();
      }
    });

    it("the migration redacts the search terms of entries written before it and chains them, oldest first", async () => {
      const fresh = await openDatabase(await engine.create(), 2);
      const old = fresh.db;
      try {
        await migrateTo(old, fresh.dialect, "0010-page-views");
        const entry = (id: string, createdAt: string, action: string, details: unknown) =>
          old
            .insertInto("audit_log")
            .values({ id, created_at: createdAt, actor_id: owner.id, actor_email: owner.email, action, target_type: "form", target_id: "", details: JSON.stringify(details), ip: "192.0.2.9" })
            .execute();
        const ids = Array.from({ length: 5 }, () => randomUUID()).sort();
        // Inserted out of order, two sharing a moment: the chain follows created_at, then id.
        await entry(ids[4]!, "2026-02-01T10:00:00.000Z", "audit.exported", { filters: { action: "sign-in", actor: "Jo@Example.com" } });
        await entry(ids[1]!, "2026-01-01T10:00:00.000Z", "lead.export", { form: "contact-sales", filters: { q: " Jo@Example.COM ", status: "new" } });
        await entry(ids[0]!, "2026-01-01T10:00:00.000Z", "lead.export", { form: "request-demo", filters: { q: "acme", campaign: "spring" } });
        await entry(ids[3]!, "2026-01-02T10:00:00.000Z", "invitation.created", { email: "new.hire@quorvant.com", roles: ["sales"] });
        await entry(ids[2]!, "2026-01-01T11:00:00.000Z", "lead.export", { form: "contact-sales", filters: {} });

        // On SQLite, one written by hand whose details are not JSON: left outside the chain, not a failed start.
        const unreadable = randomUUID();
        if (fresh.dialect === "sqlite") {
          await sql`insert into audit_log (id, created_at, action, details) values (${unreadable}, '2026-01-01T12:00:00.000Z', 'sign-in', 'not json')`.execute(
            old,
          );
        }

        await migrateToLatest(old, fresh.dialect);

        const after = await old
          .selectFrom("audit_log")
          .select(["id", "seq", "details"])
          .where("seq", "is not", null)
          .orderBy("seq")
          .execute();
        expect(after.map((row) => [String(row.id), Number(row.seq)])).toEqual([
          [ids[0], 1],
          [ids[1], 2],
          [ids[2], 3],
          [ids[3], 4],
          [ids[4], 5],
        ]);
        const details = after.map((row) => (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as unknown);
        const sha = (text: string) => createHashHex(text);
        expect(details).toEqual([
          { form: "request-demo", filters: { q_sha256: sha("acme"), campaign: "spring" } },
          { form: "contact-sales", filters: { q_sha256: sha("jo@example.com"), status: "new" } },
          { form: "contact-sales", filters: {} },
          // A colleague's address in an invitation is not a search term: it stays.
          { email: "new.hire@quorvant.com", roles: ["sales"] },
          { filters: { action: "sign-in", actor_sha256: sha("jo@example.com") } },
        ]);
        expect(JSON.stringify(details)).not.toMatch(/jo@example/i);
        if (fresh.dialect === "sqlite") {
          expect(await verifyAuditChain(old)).toMatchObject({ ok: false, entries: 5, broken: { seq: null, id: unreadable } });
          await sql`drop trigger audit_log_no_delete`.execute(old);
          await sql`delete from audit_log where id = ${unreadable}`.execute(old);
          await sql`create trigger audit_log_no_delete before delete on audit_log
            begin select raise(abort, 'audit_log is append-only'); end`.execute(old);
        }
        expect(await verifyAuditChain(old)).toMatchObject({ ok: true, entries: 5 });

        // The append-only trigger is back, and new entries continue the chain.
        await expect(sql`update audit_log set ip = ''`.execute(old)).rejects.toThrow(/append-only/);
        await expect(sql`delete from audit_log`.execute(old)).rejects.toThrow(/append-only/);
        await appendAuditEntry(old, { actorId: null, actorEmail: "", action: "sign-in.failed", ip: "192.0.2.9" });
        expect(await verifyAuditChain(old)).toMatchObject({ ok: true, entries: 6 });
      } finally {
        await old.destroy();
      }
    });
  });
}

async function migrateTo(db: Kysely<Database>, dialect: Dialect, name: string) {
  const { error } = await new Migrator({ db, provider: migrationProvider(dialect) }).migrateTo(name);
  if (error) throw error;
}

function createHashHex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
