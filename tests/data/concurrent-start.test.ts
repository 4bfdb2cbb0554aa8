import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import { countPublishedPosts } from "~/features/blog/db/posts.server";
import { postgresAvailability, postgresEngine } from "./support/engines";

// Two servers starting at once against one PostgreSQL: both must come up, with one schema and one seed.

const pgState = await postgresAvailability();
const engine = postgresEngine();

function startProcess(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/data/support/start-database.ts")], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe.skipIf(!pgState.available)("two processes migrating one PostgreSQL database at once", () => {
  afterAll(() => engine.cleanup());

  it("both succeed, leaving one schema and one copy of the sample content", async () => {
    const url = await engine.create();
    const results = await Promise.all([startProcess(url), startProcess(url), startProcess(url)]);
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });

    const { db } = await openDatabase(url, 1);
    try {
      const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      const known = Object.keys(await migrationProvider("postgres").getMigrations()).sort();
      expect(migrations.rows.map((row) => row.name)).toEqual(known);
      const tables = await sql<{ count: string }>`
        select count(*) as count from information_schema.tables
        where table_schema = 'public' and table_name in ('blog_posts', 'legal_documents', 'sales_leads', 'demo_requests', 'career_applications')`.execute(db);
      expect(Number(tables.rows[0]!.count)).toBe(5);
      const published = await countPublishedPosts(db);
      expect(published).toBeGreaterThanOrEqual(9);
      const all = await db.selectFrom("blog_posts").select("slug").execute();
      expect(new Set(all.map((row) => row.slug)).size).toBe(all.length);
      // One row per sample legal file (each a version of a document), none twice.
      const legal = await db.selectFrom("legal_documents").select(["document_type", "version", "locale"]).execute();
      expect(legal).toHaveLength(readdirSync(path.resolve("content/legal")).length);
      expect(new Set(legal.map((row) => `${row.document_type} ${row.version} ${row.locale}`)).size).toBe(legal.length);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
