import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseError, isDatabaseUnreachable, isStatementRefused, openDatabase, type OpenDatabase } from "~/db/connection.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import { insertLead, insertLeadOnce } from "~/features/leads/db/leads.server";
import type { Database, DeliveryDestination } from "~/db/schema";
import { replayLeadSpool } from "~/features/leads/spool-replay.server";
import { openLeadSpool, REJECTED_DIR, SpoolFullError, type SpoolEntry } from "~/features/leads/spool.server";
import { engines, PG_URL, postgresAvailability } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { demo } from "./support/fixtures";

// The lead spool: what a server keeps on its own disk while the database cannot be reached, and
// the replay that stores it exactly once when it can.

const dirs: string[] = [];
function spoolDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-spool-test-"));
  dirs.push(dir);
  return path.join(dir, "lead-spool");
}
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function entry(email = `${randomUUID()}@example.com`, createdAt = new Date().toISOString()): SpoolEntry {
  return { id: randomUUID(), form: "request-demo", createdAt, lead: { ...demo, email } };
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe("the lead spool on disk", () => {
  it("keeps what it wrote: a new spool on the directory reads every entry back, oldest first", async () => {
    const dir = spoolDir();
    const first = openLeadSpool({ dir, maxBytes: 1_000_000 });
    const written = [entry("a@example.com", "2026-11-26T06:00:00.000Z"), entry("b@example.com", "2026-11-26T06:00:01.000Z")];
    for (const item of [...written].reverse()) await first.write(item);
    expect(first.depth().entries).toBe(2);

    // As after a restart (or a SIGKILL: nothing is kept in memory that the disk does not have).
    const reopened = openLeadSpool({ dir, maxBytes: 1_000_000 });
    expect(reopened.depth()).toEqual(first.depth());
    const names = await reopened.list();
    expect(await Promise.all(names.map((name) => reopened.read(name)))).toEqual(written);
  });

  it("drops a write that was cut short before its rename (it was never acknowledged)", async () => {
    const dir = spoolDir();
    const spool = openLeadSpool({ dir, maxBytes: 1_000_000 });
    await spool.write(entry());
    // What a crash between the temporary file's creation and its rename leaves behind.
    writeFileSync(path.join(dir, `.${randomUUID()}.tmp`), '{"version":1,"id":');
    const reopened = openLeadSpool({ dir, maxBytes: 1_000_000 });
    expect(reopened.depth().entries).toBe(1);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a lead that would pass its limit, also when many arrive at once", async () => {
    const one = Buffer.byteLength(JSON.stringify({ version: 1, ...entry("x@example.com") }));
    const spool = openLeadSpool({ dir: spoolDir(), maxBytes: one * 5 + one / 2 });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => spool.write(entry("x@example.com"))));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    for (const result of results.filter((result) => result.status === "rejected"))
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SpoolFullError);
    expect(spool.depth().entries).toBe(5);
    expect(spool.depth().bytes).toBeLessThanOrEqual(spool.maxBytes);
    await expect(spool.write(entry("x@example.com"))).rejects.toBeInstanceOf(SpoolFullError);
    // Room again once the replay removed one.
    await spool.remove((await spool.list())[0]!);
    await spool.write(entry("x@example.com"));
  });

  it("keeps an exact count when a lead is written while the directory is being recounted", async () => {
    const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 100_000_000 });
    for (let index = 0; index < 300; index++) await spool.write(entry());
    // The recount reads the directory, then looks at each of its 300 files; the write lands meanwhile.
    const recount = spool.list();
    const write = spool.write(entry());
    await Promise.all([recount, write]);
    expect(spool.depth().entries).toBe(301);
    await spool.list();
    expect(spool.depth().entries).toBe(301);
  });

  it("is the service user's alone: directory 0700 (tightened if it was not), files 0600 whatever the umask", async () => {
    const dir = spoolDir();
    mkdirSync(dir, { mode: 0o755 });
    const previous = process.umask(0);
    try {
      const spool = openLeadSpool({ dir, maxBytes: 1_000_000 });
      await spool.write(entry());
      expect(mode(dir)).toBe(0o700);
      const [name] = await spool.list();
      expect(mode(path.join(dir, name!))).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it("fails the write when its disk does (here: the directory is gone, a file in its place)", async () => {
    const dir = spoolDir();
    const spool = openLeadSpool({ dir, maxBytes: 1_000_000 });
    await spool.write(entry());
    rmSync(dir, { recursive: true });
    writeFileSync(dir, "not a directory");
    await expect(spool.write(entry())).rejects.toMatchObject({ code: expect.stringMatching(/^(ENOTDIR|ENOENT)$/) });
    expect(() => openLeadSpool({ dir, maxBytes: 1_000_000 }).depth()).toThrow();
  });
});

const postgresAvailable = (await postgresAvailability()).available;

describe("telling an unreachable database from a refused statement", () => {
  it("an unreachable PostgreSQL at start and on a query is unreachable", async () => {
    const closed = "postgres://postgres@127.0.0.1:1/none";
    const atStart = await openDatabase(closed).catch((error: unknown) => error);
    expect(atStart).toBeInstanceOf(DatabaseError);
    expect(isDatabaseUnreachable(atStart)).toBe(true);

    const pool = new pg.Pool({ connectionString: closed, connectionTimeoutMillis: 1_000 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const onQuery = await db.selectFrom("demo_requests").select("id").execute().catch((error: unknown) => error);
      expect(isDatabaseUnreachable(onQuery)).toBe(true);
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(!postgresAvailable)(
    "a connection PostgreSQL ends (an administrator's shutdown) is unreachable",
    async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        const { rows } = await pool.query<{ pid: number }>("select pg_backend_pid() as pid");
        const lost = new Promise((resolve) => pool.once("error", resolve));
        await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
        await lost;
        const error = await pool.query("select 1").then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        // The pool dropped the dead client and connected anew, or the query met the dead one.
        if (error !== undefined) expect(isDatabaseUnreachable(error)).toBe(true);
        expect(isDatabaseUnreachable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
      } finally {
        await admin.end();
        await pool.end();
      }
    },
  );

  it.skipIf(!postgresAvailable)(
    "a connection in use whose server goes away does not end the process",
    async () => {
      const opened = await openDatabase(PG_URL, 2);
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        // Between a transaction's statements the connection is checked out with no query running:
        // its server ending it then is an "error" event on the client, not on the pool.
        const outcome = await opened.db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
            await new Promise((resolve) => setTimeout(resolve, 300));
          })
          .then(
            () => "committed",
            (error: unknown) => (isDatabaseUnreachable(error) ? "unreachable" : String(error)),
          );
        expect(outcome).toBe("unreachable");
        // The pool dropped the dead connection and answers on a new one.
        expect((await sql<{ one: number }>`select 1 as one`.execute(opened.db)).rows).toEqual([{ one: 1 }]);
      } finally {
        await admin.end();
        await opened.db.destroy();
      }
    },
  );
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`replaying the lead spool into ${engine.name}`, () => {
    let opened: OpenDatabase;
    let db: Kysely<Database>;
    const destinations = (): readonly DeliveryDestination[] => ["webhook"];

    beforeEach(async () => {
      opened = await migratedDatabase(engine, 6);
      db = opened.db;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    const storedEmails = async () =>
      (await db.selectFrom("demo_requests").select(["id", "email", "created_at"]).execute()).map((row) => String(row.email));

    it("stores each lead once under its own id and time, with its deliveries, and empties the spool", async () => {
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      const kept = entry("kept@example.com", "2026-11-26T06:30:00.000Z");
      await spool.write(kept);
      const result = await replayLeadSpool(spool, db, destinations);
      expect(result).toEqual({ stored: 1, alreadyStored: 0, rejected: 0, unreachable: false });
      const row = await db.selectFrom("demo_requests").selectAll().executeTakeFirstOrThrow();
      expect([String(row.id), new Date(row.created_at as string | Date).toISOString(), row.email]).toEqual([
        kept.id,
        kept.createdAt,
        "kept@example.com",
      ]);
      expect((await listDeliveries(db)).map((delivery) => [delivery.lead_id, delivery.status])).toEqual([[kept.id, "pending"]]);
      expect(spool.depth()).toEqual({ entries: 0, bytes: 0 });
      expect(await spool.list()).toEqual([]);
    });

    it("a constraint the lead breaks is a refused statement, never an unreachable database", async () => {
      const identity = { id: randomUUID(), createdAt: new Date().toISOString() };
      await insertLead(db, "request-demo", demo, [], identity);
      const duplicate = await insertLead(db, "request-demo", demo, [], identity).catch((error: unknown) => error);
      const badDestination = await insertLead(db, "request-demo", demo, ["fax" as DeliveryDestination]).catch(
        (error: unknown) => error,
      );
      for (const error of [duplicate, badDestination]) {
        expect(error).toBeInstanceOf(Error);
        expect(isDatabaseUnreachable(error)).toBe(false);
        expect(isStatementRefused(error)).toBe(true);
      }
    });

    it("two replayers racing on one directory store every lead exactly once", async () => {
      const dir = spoolDir();
      const writer = openLeadSpool({ dir, maxBytes: 10_000_000 });
      const emails = Array.from({ length: 30 }, (_, index) => `race-${index}@example.com`);
      for (const email of emails) await writer.write(entry(email));
      const [one, two] = await Promise.all([
        replayLeadSpool(openLeadSpool({ dir, maxBytes: 10_000_000 }), db, destinations),
        replayLeadSpool(openLeadSpool({ dir, maxBytes: 10_000_000 }), db, destinations),
      ]);
      expect(one.stored + two.stored).toBe(30);
      expect((await storedEmails()).sort()).toEqual([...emails].sort());
      expect(await listDeliveries(db)).toHaveLength(30);
      expect(await writer.list()).toEqual([]);
    });

    it("a replay that died between its insert and the file's removal stores nothing twice", async () => {
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      const kept = entry("once@example.com");
      await spool.write(kept);
      // The state such a crash leaves: the lead (with its deliveries) in the database, its file still on disk.
      await insertLeadOnce(db, "request-demo", kept.lead as typeof demo, destinations(), kept);
      const result = await replayLeadSpool(openLeadSpool({ dir: spool.dir, maxBytes: 1_000_000 }), db, destinations);
      expect(result).toEqual({ stored: 0, alreadyStored: 1, rejected: 0, unreachable: false });
      expect(await storedEmails()).toEqual(["once@example.com"]);
      expect(await listDeliveries(db)).toHaveLength(1);
      expect(await spool.list()).toEqual([]);
    });

    it("sets aside a lead the database refuses, and one that is no entry, and goes on with the rest", async () => {
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      await spool.write({ ...entry("refused@example.com", "2026-11-26T06:00:00.000Z"), form: "contact-sales" });
      await spool.write(entry("fine@example.com", "2026-11-26T06:00:02.000Z"));
      writeFileSync(path.join(spool.dir, `${Date.parse("2026-11-26T06:00:01.000Z")}-${randomUUID()}.json`), "{cut short");
      // A destination the outbox's check refuses makes the database refuse the contact request (and only it).
      const refuseContacts = (form: string): readonly DeliveryDestination[] =>
        form === "contact-sales" ? ["fax" as DeliveryDestination] : ["webhook"];
      const result = await replayLeadSpool(spool, db, refuseContacts);
      expect(result).toEqual({ stored: 1, alreadyStored: 0, rejected: 2, unreachable: false });
      expect(await storedEmails()).toEqual(["fine@example.com"]);
      expect(await db.selectFrom("sales_leads").select("id").execute()).toEqual([]);
      expect(readdirSync(path.join(spool.dir, REJECTED_DIR))).toHaveLength(2);
      expect(spool.rejected()).toBe(2);
      expect(spool.depth().entries).toBe(0);
    });
  });
}

describe("replaying while the database is still unreachable", () => {
  it("stops at the first lead and keeps every entry for the next pass", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 1_000 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const spool = openLeadSpool({ dir: spoolDir(), maxBytes: 1_000_000 });
      await spool.write(entry());
      await spool.write(entry());
      const result = await replayLeadSpool(spool, db, () => ["webhook"]);
      expect(result).toEqual({ stored: 0, alreadyStored: 0, rejected: 0, unreachable: true });
      expect(spool.depth().entries).toBe(2);
      expect(spool.rejected()).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
