import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withDatabase } from "./support/database";
import { test, expect } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// The production server's database start-up and shutdown, exercised through `node server.js`.

const e2eDir = path.resolve(process.env.E2E_DIR ?? ".e2e");

function runServer(databaseUrl: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        SITE_URL: "http://127.0.0.1",
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

test.describe("database start-up failures stop the server with one clear line", () => {
  const notADirectory = () => {
    const dir = mkdtempSync(path.join(e2eDir, "blocked-"));
    const file = path.join(dir, "a-file");
    writeFileSync(file, "not a folder");
    return `file:${path.join(file, "site.db")}`;
  };
  const cases: [string, () => string, RegExp][] = [
    ["a malformed DATABASE_URL", () => "mysql://localhost/site", /^Invalid configuration: DATABASE_URL must be file:PATH/],
    [
      "an unreachable PostgreSQL",
      () => "postgres://postgres@127.0.0.1:1/site",
      /^Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/site \(.*ECONNREFUSED.*\)\. Start PostgreSQL or fix the host and port in DATABASE_URL\.$/,
    ],
    [
      "an SQLite path that cannot be created",
      notADirectory,
      /^Cannot open the SQLite database .*a-file\/site\.db \((EEXIST|ENOTDIR)\b.*\)\. Point DATABASE_URL=file:PATH at a writable location\.$/,
    ],
  ];
  for (const [name, url, message] of cases) {
    test(name, async () => {
      const { code, stderr } = await runServer(url());
      expect(code).toBe(1);
      const lines = stderr.split("\n").filter(Boolean);
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(stderr).not.toMatch(/^\s+at /m);
    });
  }
});

test("healthz answers 503 while the database is broken and 200 again once it is repaired", async () => {
  const server = await startPrivateServer();
  try {
    const health = () => fetch(`${server.url}/healthz`).then(async (response) => [response.status, await response.json()]);
    // The lead spool's depth is reported either way; a broken (not unreachable) database is no reason to spool.
    const spool = { entries: 0, bytes: 0, maxBytes: 67_108_864, rejected: 0, accepting: true };
    expect(await health()).toEqual([200, { status: "ok", database: "ok", spool }]);
    withDatabase(server.databasePath, (db) => db.exec("alter table kysely_migration rename to kysely_migration_moved"));
    expect(await health()).toEqual([503, { status: "error", database: "error", spool }]);
    withDatabase(server.databasePath, (db) => db.exec("alter table kysely_migration_moved rename to kysely_migration"));
    expect(await health()).toEqual([200, { status: "ok", database: "ok", spool }]);
  } finally {
    await server.stop();
  }
});

test("SIGTERM closes the database after the HTTP server, and the data is there after a restart", async () => {
  const first = await startPrivateServer({ SEED: "never" });
  withDatabase(first.databasePath, (db) =>
    db.exec(
      "insert into blog_posts (id, slug, title, published) values ('7d3c1f0a-2b4e-4c6d-8e9f-0a1b2c3d4e5f', 'kept', 'Kept', 1)",
    ),
  );
  await first.stop();
  const log = first.output();
  expect(log.indexOf('"msg":"database closed"')).toBeGreaterThan(log.indexOf('"msg":"server stopped"'));

  const second = await startPrivateServer({ DATABASE_URL: `file:${first.databasePath}`, SEED: "never" });
  try {
    const titles = withDatabase(first.databasePath, (db) => db.prepare("select title from blog_posts").all());
    expect(titles).toEqual([{ title: "Kept" }]);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  } finally {
    await second.stop();
  }
});
