import { mkdirSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { logger } from "../logger.server";
import { seedContent } from "./content.server";
import { migrationProvider } from "./migrations";
import { SqliteValuesPlugin, type Dialect } from "./normalize";
import type { Database } from "./schema";

export type { Database } from "./schema";
export type { Dialect } from "./normalize";

/** A start-up problem with the database, phrased as one line an operator can act on. */
export class DatabaseError extends Error {
  override name = "DatabaseError";
}

export type OpenDatabase = {
  db: Kysely<Database>;
  dialect: Dialect;
  pool?: pg.Pool;
  /** Where the data lives, for messages (never includes a password). */
  location: string;
};

/** Opens (but does not migrate) the database a DATABASE_URL points at. Used by the app, the CLI, tests and the bench. */
export async function openDatabase(url: string, poolSize = 10): Promise<OpenDatabase> {
  if (url.startsWith("file:")) return openSqlite(url);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, poolSize);
  throw new DatabaseError(
    `DATABASE_URL must be file:PATH (embedded SQLite) or postgres://user@host:port/database (PostgreSQL), got "${url.split(":")[0]}:…".`,
  );
}

/** `file:./data/site.db` is relative to the working directory; `file:/abs` and `file:///abs` are absolute. */
export function sqlitePath(url: string): string {
  let rest = url.slice("file:".length);
  if (rest.startsWith("//")) rest = rest.slice(2);
  rest = rest.split("?")[0] ?? "";
  if (!rest) throw new DatabaseError('DATABASE_URL "file:" needs a path, e.g. DATABASE_URL=file:./data/site.db.');
  return rest === ":memory:" ? rest : path.resolve(rest);
}

function openSqlite(url: string): OpenDatabase {
  const file = sqlitePath(url);
  let database: SqliteDatabase.Database;
  try {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    database = new SqliteDatabase(file);
  } catch (error) {
    throw new DatabaseError(
      `Cannot open the SQLite database ${file} (${describe(error)}). Point DATABASE_URL=file:PATH at a writable location.`,
    );
  }
  try {
    // WAL lets readers run while a writer commits; NORMAL is durable across app crashes in WAL mode.
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
    database.pragma("busy_timeout = 5000");
    database.pragma("foreign_keys = ON");
    // Open succeeds lazily even for unwritable files; find out now rather than on the first form post.
    database.exec("BEGIN IMMEDIATE; ROLLBACK;");
  } catch (error) {
    database.close();
    throw new DatabaseError(
      `Cannot write the SQLite database ${file} (${describe(error)}). Make the file and its folder writable or set DATABASE_URL=file:PATH elsewhere.`,
    );
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins: [new SqliteValuesPlugin()] });
  return { db, dialect: "sqlite", location: file };
}

async function openPostgres(url: string, poolSize: number): Promise<OpenDatabase> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseError("DATABASE_URL is not a valid URL; expected postgres://user:password@host:5432/database.");
  }
  const location = `${parsed.hostname || "localhost"}:${parsed.port || 5432}${parsed.pathname}`;
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", (error) => logger.warn({ err: error }, "idle PostgreSQL client error"));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseError(`Cannot connect to PostgreSQL at ${location} (${describe(error)}). ${postgresHint(error)}`);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", pool, location };
}

function postgresHint(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "3D000") return "Create the database or fix its name in DATABASE_URL.";
  if (code === "28P01" || code === "28000") return "Fix the user or password in DATABASE_URL.";
  return "Start PostgreSQL or fix the host and port in DATABASE_URL.";
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  const { code, message } = error as { code?: string; message?: string };
  const text = (message ?? String(error)).split("\n")[0]!;
  return code && !text.includes(code) ? `${code}: ${text}` : text || code || "unknown error";
}

/** Applies every pending migration. On PostgreSQL the migrator holds an advisory lock, so concurrent starts are safe. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    throw new DatabaseError(`Database migration ${failed?.migrationName ?? ""} failed: ${describe(error)}`.replace("  ", " "));
  }
  for (const result of results ?? []) logger.info({ migration: result.migrationName }, "migration applied");
}

let current: OpenDatabase | undefined;
let starting: Promise<void> | undefined;

/** Connects, migrates and (with SEED=auto) seeds empty content tables. Safe to call more than once. */
export function initDatabase(env: { DATABASE_URL: string; DATABASE_POOL_SIZE: number; SEED: "auto" | "never" }): Promise<void> {
  starting ??= (async () => {
    const opened = await openDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE);
    try {
      await migrateToLatest(opened.db, opened.dialect);
      if (env.SEED === "auto") await seedContent(opened.db, path.resolve("content"));
    } catch (error) {
      await opened.db.destroy().catch(() => undefined);
      throw error instanceof DatabaseError ? error : new DatabaseError(`Database set-up failed at ${opened.location}: ${describe(error)}`);
    }
    current = opened;
    logger.info({ dialect: opened.dialect, location: opened.location }, "database ready");
  })().catch((error) => {
    starting = undefined;
    throw error;
  });
  return starting;
}

export function getDb(): Kysely<Database> {
  if (!current) throw new Error("The database is not initialised: call initDatabase() at start-up.");
  return current.db;
}

export function getPgPool(): pg.Pool | undefined {
  return current?.pool;
}

export function getDialect(): Dialect {
  if (!current) throw new Error("The database is not initialised: call initDatabase() at start-up.");
  return current.dialect;
}

/** For /healthz: a round trip that touches the schema, not just the connection. */
export async function checkDatabase(): Promise<boolean> {
  try {
    await sql`select name from kysely_migration limit 1`.execute(getDb());
    return true;
  } catch (error) {
    logger.error({ err: error }, "database health check failed");
    return false;
  }
}

export async function closeDatabase(): Promise<void> {
  const closing = current;
  current = undefined;
  starting = undefined;
  await closing?.db.destroy();
}
