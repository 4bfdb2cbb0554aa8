import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "./usage-error";

// What the backup commands share between the engines: what kind of backup a file is (by its first
// bytes), whether its migration level fits this release, and writing a file so that it appears
// whole or not at all.

/** The command refuses what it was asked for, given the state of things: one line, exit code 1. */
export class Refusal extends Error {
  override name = "Refusal";
}

export type BackupKind = "sqlite" | "postgres";

export const ENGINE_NAMES: Record<BackupKind, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const PGDUMP_MAGIC = Buffer.from("PGDMP", "latin1");

/** The engine a backup file was made from, by its magic; a missing file or any other file is a usage mistake. */
export function detectBackupKind(file: string): BackupKind {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    throw new UsageError(`No file at ${file}: name an existing backup.`);
  }
  if (!stats.isFile()) throw new UsageError(`${file} is not a file: name a backup file.`);
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  let read = 0;
  try {
    const fd = openSync(file, "r");
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new UsageError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  if (read === SQLITE_MAGIC.length && head.equals(SQLITE_MAGIC)) return "sqlite";
  if (read >= PGDUMP_MAGIC.length && head.subarray(0, PGDUMP_MAGIC.length).equals(PGDUMP_MAGIC)) return "postgres";
  throw new UsageError(
    `${file} is not a backup: neither an SQLite database nor a PostgreSQL custom-format dump (pg_dump --format=custom).`,
  );
}

/** The engine a DATABASE_URL names (the connection code refuses any other URL with its own sentence). */
export function engineOf(url: string): BackupKind | undefined {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgres";
  return undefined;
}

export type MigrationLevel =
  | { kind: "same" }
  | { kind: "older"; latest: string; pending: string[] }
  | { kind: "newer"; unknown: string[] }
  | { kind: "other-line"; unknown: string[]; missing: string[] }
  | { kind: "none" };

/**
 * How a backup's applied migrations (`backup`) stand to this release's (`known`, in the order they
 * run): the same, older (a prefix: the rest is applied after the restore), newer (all of these
 * and more), or another line of releases (some unknown and some missing, or a gap).
 */
export function compareMigrationLevel(backup: readonly string[], known: readonly string[]): MigrationLevel {
  if (backup.length === 0) return { kind: "none" };
  const applied = new Set(backup);
  const knownSet = new Set(known);
  const unknown = [...applied].filter((name) => !knownSet.has(name)).sort();
  const missing = known.filter((name) => !applied.has(name));
  if (unknown.length && missing.length) return { kind: "other-line", unknown, missing };
  if (unknown.length) return { kind: "newer", unknown };
  if (!missing.length) return { kind: "same" };
  const prefix = known.slice(0, known.length - missing.length);
  if (prefix.every((name) => applied.has(name))) return { kind: "older", latest: prefix[prefix.length - 1]!, pending: missing };
  return { kind: "other-line", unknown, missing };
}

/** The refusal for a backup this release cannot restore, or nothing when it can. */
export function migrationRefusal(file: string, level: MigrationLevel): Refusal | undefined {
  switch (level.kind) {
    case "none":
      return new Refusal(`${file} is not a backup of this site: it has no migration table (kysely_migration).`);
    case "newer":
      return new Refusal(
        `${file} was made by a newer release (it has migrations this release does not know: ${level.unknown.join(", ")}): restore it with that release or a later one.`,
      );
    case "other-line":
      return new Refusal(
        `${file} belongs to a different line of releases (unknown migrations: ${level.unknown.join(", ") || "none"}; missing: ${level.missing.join(", ")}): it cannot be restored by this release.`,
      );
    default:
      return undefined;
  }
}

/** A temporary name beside `file` (same folder, so the final rename stays on one file system). */
export function temporaryBeside(file: string, purpose: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${purpose}-${process.pid}`);
}

/** Flushes `file` and then moves it to `target` (replacing it), and flushes the folder's entry. */
export function publishFile(file: string, target: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(file, target);
  try {
    const dir = openSync(path.dirname(target), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // not every file system lets a folder be flushed; the rename is still atomic
  }
}

export function removeQuietly(file: string): void {
  rmSync(file, { force: true });
}

/** "1.2 MB" for a byte count. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Writes a backup under a temporary name beside `target` (`write` makes it there and returns its
 * migrations), then renames it into place, so a `target` that exists is whole; a failure removes
 * the partial file.
 */
export async function writeBackup(
  target: string,
  write: (partial: string) => Promise<string[]>,
): Promise<{ migrations: string[]; bytes: number }> {
  const partial = temporaryBeside(target, "partial");
  removeQuietly(partial);
  try {
    const migrations = await write(partial);
    const bytes = statSync(partial).size;
    publishFile(partial, target);
    return { migrations, bytes };
  } catch (error) {
    removeQuietly(partial);
    throw error;
  }
}
