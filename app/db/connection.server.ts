import { mkdirSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type LogEvent } from "kysely";
import pg from "pg";
import { logger } from "~/platform/logger.server";
import { dbQueryError, dbQueryOk } from "~/platform/metrics.server";
import { migrationProvider } from "~/db/migrations";
import { SqliteValuesPlugin, type Dialect } from "~/db/normalize";
import type { Database } from "~/db/schema";

// Opening a database from a DATABASE_URL and bringing its schema up to date. Used by the server,
// the command-line tools, the tests and the benchmarks.

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
      `Cannot open the SQLite database ${file} (${describeError(error)}). Point DATABASE_URL=file:PATH at a writable location.`,
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
      `Cannot write the SQLite database ${file} (${describeError(error)}). Make the file and its folder writable or set DATABASE_URL=file:PATH elsewhere.`,
    );
  }
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database }),
    plugins: [new SqliteValuesPlugin()],
    log: measureQuery,
  });
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
  // Nor one in use: the pool listens only to idle clients, and a client checked out (between a
  // transaction's statements, or just after its query failed) whose server goes away emits
  // "error" with no listener, which would end the process. The pool drops it on release.
  pool.on("connect", (client) =>
    client.on("error", (error) => logger.warn({ code: (error as { code?: unknown }).code }, "PostgreSQL connection lost")),
  );
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseError(`Cannot connect to PostgreSQL at ${location} (${describeError(error)}). ${postgresHint(error)}`, {
      cause: error,
    });
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: measureQuery });
  return { db, dialect: "postgres", pool, location };
}

/** Every statement's time goes to the metrics (Kysely times it when given a log function). */
function measureQuery(event: LogEvent): void {
  (event.level === "query" ? dbQueryOk : dbQueryError).observe(event.queryDurationMillis / 1000);
}

function postgresHint(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "3D000") return "Create the database or fix its name in DATABASE_URL.";
  if (code === "28P01" || code === "28000") return "Fix the user or password in DATABASE_URL.";
  return "Start PostgreSQL or fix the host and port in DATABASE_URL.";
}

export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describeError(error.errors[0]);
  const { code, message } = error as { code?: string; message?: string };
  const text = (message ?? String(error)).split("\n")[0]!;
  return code && !text.includes(code) ? `${code}: ${text}` : text || code || "unknown error";
}

/** Socket errors of a server that is down, restarting or out of reach. */
const UNREACHABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EPIPE",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a PostgreSQL that is going away or not yet there: class 08 (connection exception),
 * admin / crash shutdown, "the database system is starting up / shutting down".
 */
const UNREACHABLE_SQLSTATE = /^(08...|57P01|57P02|57P03)$/;

/** What node-postgres and its pool say, without a code, when a connection is lost or never made. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Query read timeout)$/;

/**
 * Whether `error` says the database could not be reached (down, restarting, network gone), as
 * opposed to the database refusing the statement: a constraint or type error is the statement's
 * fault and is never one of these. Looks through `cause` chains and AggregateErrors (a host name
 * with several addresses fails with one error per address).
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if (error instanceof AggregateError && error.errors.length > 0)
    return error.errors.every((inner) => isDatabaseUnreachable(inner, depth + 1));
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === "string" && (UNREACHABLE_ERRNO.has(code) || UNREACHABLE_SQLSTATE.test(code))) return true;
  if (typeof code !== "string" && typeof message === "string" && UNREACHABLE_MESSAGE.test(message)) return true;
  return isDatabaseUnreachable(cause, depth + 1);
}

/**
 * Whether the database refused the statement for what it holds: a data exception or a broken
 * constraint (SQLSTATE classes 22 and 23; SQLite's constraint, type and size errors). Trying the
 * same statement again fails again.
 */
export function isStatementRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^(2[23]...|SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)\w*)$/.test(code);
}

/**
 * Applies every pending migration. On PostgreSQL the migrator holds an advisory lock, so concurrent
 * starts are safe. A database a newer release has already migrated (every migration this release
 * knows is applied, and more) is used as it is: during a rolling deploy the servers still on the
 * previous release keep running on the schema the new one expanded (docs/operations.md, Rolling
 * deploys). A database that lacks one of this release's migrations but has others it does not know
 * is refused: it belongs to a different line of releases.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    if (!failed && MISSING_MIGRATION.test(describeError(error))) return runOnNewerSchema(db, migrator, error);
    throw new DatabaseError(
      `Database migration ${failed?.migrationName ?? ""} failed: ${describeError(error)}`.replace("  ", " "),
    );
  }
  for (const result of results ?? []) logger.info({ migration: result.migrationName }, "migration applied");
}

/** Kysely's words for a database holding a migration the release does not know. */
const MISSING_MIGRATION = /previously executed migration \S+ is missing/;

async function runOnNewerSchema(db: Kysely<Database>, migrator: Migrator, error: unknown): Promise<void> {
  const known = await migrator.getMigrations();
  const pending = known.filter((migration) => !migration.executedAt).map((migration) => migration.name);
  if (pending.length) {
    throw new DatabaseError(
      `Database migrations do not match this release: it has migrations this release does not know, and lacks ${pending.join(", ")} (${describeError(error)})`,
    );
  }
  const knownNames = new Set(known.map((migration) => migration.name));
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const newer = applied.rows.map((row) => row.name).filter((name) => !knownNames.has(name));
  logger.warn(
    { newerMigrations: newer.sort() },
    "the database is ahead of this release (a newer release migrated it); running on it as it is",
  );
}
