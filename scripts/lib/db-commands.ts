import { parseArgs } from "node:util";
import { UsageError } from "./usage-error";

// `npm run db -- backup FILE [--overwrite]` and `npm run db -- restore FILE [--replace]`: the
// arguments, read strictly (anything else is a mistake named in one line, exit code 2).

export const DB_USAGE = "Usage: npm run db -- backup FILE [--overwrite] | restore FILE [--replace] (--help says more).";

export const DB_HELP = [
  "Usage: npm run db -- backup FILE [--overwrite]",
  "       npm run db -- restore FILE [--replace]",
  "backup   copies the database of DATABASE_URL, while the site runs, into FILE (SQLite: a database",
  "         file; PostgreSQL: a pg_dump custom-format archive), written under a temporary name and",
  "         renamed when complete. An existing FILE is refused unless --overwrite.",
  "restore  loads FILE into the database of DATABASE_URL, which must be empty (an SQLite file that",
  "         does not exist yet or holds no table; a PostgreSQL database without tables), then applies",
  "         the migrations this release adds. Refused: a backup of the other engine, or one made by",
  "         a newer release or a different line of releases.",
  "         --replace deletes everything the target database holds first, in the same step:",
  "         SQLite: the file (with its -wal and -shm files) is replaced by the backup, refused",
  "         while another process (a server) has it open;",
  "         PostgreSQL: every schema but public is dropped, and every table, view, sequence,",
  "         function, type and extension in public, with all their rows, in the transaction",
  "         that restores the backup (a failed restore leaves the database as it was).",
  "         Stop the servers on the target database first.",
].join("\n");

export type BackupArgs = { file: string; overwrite: boolean };
export type RestoreArgs = { file: string; replace: boolean };

function parse(argv: string[], flag: "overwrite" | "replace"): { file: string; flag: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { [flag]: { type: "boolean" } }, allowPositionals: true, strict: true });
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const mistake = unknown ? `Unknown option ${unknown}.` : (error as Error).message.split("\n")[0];
    throw new UsageError(`${mistake} ${DB_USAGE}`);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length) throw new UsageError(`Name one backup file. ${DB_USAGE}`);
  return { file, flag: parsed.values[flag] === true };
}

export function parseBackupArgs(argv: string[]): BackupArgs {
  const { file, flag } = parse(argv, "overwrite");
  return { file, overwrite: flag };
}

export function parseRestoreArgs(argv: string[]): RestoreArgs {
  const { file, flag } = parse(argv, "replace");
  return { file, replace: flag };
}
