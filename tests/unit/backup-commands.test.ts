import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareMigrationLevel, detectBackupKind, migrationRefusal } from "../../scripts/lib/backup-files";
import { parseBackupArgs, parseRestoreArgs } from "../../scripts/lib/db-commands";
import { pgConnection } from "../../scripts/lib/postgres-backup";
import { UsageError } from "../../scripts/lib/usage-error";

// `npm run db -- backup|restore`: the arguments, what kind of backup a file is, which migration
// levels restore takes, and the password of DATABASE_URL kept off command lines and messages.

const known = ["0001-a", "0002-b", "0003-c", "0004-d"];

describe("a backup's migration level against this release's", () => {
  it("is the same, older (a prefix, the rest applied after), or refused as newer or another line", () => {
    expect(compareMigrationLevel(known, known)).toEqual({ kind: "same" });
    expect(compareMigrationLevel(["0002-b", "0001-a"], known)).toEqual({
      kind: "older",
      latest: "0002-b",
      pending: ["0003-c", "0004-d"],
    });
    expect(compareMigrationLevel([...known, "0005-e"], known)).toEqual({ kind: "newer", unknown: ["0005-e"] });
    expect(compareMigrationLevel(["0001-a", "0002-b", "0003-x"], known)).toEqual({
      kind: "other-line",
      unknown: ["0003-x"],
      missing: ["0003-c", "0004-d"],
    });
    // A gap: a later migration applied without an earlier one.
    expect(compareMigrationLevel(["0001-a", "0003-c"], known)).toMatchObject({
      kind: "other-line",
      missing: ["0002-b", "0004-d"],
    });
    expect(compareMigrationLevel([], known)).toEqual({ kind: "none" });
  });

  it("refuses with a sentence naming the migrations", () => {
    expect(migrationRefusal("b.db", { kind: "newer", unknown: ["0005-e"] })?.message).toBe(
      "b.db was made by a newer release (it has migrations this release does not know: 0005-e): restore it with that release or a later one.",
    );
    expect(migrationRefusal("b.db", compareMigrationLevel(["0001-a", "0003-x"], known))?.message).toContain(
      "belongs to a different line of releases (unknown migrations: 0003-x; missing: 0002-b, 0003-c, 0004-d)",
    );
    expect(migrationRefusal("b.db", { kind: "none" })?.message).toContain("is not a backup of this site");
    expect(migrationRefusal("b.db", { kind: "older", latest: "0001-a", pending: ["0002-b"] })).toBeUndefined();
  });
});

describe("a backup file's kind", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "backup-kind-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: Buffer | string) => {
    const target = path.join(dir, name);
    writeFileSync(target, bytes);
    return target;
  };

  it("is read from its first bytes", () => {
    expect(detectBackupKind(file("a.db", Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(100)])))).toBe("sqlite");
    expect(detectBackupKind(file("a.dump", "PGDMP\x01\x0e\x00"))).toBe("postgres");
  });

  it("is a usage mistake for a missing file, a folder, or anything else", () => {
    expect(() => detectBackupKind(path.join(dir, "none"))).toThrow(
      new UsageError(`No file at ${path.join(dir, "none")}: name an existing backup.`),
    );
    expect(() => detectBackupKind(dir)).toThrow(UsageError);
    expect(() => detectBackupKind(file("notes.txt", "SQLite format 2"))).toThrow(
      /is not a backup: neither an SQLite database nor/,
    );
    expect(() => detectBackupKind(file("empty", ""))).toThrow(/is not a backup/);
  });
});

describe("the commands' arguments", () => {
  it("name one file, with --overwrite for backup and --replace for restore", () => {
    expect(parseBackupArgs(["x.db"])).toEqual({ file: "x.db", overwrite: false });
    expect(parseBackupArgs(["--overwrite", "x.db"])).toEqual({ file: "x.db", overwrite: true });
    expect(parseRestoreArgs(["x.dump", "--replace"])).toEqual({ file: "x.dump", replace: true });
    expect(() => parseBackupArgs([])).toThrow(/^Name one backup file\./);
    expect(() => parseRestoreArgs(["a", "b"])).toThrow(/^Name one backup file\./);
    expect(() => parseRestoreArgs(["a", "--overwrite"])).toThrow(
      new UsageError(
        "Unknown option --overwrite. Usage: npm run db -- backup FILE [--overwrite] | restore FILE [--replace] (--help says more).",
      ),
    );
    expect(() => parseBackupArgs(["a", "--replace"])).toThrow(UsageError);
  });
});

describe("a PostgreSQL DATABASE_URL for the client tools", () => {
  it("gives the password in PGPASSWORD only, and blanks it out of messages", () => {
    const connection = pgConnection("postgres://site:p%40ss%3Aw0rd@db.internal:6432/quorvant?sslmode=require");
    expect(connection.dbname).toBe("postgres://site@db.internal:6432/quorvant?sslmode=require");
    expect(connection.env.PGPASSWORD).toBe("p@ss:w0rd");
    expect(connection.location).toBe("db.internal:6432/quorvant");
    expect(connection.redact('FATAL: password "p@ss:w0rd" (p%40ss%3Aw0rd) refused')).toBe('FATAL: password "***" (***) refused');
    expect(pgConnection("postgres://site@db/quorvant").env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});
