import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "~/features/auth/db/admin-users.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { eraseSubject, exportSubjectData, recordErasure, subjectHash } from "~/features/privacy/db/data-subject.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import { insertLead, insertLeadOnce } from "~/features/leads/db/leads.server";
import type { Database } from "~/db/schema";
import { leadForms } from "~/features/leads/registry";
import { applyErasuresToSpool, findInSpool } from "~/features/leads/spool-erasure.server";
import { replayLeadSpool } from "~/features/leads/spool-replay.server";
import { openLeadSpool, REJECTED_DIR, type SpoolEntry } from "~/features/leads/spool.server";
import { recordLeadExport } from "~/features/leads/workspace.server";
import { engines } from "./support/engines";
import { demo } from "./support/fixtures";
import { migratedDatabase } from "./support/migrated-database";

// Erasing a person reaches every place their data can be: the lead tables, the deliveries and
// activity, and the lead spool on each server's disk (waiting and rejected leads, applied by each
// server's replay from an erasure record in the database, so an erased lead is never stored again).
// An export of a search for them leaves their address out of the audit log.

const PERSON = "Person@Example.com";
const by = { actor: null, ip: "command line" };
const dirs: string[] = [];
function spoolDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-erasure-test-"));
  dirs.push(dir);
  return path.join(dir, "lead-spool");
}
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function entry(email: string, createdAt: string): SpoolEntry {
  return { id: randomUUID(), form: "request-demo", createdAt, lead: { ...demo, email } };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`erasure on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    const storedEmails = async () =>
      (await db.selectFrom("demo_requests").select("email").execute()).map((row) => String(row.email)).sort();

    it("removes the person's leads, deliveries and activity, and their leads from a server's spool, never storing them again", async () => {
      const stored = await insertLead(db, "request-demo", { ...demo, email: "person@example.com" }, ["email", "webhook"]);
      await db
        .insertInto("lead_activity")
        .values({ id: randomUUID(), lead_table: "demo_requests", lead_id: stored, kind: "note", body: "Called." })
        .execute();

      // Leads this server kept while the database was unreachable: one waiting, one the database
      // refused (moved to rejected/), one file that is no entry, and everyone else's.
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      const waiting = entry("PERSON@example.com", minutesAgo(30));
      const refused = entry("person@example.com", minutesAgo(29));
      const someoneElse = entry("other@example.com", minutesAgo(28));
      for (const item of [waiting, refused, someoneElse]) await spool.write(item);
      const refusedName = (await spool.list()).find((name) => name.endsWith(`${refused.id}.json`))!;
      await spool.reject(refusedName);
      const unreadable = `${Date.parse(minutesAgo(27))}-${randomUUID()}.json`;
      writeFileSync(path.join(spool.dir, REJECTED_DIR, unreadable), '{"version":1,"lead":{"email":"person@example.com","first_na');

      // The privacy export lists what the spool keeps too.
      const spooled = await findInSpool(spool, PERSON);
      expect(spooled.map((item) => [item.state, item.id])).toEqual([
        ["waiting", waiting.id],
        ["rejected", refused.id],
        ["rejected", null],
      ]);
      const exported = JSON.parse(await exportSubjectData(db, PERSON, by, new Date(), spooled));
      expect(exported.lead_spool).toHaveLength(3);
      expect(exported.lead_spool[0].lead.email).toBe("PERSON@example.com");

      const counts = await eraseSubject(db, PERSON, by);
      expect(counts).toMatchObject({ demo_requests: 1, lead_deliveries: 2, lead_activity: 1 });
      expect(await storedEmails()).toEqual([]);
      expect(await listDeliveries(db)).toEqual([]);
      expect(await db.selectFrom("lead_activity").select("id").execute()).toEqual([]);
      // The record every server applies to its spool holds the hash, never the address.
      expect(await db.selectFrom("subject_erasures").select("subject_hash").execute()).toEqual([
        { subject_hash: subjectHash(PERSON) },
      ]);

      // The person asks again after the erasure: a new request of theirs, kept.
      const afterwards = entry("person@example.com", new Date(Date.now() + 1000).toISOString());
      await spool.write(afterwards);

      // The next pass of this server's replay job (every server's, each on its own spool).
      const result = await replayLeadSpool(spool, db, () => ["webhook"]);
      expect(result).toMatchObject({ stored: 2, erased: 3, unreachable: false });
      expect(await storedEmails()).toEqual(["other@example.com", "person@example.com"]);
      const again = await db.selectFrom("demo_requests").select("id").where("email", "=", "person@example.com").execute();
      expect(again.map((row) => String(row.id))).toEqual([afterwards.id]);
      expect(await spool.list()).toEqual([]);
      expect(existsSync(path.join(spool.dir, REJECTED_DIR)) ? readdirSync(path.join(spool.dir, REJECTED_DIR)) : []).toEqual([]);
      expect(await findInSpool(spool, PERSON)).toEqual([]);
    });

    it("reads each spool file once however many passes an erasure meets it in", async () => {
      // Rejected leads wait for an operator: the replay passes over them every second.
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      for (const item of [entry("one@example.com", minutesAgo(30)), entry("two@example.com", minutesAgo(29))]) {
        await spool.write(item);
        await spool.reject((await spool.list())[0]!);
      }
      await recordErasure(db, "someone-else@example.com");
      const reads: string[] = [];
      const readText = spool.readText.bind(spool);
      spool.readText = async (name, state) => {
        reads.push(name);
        return readText(name, state);
      };

      for (let pass = 0; pass < 3; pass += 1) expect(await applyErasuresToSpool(spool, db)).toBe(0);
      expect(reads).toHaveLength(2);

      // A lead rejected later is read once too; an erasure of an address the spool holds still applies.
      await spool.write(entry("three@example.com", minutesAgo(28)));
      await spool.reject((await spool.list())[0]!);
      expect(await applyErasuresToSpool(spool, db)).toBe(0);
      expect(reads).toHaveLength(3);
      await recordErasure(db, "TWO@example.com");
      expect(await applyErasuresToSpool(spool, db)).toBe(1);
      expect(await applyErasuresToSpool(spool, db)).toBe(0);
      expect(reads).toHaveLength(3);
      expect(await spool.listRejected()).toHaveLength(2);
    });

    it("deletes a spooled lead's copy that reached the database around the erasure, with the file", async () => {
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      const kept = entry("person@example.com", minutesAgo(10));
      await spool.write(kept);
      // A replay stored it just as the erasure was recorded (before the erasure's own deletion ran).
      await insertLeadOnce(db, "request-demo", kept.lead as typeof demo, ["webhook"], kept);
      await recordErasure(db, PERSON);
      const result = await replayLeadSpool(spool, db, () => ["webhook"]);
      expect(result).toMatchObject({ stored: 0, alreadyStored: 0, erased: 1 });
      expect(await db.selectFrom(leadForms["request-demo"].table).select("id").execute()).toEqual([]);
      expect(await listDeliveries(db)).toEqual([]);
      expect(await spool.list()).toEqual([]);
    });

    it("an export of a search keeps a hash of the term in the audit log, never the term", async () => {
      const seller = await createUser(db, { email: "seller@quorvant.com", roles: ["sales"] });
      const worker = { actor: { id: seller.id, email: seller.email }, ip: "127.0.0.1" };
      await recordLeadExport(db, worker, leadForms["request-demo"], { q: "person@example.com", status: "new" });
      await recordLeadExport(db, worker, leadForms["request-demo"], { q: " Ada Lovelace " });
      await recordLeadExport(db, worker, leadForms["request-demo"], { campaign: "spring" });
      const { entries } = await listAuditEntries(db, { action: "lead.export" }, { limit: 10 });
      const filters = entries.map((item) => item.details.filters);
      expect(filters).toHaveLength(3);
      expect(filters).toEqual(
        expect.arrayContaining([
          { status: "new", q_sha256: subjectHash("person@example.com") },
          { q_sha256: subjectHash("ada lovelace") },
          { campaign: "spring" },
        ]),
      );
      expect(JSON.stringify(entries)).not.toMatch(/person|lovelace/i);
    });
  });
}
