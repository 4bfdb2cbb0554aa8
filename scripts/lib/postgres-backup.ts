import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { openDatabase } from "~/db/connection.server";
import { Refusal, writeBackup } from "./backup-files";
import type { TableRows } from "./sqlite-backup";

// Backups of a PostgreSQL database with PostgreSQL's own client tools: pg_dump's custom format
// (one consistent snapshot, taken while the servers keep writing), read back with pg_restore and
// loaded through psql in one transaction. The password of DATABASE_URL goes to the tools in
// PGPASSWORD, never on a command line (which every user of the machine can read), and is blanked
// out of anything they print.

export type PgConnection = {
  /** DATABASE_URL without its password, for the tools' --dbname. */
  dbname: string;
  env: NodeJS.ProcessEnv;
  /** Where the database is, for messages. */
  location: string;
  /** `text` with the password blanked out. */
  redact: (text: string) => string;
};

export function pgConnection(url: string): PgConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Refusal("DATABASE_URL is not a valid URL; expected postgres://user:password@host:5432/database.");
  }
  const rawPassword = parsed.password;
  let password = rawPassword;
  try {
    password = decodeURIComponent(rawPassword);
  } catch {
    // kept as written
  }
  parsed.password = "";
  const secrets = [rawPassword, password].filter((secret) => secret.length > 0);
  const env: NodeJS.ProcessEnv = { ...process.env, PGOPTIONS: "-c client_min_messages=warning" };
  if (password) env.PGPASSWORD = password;
  return {
    dbname: parsed.toString(),
    env,
    location: `${parsed.hostname || "localhost"}:${parsed.port || 5432}${parsed.pathname}`,
    redact: (text) => secrets.reduce((result, secret) => result.split(secret).join("***"), text),
  };
}

const INSTALL_HINT =
  "install PostgreSQL's client tools, of the server's major version or newer (Debian and Ubuntu: apt-get install postgresql-client)";

/** A PostgreSQL client program: on PATH, else in Debian's /usr/lib/postgresql/VERSION/bin (newest first). */
export function findPgTool(name: "pg_dump" | "pg_restore" | "psql"): string {
  const candidates = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  try {
    const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join("/usr/lib/postgresql", version, "bin")));
  } catch {
    // no Debian layout
  }
  for (const dir of candidates) {
    const file = path.join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  throw new Refusal(`${name} is not installed (not on PATH nor in /usr/lib/postgresql/*/bin): ${INSTALL_HINT}.`);
}

type ToolResult = { code: number; stdout: string; stderr: string };

function runTool(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** A tool's complaint as one line: its error and detail lines, the program's prefix dropped, the password blanked. */
function complaint(stderr: string, connection: PgConnection): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.replace(/^(pg_dump|pg_restore|psql):\s*/, "").trim())
    .filter((line) => line && !/^(warning|hint):/i.test(line));
  const text = connection.redact(lines.join(" ").replace(/\s+/g, " ")) || "no message";
  const versionHint = /version mismatch|unsupported version/i.test(text) ? `; ${INSTALL_HINT}` : "";
  return `${text}${versionHint}`;
}

export async function backupPostgres(url: string, target: string): Promise<{ migrations: string[]; bytes: number }> {
  const connection = pgConnection(url);
  const pgDump = findPgTool("pg_dump");
  return writeBackup(target, async (partial) => {
    const dump = await runTool(pgDump, ["--format=custom", `--file=${partial}`, `--dbname=${connection.dbname}`], connection.env);
    if (dump.code !== 0) throw new Error(`pg_dump of ${connection.location} failed: ${complaint(dump.stderr, connection)}`);
    return postgresBackupMigrations(partial);
  });
}

/** The migration names a dump holds: the data of its kysely_migration table, as pg_restore prints it. */
export async function postgresBackupMigrations(file: string): Promise<string[]> {
  const pgRestore = findPgTool("pg_restore");
  const noConnection = pgConnection("postgres://localhost/");
  const result = await runTool(pgRestore, ["--data-only", "--table=kysely_migration", "-f", "-", file], process.env);
  if (result.code !== 0) throw new Refusal(`pg_restore cannot read ${file}: ${complaint(result.stderr, noConnection)}`);
  const names: string[] = [];
  let inCopy = false;
  for (const line of result.stdout.split("\n")) {
    if (!inCopy) inCopy = /^COPY \S*kysely_migration\b/.test(line);
    else if (line === "\\.") inCopy = false;
    else if (line) names.push(line.split("\t")[0]!);
  }
  return names.sort();
}

export type PostgresContents = { tables: TableRows[]; otherObjects: number };

/** The tables (with row counts) and other objects in the target database: any of them make it not empty. */
export async function postgresTargetContents(url: string): Promise<PostgresContents> {
  const { db } = await openDatabase(url, 1);
  try {
    const tables = await sql<{ schema: string; name: string }>`
      select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and ${userSchema} order by 1, 2`.execute(db);
    const others = await sql<{ count: string }>`
      select (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where c.relkind in ('v', 'm', 'S', 'f') and ${userSchema})
           + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${userSchema})
           + (select count(*) from pg_extension where extname <> 'plpgsql')
           + (select count(*) from pg_namespace n where n.nspname <> 'public' and ${userSchema}) as count`.execute(db);
    const counted: TableRows[] = [];
    for (const { schema, name } of tables.rows) {
      const { rows } = await sql<{ rows: string }>`select count(*) as rows from ${sql.id(schema, name)}`.execute(db);
      counted.push({ table: schema === "public" ? name : `${schema}.${name}`, rows: Number(rows[0]!.rows) });
    }
    return { tables: counted, otherObjects: Number(others.rows[0]!.count) };
  } finally {
    await db.destroy();
  }
}

const userSchema = sql`n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

/**
 * What --replace runs before the backup's statements, in the same transaction: every schema but
 * public dropped, then every extension (but plpgsql), relation, routine and type in public.
 */
const EMPTY_DATABASE = String.raw`
DO $replace$
DECLARE r record;
BEGIN
  FOR r IN SELECT nspname FROM pg_namespace
           WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\_%' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', r.nspname);
  END LOOP;
  FOR r IN SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' LOOP
    EXECUTE format('DROP EXTENSION IF EXISTS %I CASCADE', r.extname);
  END LOOP;
  FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') LOOP
    EXECUTE format('DROP %s IF EXISTS public.%I CASCADE',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                     WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.relname);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public' LOOP
    EXECUTE format('DROP ROUTINE IF EXISTS %s CASCADE', r.signature);
  END LOOP;
  FOR r IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE n.nspname = 'public' AND t.typtype IN ('c', 'd', 'e', 'r')
             AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c') LOOP
    EXECUTE format('DROP TYPE IF EXISTS public.%I CASCADE', r.typname);
  END LOOP;
END $replace$;
`;

/**
 * Loads the dump into the database of `url` in one transaction: pg_restore writes the statements,
 * psql runs them between a BEGIN and a COMMIT this function sends only once pg_restore finished
 * well. Any failure ends psql's session before the COMMIT, so the database is left as it was.
 */
export async function restorePostgres(url: string, file: string, replace: boolean): Promise<void> {
  const connection = pgConnection(url);
  const pgRestore = findPgTool("pg_restore");
  const psql = findPgTool("psql");
  const loader = spawn(psql, ["-X", "-q", "-v", "ON_ERROR_STOP=1", `--dbname=${connection.dbname}`], {
    env: connection.env,
    stdio: ["pipe", "ignore", "pipe"],
  });
  const reader = spawn(pgRestore, ["--no-owner", "--no-privileges", "-f", "-", file], {
    env: connection.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let loaderErrors = "";
  let readerErrors = "";
  loader.stderr.on("data", (chunk) => (loaderErrors += chunk));
  reader.stderr.on("data", (chunk) => (readerErrors += chunk));
  // psql may stop reading early (ON_ERROR_STOP): its exit code says why, not the broken pipe.
  loader.stdin.on("error", () => undefined);
  const loaderExit = exitOf(loader);
  const readerExit = exitOf(reader);

  loader.stdin.write(`BEGIN;\n${replace ? EMPTY_DATABASE : ""}`);
  reader.stdout.pipe(loader.stdin, { end: false });
  const readerCode = await readerExit;
  if (readerCode === 0) loader.stdin.end("COMMIT;\n");
  else loader.stdin.end(); // no COMMIT: psql ends its session and the transaction is rolled back
  const loaderCode = await loaderExit;
  if (readerCode !== 0) throw new Error(`pg_restore could not read ${file}: ${complaint(readerErrors, connection)}`);
  if (loaderCode !== 0)
    throw new Error(
      `Loading the backup into ${connection.location} failed, nothing was changed: ${complaint(loaderErrors, connection)}`,
    );
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? 1));
  });
}
