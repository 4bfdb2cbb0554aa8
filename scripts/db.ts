// Backups of the database named by DATABASE_URL, taken while the site runs, and their restore:
//   npm run db -- backup FILE [--overwrite]     a consistent copy (SQLite: online backup API; PostgreSQL: pg_dump -Fc)
//   npm run db -- restore FILE [--replace]      into an empty database, then migrated to this release
// `npm run db -- --help` says exactly what --replace deletes. Exit codes: 0 done; 1 refused or
// failed (one line saying why, nothing changed); 2 a mistake in the command line or a FILE that
// is no backup (one line, nothing done).
import "./lib/quiet-logs";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Kysely } from "kysely";
import { DatabaseError, migrateToLatest, openDatabase, sqlitePath } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import { recordAudit } from "~/features/audit/audit.server";
import type { Database } from "~/db/schema";
import { ConfigError, loadEnv } from "~/env.server";
import {
  compareMigrationLevel,
  detectBackupKind,
  engineOf,
  ENGINE_NAMES,
  formatSize,
  migrationRefusal,
  Refusal,
  type BackupKind,
} from "./lib/backup-files";
import { DB_HELP, DB_USAGE, parseBackupArgs, parseRestoreArgs } from "./lib/db-commands";
import {
  backupPostgres,
  pgConnection,
  postgresBackupMigrations,
  postgresTargetContents,
  restorePostgres,
} from "./lib/postgres-backup";
import {
  backupSqlite,
  refuseIfInUse,
  restoreSqlite,
  sqliteBackupMigrations,
  sqliteTargetTables,
  type TableRows,
} from "./lib/sqlite-backup";
import { UsageError } from "./lib/usage-error";

type Command = (argv: string[], url: string) => Promise<void>;

const commands: Record<string, Command> = {
  async backup(argv, url) {
    const { file, overwrite } = parseBackupArgs(argv);
    const engine = await engineNamed(url);
    const target = path.resolve(file);
    if (!existsSync(path.dirname(target)))
      throw new UsageError(`The folder ${path.dirname(target)} does not exist: create it first.`);
    if (existsSync(target) && statSync(target).isDirectory()) throw new UsageError(`${file} is a folder: name a file.`);
    if (engine === "sqlite" && target === sqlitePath(url))
      throw new UsageError(`${file} is the database itself: name another file.`);
    if (existsSync(target) && !overwrite) throw new Refusal(`${file} exists: name a new file, or add --overwrite to replace it.`);
    const started = performance.now();
    const { migrations, bytes } =
      engine === "sqlite" ? await backupSqlite(sqlitePath(url), target) : await backupPostgres(url, target);
    console.log(
      `Backed up the ${ENGINE_NAMES[engine]} database ${locationOf(engine, url)} to ${file} in ${seconds(started)} s: ${formatSize(bytes)}, ${migrations.length} migrations applied (the latest ${migrations.at(-1) ?? "none"}).`,
    );
  },

  async restore(argv, url) {
    const { file, replace } = parseRestoreArgs(argv);
    const kind = detectBackupKind(file);
    const engine = await engineNamed(url);
    const location = locationOf(engine, url);
    if (kind !== engine)
      throw new Refusal(
        `${file} is a backup of ${withArticle(kind)} database, and DATABASE_URL names ${withArticle(engine)} database: a backup is restored into the engine it was made from.`,
      );
    if (engine === "sqlite" && path.resolve(file) === sqlitePath(url))
      throw new UsageError(`${file} is the target database itself: name another DATABASE_URL.`);

    const known = Object.keys(await migrationProvider(engine).getMigrations());
    const applied = kind === "sqlite" ? sqliteBackupMigrations(file) : await postgresBackupMigrations(file);
    const level = compareMigrationLevel(applied, known);
    const refusal = migrationRefusal(file, level);
    if (refusal) throw refusal;

    const contents =
      engine === "sqlite" ? { tables: sqliteTargetTables(sqlitePath(url)), otherObjects: 0 } : await postgresTargetContents(url);
    const held = contents.tables.length > 0 || contents.otherObjects > 0;
    if (held && !replace)
      throw new Refusal(
        `The ${ENGINE_NAMES[engine]} database ${location} (DATABASE_URL) is not empty (${describeHeld(contents)}): restore into an empty database, or add --replace to delete everything in it first (npm run db -- --help).`,
      );

    if (engine === "sqlite" && held) refuseIfInUse(sqlitePath(url));
    const started = performance.now();
    if (engine === "sqlite") restoreSqlite(file, sqlitePath(url));
    else await restorePostgres(url, file, replace);
    const { db, dialect } = await openDatabase(url, 1);
    let summary: string;
    let images: number;
    let took: string;
    try {
      await migrateToLatest(db, dialect);
      // The log says the database went back in time: entries written after the backup began (and
      // any head recorded outside the database then) are not in this chain.
      await recordAudit(db, {
        actor: null,
        action: "database.restored",
        details: {
          backup: path.basename(file),
          replaced: held,
          migratedForward: level.kind === "older" ? level.pending : [],
        },
        ip: "command line",
      });
      took = seconds(started);
      ({ summary, images } = await describeContents(db));
    } finally {
      await db.destroy();
    }
    const replaced = held ? `, replacing what it held (${describeHeld(contents)})` : "";
    console.log(`Restored ${file} into the ${ENGINE_NAMES[engine]} database ${location}${replaced} in ${took} s.`);
    if (level.kind === "older")
      console.log(
        `The backup was made by an older release (its latest migration: ${level.latest}); migrated it forward: ${level.pending.join(", ")}.`,
      );
    console.log(`It holds ${summary}.`);
    console.log(
      `Uploaded images are kept in the database and came along (${count(images, "image")}); each server's media cache (MEDIA_CACHE_DIR) fills again on first request.${held ? " Restart the servers that use this database." : ""}`,
    );
  },
};

async function engineNamed(url: string): Promise<BackupKind> {
  const engine = engineOf(url);
  if (engine) return engine;
  await openDatabase(url); // refuses the URL with the sentence every command gives
  throw new DatabaseError(`DATABASE_URL names no database engine this release knows.`);
}

function locationOf(engine: BackupKind, url: string): string {
  return engine === "sqlite" ? sqlitePath(url) : pgConnection(url).location;
}

const withArticle = (engine: BackupKind) => (engine === "sqlite" ? "an SQLite" : "a PostgreSQL");

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(1);

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function describeHeld({ tables, otherObjects }: { tables: TableRows[]; otherObjects: number }): string {
  const rows = tables.reduce((sum, table) => sum + table.rows, 0);
  const fullest = [...tables]
    .filter((table) => table.rows > 0)
    .sort((a, b) => b.rows - a.rows)
    .slice(0, 3)
    .map((table) => `${table.table} ${table.rows.toLocaleString("en-US")}`);
  const parts = [`${count(tables.length, "table")}, ${count(rows, "row")}${fullest.length ? `: ${fullest.join(", ")}…` : ""}`];
  if (otherObjects) parts.push(count(otherObjects, "other object"));
  return parts.join(", ");
}

/** What an operator checks after a restore: the leads, the content, the people, the audit log. */
async function describeContents(db: Kysely<Database>): Promise<{ summary: string; images: number }> {
  const rows = async (table: keyof Database) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const leads = (await rows("sales_leads")) + (await rows("demo_requests")) + (await rows("career_applications"));
  const images = await rows("media");
  const summary = [
    count(leads, "lead"),
    count(await rows("blog_posts"), "post"),
    count(await rows("content_documents"), "page"),
    count(await rows("legal_documents"), "legal version"),
    count(images, "image"),
    count(await rows("admin_users"), "person", "people"),
    count(await rows("audit_log"), "audit entry", "audit entries"),
  ].join(", ");
  return { summary, images };
}

async function main([name, ...argv]: string[]): Promise<void> {
  if (name === undefined || name === "--help" || name === "-h" || argv.includes("--help") || argv.includes("-h")) {
    if (name === undefined) throw new UsageError(DB_USAGE);
    console.log(DB_HELP);
    return;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw new UsageError(`Unknown command "${name}". ${DB_USAGE}`);
  const env = loadEnv();
  await command(argv, env.DATABASE_URL);
}

/** Any message, with the password of a PostgreSQL DATABASE_URL blanked out. */
function redacted(message: string): string {
  const url = process.env.DATABASE_URL ?? "";
  try {
    return engineOf(url) === "postgres" ? pgConnection(url).redact(message) : message;
  } catch {
    return message; // a URL that does not parse: the connection code's message names no password
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      console.error(redacted(message));
      process.exit(2);
    }
    if (error instanceof Refusal || error instanceof DatabaseError || error instanceof ConfigError)
      console.error(redacted(message));
    else console.error(redacted(`The command failed: ${message}`));
    process.exit(1);
  },
);
