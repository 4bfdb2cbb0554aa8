import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import SqliteDatabase from "better-sqlite3";
import { decodeHTML } from "entities";
import { Migrator, sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, sqlitePath, type OpenDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import { recordAudit } from "~/features/audit/audit.server";
import { verifyAuditChain } from "~/features/audit/db/audit-log.server";
import { createUser } from "~/features/auth/db/admin-users.server";
import { postPath } from "~/features/blog/posts";
import { mediaUrl } from "~/features/media/media";
import { storeUpload } from "~/features/media/media.server";
import { demoRequestBody } from "../../bench/support/demo-request";
import { startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { engines, PG_URL, type Engine } from "./support/engines";

// `npm run db -- backup` of a running site while visitors post leads, and `npm run db -- restore`
// into a fresh database that a second server then runs on: every lead acknowledged before the
// backup began is there, and so is the content, the people, the audit log (its chain intact) and
// the uploaded images, served from an empty media cache. Then what restore refuses, each time
// changing nothing: a target that holds data, a backup of a newer release, a backup of the other
// engine, a file that is not there; and what it accepts: --replace, and an older backup, migrated.

const SUCCESS_TEXT = "Demo Request Submitted";

type CliResult = { code: number; stdout: string; stderr: string };

/** The real command, as `npm run db -- …` runs it, on the database of `databaseUrl`. */
function runDb(args: string[], databaseUrl: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/db.ts"), ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Demo requests posted over HTTP by two clients in a loop; each acknowledged one with when its answer came. */
function postLeadsSteadily(url: string, campaign: string) {
  const acknowledged: { email: string; at: number }[] = [];
  let failed = 0;
  let next = 0;
  let running = true;
  const clients = [0, 1].map(async () => {
    while (running) {
      const index = next++;
      const email = `lead-${index}@${campaign}.example.com`;
      try {
        const response = await fetch(`${url}/request-demo`, {
          method: "POST",
          body: demoRequestBody(index, email),
          headers: { Origin: url },
        });
        const html = await response.text();
        if (response.status === 200 && html.includes(SUCCESS_TEXT)) acknowledged.push({ email, at: performance.now() });
        else failed += 1;
      } catch {
        failed += 1;
      }
    }
  });
  return {
    acknowledged,
    failed: () => failed,
    async waitFor(count: number) {
      const deadline = Date.now() + 20_000;
      while (acknowledged.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(acknowledged.length).toBeGreaterThanOrEqual(count);
    },
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** How many tables the database of `url` has: 0 for an SQLite file that does not exist. */
async function tableCount(engineName: Engine["name"], url: string): Promise<number> {
  if (engineName === "sqlite" && !existsSync(sqlitePath(url))) return 0;
  const { db } = await openDatabase(url, 1);
  try {
    const query =
      engineName === "sqlite"
        ? sql<{ n: number }>`select count(*) as n from sqlite_schema where type = 'table'`
        : sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
    return Number((await query.execute(db)).rows[0]!.n);
  } finally {
    await db.destroy();
  }
}

/** The migrations a database records, in the order they ran. */
async function migrationNames(db: OpenDatabase["db"]): Promise<string[]> {
  return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
}

/** What must survive: ids of the content, people and audit entries, and the uploaded image. */
async function snapshot(db: OpenDatabase["db"]) {
  const ids = async (table: "blog_posts" | "content_documents" | "legal_documents" | "audit_log") =>
    (await db.selectFrom(table).select("id").execute()).map((row) => row.id).sort();
  return {
    posts: await ids("blog_posts"),
    pages: await ids("content_documents"),
    legal: await ids("legal_documents"),
    audit: await ids("audit_log"),
    people: (await db.selectFrom("admin_users").select("email").execute()).map((row) => row.email).sort(),
    media: await db.selectFrom("media").select(["id", "sha256"]).execute(),
  };
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`backup and restore on ${engine.name}`, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `quorvant-backup-${engine.name}-`));
    const backupFile = path.join(dir, engine.name === "sqlite" ? "site.db" : "site.dump");
    const otherEngineUrl =
      engine.name === "sqlite" ? `${PG_URL.replace(/\/[^/]*$/, "")}/never_created` : `file:${path.join(dir, "never-created.db")}`;
    let source: BuiltServer | undefined;
    let restored: BuiltServer | undefined;

    afterAll(async () => {
      await source?.stop();
      await restored?.stop();
      await engine.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    let targetUrl: string;
    let backupMs: number;
    let restoreMs: number;
    let before: Awaited<ReturnType<typeof snapshot>>;
    let ackedBeforeBackup: string[];
    let ackedDuringBackup: number;
    let image: { id: string; fileName: string; contentType: "image/png" };
    let mediaCache: string;

    beforeAll(async () => {
      let started = performance.now();
      const sourceUrl = await engine.create();
      source = await startBuiltServer({
        DATABASE_URL: sourceUrl,
        LOG_LEVEL: "warn",
        MEDIA_CACHE_DIR: path.join(dir, "source-media"),
        LEAD_SPOOL_DIR: path.join(dir, "source-spool"),
      });
      console.log(`${engine.name}: source server with the sample content up in ${Math.round(performance.now() - started)} ms`);

      // A person, an uploaded image and audit entries, written beside the running server.
      const sourceDb = await openDatabase(sourceUrl, 2);
      try {
        const person = await createUser(sourceDb.db, { email: `editor-${randomUUID()}@quorvant.com`, roles: ["editor"] });
        const actor = { id: person.id, email: person.email, ip: "192.0.2.7" };
        await recordAudit(sourceDb.db, { actor: null, action: "user.created", target: { type: "user", id: person.id }, ip: "command line" });
        const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a6f97" } }).png().toBuffer();
        const upload = await storeUpload(sourceDb.db, new File([new Uint8Array(png)], "Backup Check.png"), "A blue square", actor);
        if (!upload.ok) throw new Error(`the upload was refused: ${JSON.stringify(upload.fieldErrors)}`);
        const [stored] = await sourceDb.db.selectFrom("media").select(["id", "file_name"]).execute();
        image = { id: stored!.id, fileName: stored!.file_name, contentType: "image/png" };
        before = await snapshot(sourceDb.db);
      } finally {
        await sourceDb.db.destroy();
      }

      // On SQLite, a reader in the middle of a long read (an export, say) keeps the server from
      // checkpointing: the leads posted from now on are only in the -wal file, which a copy of the
      // database file alone would miss.
      const reader = engine.name === "sqlite" ? new SqliteDatabase(sqlitePath(sourceUrl), { readonly: true }) : undefined;
      reader?.exec("begin");
      reader?.prepare("select count(*) from demo_requests").get();
      const campaign = `backup-${engine.name}-${Date.now()}`;
      const leads = postLeadsSteadily(source.url, campaign);
      await leads.waitFor(20);
      const backupBegan = performance.now();
      ackedBeforeBackup = leads.acknowledged.filter((lead) => lead.at < backupBegan).map((lead) => lead.email);
      const backup = await runDb(["backup", backupFile], sourceUrl);
      backupMs = performance.now() - backupBegan;
      ackedDuringBackup = leads.acknowledged.filter((lead) => lead.at >= backupBegan).length;
      await leads.stop();
      reader?.close();
      expect(backup, backup.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining(`to ${backupFile}`) });
      expect(leads.failed()).toBe(0);
      await source.stop();
      source = undefined;

      started = performance.now();
      targetUrl = await engine.create();
      const restore = await runDb(["restore", backupFile], targetUrl);
      restoreMs = performance.now() - started;
      expect(restore, restore.stderr).toMatchObject({ code: 0 });
      expect(restore.stdout).toContain(`Restored ${backupFile}`);
      expect(restore.stdout).toMatch(/came along \(1 image\); each server's media cache \(MEDIA_CACHE_DIR\) fills again/);
      console.log(
        `${engine.name}: backup (CLI process) ${Math.round(backupMs)} ms with ${ackedDuringBackup} leads acknowledged meanwhile, restore ${Math.round(restoreMs)} ms`,
      );

      mediaCache = path.join(dir, "restored-media");
      mkdirSync(mediaCache);
      started = performance.now();
      // SEED=never: whatever content the restored site shows came from the backup.
      restored = await startBuiltServer({
        DATABASE_URL: targetUrl,
        SEED: "never",
        LOG_LEVEL: "warn",
        MEDIA_CACHE_DIR: mediaCache,
        LEAD_SPOOL_DIR: path.join(dir, "restored-spool"),
      });
      console.log(`${engine.name}: restored server up in ${Math.round(performance.now() - started)} ms`);
    }, 120_000);

    it("holds every lead acknowledged before the backup began, and all content, people, audit entries and images", async () => {
      expect(ackedBeforeBackup.length).toBeGreaterThanOrEqual(20);
      const { db } = await openDatabase(targetUrl, 2);
      try {
        const emails = new Set(
          (await db.selectFrom("demo_requests").select("email").execute()).map((row) => row.email),
        );
        expect(ackedBeforeBackup.filter((email) => !emails.has(email))).toEqual([]);
        const after = await snapshot(db);
        expect(after.posts).toEqual(before.posts);
        expect(after.pages).toEqual(before.pages);
        expect(after.legal).toEqual(before.legal);
        expect(after.people).toEqual(before.people);
        expect(after.media).toEqual(before.media);
        // Every entry of the backup, and one more at the end of the chain: the restore itself.
        expect(after.audit.filter((id) => before.audit.includes(id))).toEqual(before.audit);
        expect(after.audit).toHaveLength(before.audit.length + 1);
        const restoredEntry = await db
          .selectFrom("audit_log")
          .selectAll()
          .where("id", "not in", before.audit)
          .executeTakeFirstOrThrow();
        expect(restoredEntry).toMatchObject({ action: "database.restored", ip: "command line" });
        expect(JSON.stringify(restoredEntry.details)).toContain(path.basename(backupFile));
        expect(before.audit.length).toBeGreaterThanOrEqual(2);
        expect(before.posts.length && before.pages.length && before.legal.length).toBeGreaterThan(0);
        expect(await verifyAuditChain(db)).toMatchObject({ ok: true, entries: before.audit.length + 1 });
        expect(await migrationNames(db)).toEqual(Object.keys(await migrationProvider(engine.name).getMigrations()));
      } finally {
        await db.destroy();
      }
    });

    it("serves the restored site, the uploaded image from an empty media cache", async () => {
      expect(readdirSync(mediaCache)).toEqual([]);
      const response = await fetch(`${restored!.url}${mediaUrl(image)}`);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(before.media[0]!.sha256);
      expect(readdirSync(mediaCache, { recursive: true }).length).toBeGreaterThan(0);

      const { db } = await openDatabase(targetUrl, 1);
      const post = await db
        .selectFrom("blog_posts")
        .select(["id", "slug", "title"])
        .where("published", "=", true)
        .where("locale", "=", "en")
        .orderBy("published_date", "desc")
        .executeTakeFirstOrThrow();
      await db.destroy();
      const page = await fetch(`${restored!.url}${postPath(post)}`);
      expect(page.status).toBe(200);
      expect(decodeHTML(await page.text())).toContain(post.title);
      expect((await fetch(`${restored!.url}/`)).status).toBe(200);
      if (engine.name === "sqlite") {
        // Replacing the file under a running server would leave it writing to the old one.
        const inUse = await runDb(["restore", backupFile, "--replace"], targetUrl);
        expect(inUse).toMatchObject({ code: 1, stderr: expect.stringContaining("stop the servers that use it, then restore.") });
        expect((await fetch(`${restored!.url}${postPath(post)}`)).status).toBe(200);
      }
      await restored!.stop();
      restored = undefined;
    });

    it("refuses a target that holds data, a backup of the other engine, a missing file, an existing backup file; changing nothing", async () => {
      const backupStat = statSync(backupFile);
      const tablesBefore = await tableCount(engine.name, targetUrl);
      const auditBefore = await withDatabase(targetUrl, async (db) => (await snapshot(db)).audit);
      const [nonEmpty, crossEngine, missing, overwrite] = await Promise.all([
        runDb(["restore", backupFile], targetUrl),
        runDb(["restore", backupFile], otherEngineUrl),
        runDb(["restore", path.join(dir, "no-such-backup")], targetUrl),
        runDb(["backup", backupFile], targetUrl),
      ]);
      expect(nonEmpty.code, nonEmpty.stderr).toBe(1);
      expect(nonEmpty.stderr).toMatch(/is not empty \(.*\): restore into an empty database, or add --replace/);
      expect(crossEngine.code, crossEngine.stderr).toBe(1);
      expect(crossEngine.stderr).toContain(
        engine.name === "sqlite"
          ? "is a backup of an SQLite database, and DATABASE_URL names a PostgreSQL database"
          : "is a backup of a PostgreSQL database, and DATABASE_URL names an SQLite database",
      );
      if (engine.name === "postgres") expect(existsSync(path.join(dir, "never-created.db"))).toBe(false);
      expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining("No file at") });
      expect(overwrite).toMatchObject({ code: 1, stderr: expect.stringContaining("exists: name a new file, or add --overwrite") });
      expect(statSync(backupFile).mtimeMs).toBe(backupStat.mtimeMs);
      expect(await tableCount(engine.name, targetUrl)).toBe(tablesBefore);
      const { db } = await openDatabase(targetUrl, 1);
      try {
        expect((await snapshot(db)).audit).toEqual(auditBefore);
      } finally {
        await db.destroy();
      }
      for (const result of [nonEmpty, crossEngine, missing, overwrite]) expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }, 60_000);

    it("--replace empties the target first; a newer backup is refused; an older one is restored and migrated forward", async () => {
      const target = await openDatabase(targetUrl, 1);
      const leadCount = async () =>
        Number((await target.db.selectFrom("demo_requests").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const leadsBefore = await leadCount();
      await createUser(target.db, { email: "written-after-the-backup@quorvant.com", roles: ["editor"] });
      await target.db.destroy();

      const replace = await runDb(["restore", backupFile, "--replace"], targetUrl);
      expect(replace.code, replace.stderr).toBe(0);
      expect(replace.stdout).toMatch(/replacing what it held \(\d+ tables, [\d,]+ rows/);
      const replaced = await openDatabase(targetUrl, 1);
      try {
        const people = (await replaced.db.selectFrom("admin_users").select("email").execute()).map((row) => row.email);
        expect(people.sort()).toEqual(before.people);
        expect(
          Number((await replaced.db.selectFrom("demo_requests").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n),
        ).toBe(leadsBefore);
        expect(await verifyAuditChain(replaced.db)).toMatchObject({ ok: true });
        // The target becomes the database of a newer release: one migration this release does not know.
        await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-release', ${new Date().toISOString()})`.execute(
          replaced.db,
        );
      } finally {
        await replaced.db.destroy();
      }

      // An older release's database: the migrations but the last two.
      const known = Object.keys(await migrationProvider(engine.name).getMigrations());
      const olderUrl = await engine.create();
      const older = await openDatabase(olderUrl, 1);
      const migrated = await new Migrator({ db: older.db, provider: migrationProvider(engine.name) }).migrateTo(known.at(-3)!);
      await older.db.destroy();
      expect(migrated.error).toBeUndefined();

      const newerFile = path.join(dir, `newer-${backupFile.split("/").pop()}`);
      const olderFile = path.join(dir, `older-${backupFile.split("/").pop()}`);
      const backups = await Promise.all([runDb(["backup", newerFile], targetUrl), runDb(["backup", olderFile], olderUrl)]);
      for (const backup of backups) expect(backup.code, backup.stderr).toBe(0);

      const [newerTarget, olderTarget] = [await engine.create(), await engine.create()];
      const [newer, olderRestore] = await Promise.all([
        runDb(["restore", newerFile], newerTarget),
        runDb(["restore", olderFile], olderTarget),
      ]);
      expect(newer.code, newer.stderr).toBe(1);
      expect(newer.stderr).toContain("was made by a newer release (it has migrations this release does not know: 9999-from-a-newer-release)");
      expect(await tableCount(engine.name, newerTarget)).toBe(0);

      expect(olderRestore.code, olderRestore.stderr).toBe(0);
      expect(olderRestore.stdout).toContain(
        `The backup was made by an older release (its latest migration: ${known.at(-3)}); migrated it forward: ${known.slice(-2).join(", ")}.`,
      );
      const upgraded = await openDatabase(olderTarget, 1);
      try {
        await migrateToLatest(upgraded.db, upgraded.dialect); // nothing left to apply
        expect(await migrationNames(upgraded.db)).toEqual(known);
      } finally {
        await upgraded.db.destroy();
      }
    }, 90_000);
  });
}

async function withDatabase<T>(url: string, read: (db: OpenDatabase["db"]) => Promise<T>): Promise<T> {
  const { db } = await openDatabase(url, 1);
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}
