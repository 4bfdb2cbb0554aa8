import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Each engine hands a test file a fresh, empty database URL and takes it away afterwards.

export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export type Engine = {
  name: "sqlite" | "postgres";
  /** A URL to a brand-new empty database. */
  create: () => Promise<string>;
  /** Drops everything create() made. */
  cleanup: () => Promise<void>;
};

export function sqliteEngine(): Engine {
  const dirs: string[] = [];
  return {
    name: "sqlite",
    async create() {
      const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-data-"));
      dirs.push(dir);
      return `file:${path.join(dir, "site.db")}`;
    },
    async cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fresh databases on the PostgreSQL server of PG_URL (CREATE DATABASE / DROP DATABASE … WITH (FORCE)). */
export function postgresEngine(): Engine {
  const created: string[] = [];
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: "postgres",
    async create() {
      const name = `quorvant_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
      await admin((client) => client.query(`create database ${name}`));
      created.push(name);
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async cleanup() {
      const names = created.splice(0);
      if (names.length) await admin(async (client) => {
        for (const name of names) await client.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

/**
 * PostgreSQL is optional on a laptop and mandatory in CI: the reason it is skipped is printed,
 * and under CI=true an unreachable server fails the run instead.
 */
export async function postgresAvailability(): Promise<{ available: true } | { available: false; reason: string }> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { available: true };
  } catch (error) {
    const reason = `PostgreSQL at ${PG_URL} is unreachable (${(error as Error).message || (error as { code?: string }).code})`;
    if (process.env.CI === "true") throw new Error(`${reason}; CI=true requires it. Start PostgreSQL or set TEST_DATABASE_URL.`);
    console.warn(`Skipping the PostgreSQL half of the data tests: ${reason}. Set CI=true to make this a failure.`);
    return { available: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function engines(): Promise<{ engine: Engine; skip: boolean }[]> {
  const pgState = await postgresAvailability();
  return [
    { engine: sqliteEngine(), skip: false },
    { engine: postgresEngine(), skip: !pgState.available },
  ];
}
