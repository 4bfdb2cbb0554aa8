import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { describeError } from "~/db/connection.server";
import { publishFile, Refusal, removeQuietly, temporaryBeside, writeBackup } from "./backup-files";
import { UsageError } from "./usage-error";

// Backups of the embedded database. The copy is taken through SQLite's online backup API in one
// step: that step reads one snapshot of the database, and in WAL mode the server keeps writing
// beside it. The copy is then turned into a self-contained file (rollback journal, no -wal to go
// with it), checked, and renamed into place.

/** Every page in one step: a copy made in several steps starts over whenever the server commits. */
const ALL_PAGES = 0x7fffffff;

export async function backupSqlite(sourcePath: string, target: string): Promise<{ migrations: string[]; bytes: number }> {
  if (!existsSync(sourcePath))
    throw new Refusal(`No SQLite database at ${sourcePath} (DATABASE_URL): there is nothing to back up.`);
  return writeBackup(target, async (partial) => {
    const source = openExisting(sourcePath, false);
    try {
      source.pragma("busy_timeout = 5000");
      await source.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    const copy = new SqliteDatabase(partial);
    try {
      copy.pragma("journal_mode = DELETE");
      const check = copy.pragma("quick_check", { simple: true });
      if (check !== "ok") throw new Error(`the copy failed SQLite's check (${String(check)})`);
      return migrationNames(copy);
    } finally {
      copy.close();
    }
  });
}

/** The migrations a backup file records, read without changing it. */
export function sqliteBackupMigrations(file: string): string[] {
  const backup = openExisting(file, true);
  try {
    return migrationNames(backup);
  } catch (error) {
    throw new UsageError(`${file} cannot be read as an SQLite database (${describeError(error)}).`);
  } finally {
    backup.close();
  }
}

export type TableRows = { table: string; rows: number };

/** The tables of the SQLite database at `file` with their row counts; none when there is no file yet. */
export function sqliteTargetTables(file: string): TableRows[] {
  if (!existsSync(file) || statSync(file).size === 0) return [];
  let target: SqliteDatabase.Database | undefined;
  try {
    target = openExisting(file, true);
    const tables = target
      .prepare("select name from sqlite_schema where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name")
      .pluck()
      .all() as string[];
    return tables.map((table) => ({
      table,
      rows: target!
        .prepare(`select count(*) from "${table.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number,
    }));
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(
      `The target ${file} (DATABASE_URL) cannot be read as an SQLite database (${describeError(error)}): point DATABASE_URL at a new file.`,
    );
  } finally {
    target?.close();
  }
}

/**
 * Refuses to replace an SQLite database another process has open (a server still running on it
 * would go on writing to the replaced file). Leaving WAL mode needs the only connection to the
 * file, which makes it the check; the restored file gets WAL back when it is opened.
 */
export function refuseIfInUse(file: string): void {
  if (!existsSync(file)) return;
  const target = openExisting(file, false);
  try {
    const mode = target.pragma("journal_mode = DELETE", { simple: true });
    if (mode !== "delete") throw new Error(`still ${String(mode)}`);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`Another process has ${file} open (${describeError(error)}): stop the servers that use it, then restore.`);
  } finally {
    target.close();
  }
}

/**
 * Puts the backup in place of the SQLite database at `target` (which the caller found empty, or
 * was told to replace): a copy under a temporary name beside it, the old -wal and -shm removed (a
 * leftover log would be replayed into the new file), then the rename.
 */
export function restoreSqlite(backupFile: string, target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const restoring = temporaryBeside(target, "restoring");
  try {
    copyFileSync(backupFile, restoring);
    removeQuietly(`${target}-wal`);
    removeQuietly(`${target}-shm`);
    publishFile(restoring, target);
  } catch (error) {
    removeQuietly(restoring);
    throw error;
  }
}

function openExisting(file: string, readonly: boolean): SqliteDatabase.Database {
  try {
    return new SqliteDatabase(file, { readonly, fileMustExist: true });
  } catch (error) {
    throw new Refusal(`Cannot open the SQLite database ${file} (${describeError(error)}).`);
  }
}

function migrationNames(db: SqliteDatabase.Database): string[] {
  const hasTable = db.prepare("select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'").get();
  if (!hasTable) return [];
  return db.prepare("select name from kysely_migration order by name").pluck().all() as string[];
}
