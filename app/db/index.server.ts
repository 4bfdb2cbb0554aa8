import { sql, type Kysely } from "kysely";
import type pg from "pg";
import { logger } from "~/platform/logger.server";
import {
  DatabaseError,
  describeError,
  isDatabaseUnreachable,
  migrateToLatest,
  openDatabase,
  type OpenDatabase,
} from "~/db/connection.server";
import type { Dialect } from "~/db/normalize";
import type { Database } from "~/db/schema";

// The server's one database: opened, migrated and seeded at start, shared by every request,
// closed after the last one on shutdown.

let current: OpenDatabase | undefined;
let starting: Promise<void> | undefined;

/** Seeds empty content tables: the content feature's, handed in so that this layer imports no feature. */
export type Seeder = (db: Kysely<Database>) => Promise<void>;

/** Connects, migrates and (with SEED=auto) seeds empty content tables. Safe to call more than once. */
export function initDatabase(
  env: { DATABASE_URL: string; DATABASE_POOL_SIZE: number; SEED: "auto" | "never" },
  seed?: Seeder,
): Promise<void> {
  starting ??= (async () => {
    const opened = await openDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE);
    try {
      await migrateToLatest(opened.db, opened.dialect);
      if (env.SEED === "auto" && seed) await seed(opened.db);
    } catch (error) {
      await opened.db.destroy().catch(() => undefined);
      throw error instanceof DatabaseError
        ? error
        : new DatabaseError(`Database set-up failed at ${opened.location}: ${describeError(error)}`, { cause: error });
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

export type DatabaseState = "ok" | "unreachable" | "error";

/**
 * For /healthz: a round trip that touches the schema, not just the connection. "unreachable" when
 * the database could not be reached at all (down, restarting, network gone), "error" when it
 * answered wrongly.
 */
export async function checkDatabase(): Promise<DatabaseState> {
  try {
    await sql`select name from kysely_migration limit 1`.execute(getDb());
    return "ok";
  } catch (error) {
    logger.error({ err: error }, "database health check failed");
    return isDatabaseUnreachable(error) ? "unreachable" : "error";
  }
}

export async function closeDatabase(): Promise<void> {
  const closing = current;
  current = undefined;
  starting = undefined;
  await closing?.db.destroy();
}
