import { execFile } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../../scripts/lib/built-server";

// A PostgreSQL cluster of the test's own (initdb in a temporary directory, on a private loopback
// port), which a test may stop and start under running servers without touching the machine's
// shared PostgreSQL. Debian's binaries live in /usr/lib/postgresql/<version>/bin.

const run = promisify(execFile);

export type PrivatePostgres = {
  /** The database the servers use: postgres://postgres@127.0.0.1:PORT/quorvant. */
  databaseUrl: string;
  /** `pg_ctl stop -m fast`: sessions are ended, new connections refused, until start(). */
  stop: () => Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start: () => Promise<void>;
  /** What the cluster logged, for failure messages. */
  log: () => string;
  /** Stops the cluster (immediately) and removes its files. */
  destroy: () => Promise<void>;
};

type Binaries = { bin: string; user?: { uid: number; gid: number } };

/**
 * Where initdb and pg_ctl are (the newest version installed) and, when the tests run as root
 * (which initdb refuses), the `postgres` account to run them as; or why there is no such cluster.
 */
export async function privatePostgresBinaries(): Promise<{ ok: true; binaries: Binaries } | { ok: false; reason: string }> {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => ["initdb", "pg_ctl", "postgres"].every((name) => existsSync(path.join(root, version, "bin", name))))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    return {
      ok: false,
      reason: `no PostgreSQL server binaries (initdb, pg_ctl) under ${root}/*/bin: apt-get install postgresql`,
    };
  }
  const bin = path.join(root, versions[0]!, "bin");
  if (process.getuid?.() !== 0) return { ok: true, binaries: { bin } };
  try {
    const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
    const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
    return { ok: true, binaries: { bin, user: { uid, gid } } };
  } catch {
    return { ok: false, reason: "the tests run as root, which initdb refuses, and there is no postgres account to run it as" };
  }
}

export async function startPrivatePostgres({ bin, user }: Binaries): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-postgres-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");
  const port = await freePort();
  const asOwner = { ...(user ?? {}), env: { ...process.env, LC_ALL: "C" }, cwd: dir, timeout: 60_000 };
  const pgCtl = (...args: string[]) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args], asOwner);

  let running = false;
  const destroy = async () => {
    if (running) await pgCtl("stop", "-m", "immediate", "-w").catch(() => undefined);
    running = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(
      path.join(bin, "initdb"),
      ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
      asOwner,
    );
    // Loopback and the private port only; no Unix socket (the shared cluster's directory is not ours).
    // No fsync: the cluster is thrown away, and it is only ever stopped cleanly while it matters.
    appendFileSync(
      path.join(data, "postgresql.conf"),
      `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nfsync = off\nmax_connections = 60\n`,
    );
    const start = async () => {
      await pgCtl("start", "-w", "-t", "60", "-l", logFile);
      running = true;
    };
    await start();
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      await admin.query("create database quorvant");
    } finally {
      await admin.end();
    }
    return {
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/quorvant`,
      start,
      stop: async () => {
        await pgCtl("stop", "-m", "fast", "-w", "-t", "60");
        running = false;
      },
      log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
      destroy,
    };
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
    await destroy();
    throw new Error(`the private PostgreSQL cluster did not start: ${String(error)}\n${log}`);
  }
}
