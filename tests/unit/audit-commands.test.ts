import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "./support/command-line";
import { recordAudit } from "~/features/audit/audit.server";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { formatAuditReport, parseAuditArgs } from "../../scripts/lib/audit-commands";
import { UsageError } from "../../scripts/lib/usage-error";

describe("the audit command line", () => {
  it("reads its arguments and refuses mistakes", () => {
    expect(parseAuditArgs(["verify"])).toEqual({ command: "verify" });
    expect(() => parseAuditArgs([])).toThrow(UsageError);
    expect(() => parseAuditArgs(["repair"])).toThrow(/Unknown audit command "repair"/);
    expect(() => parseAuditArgs(["verify", "now"])).toThrow(/Unexpected argument "now"/);
    expect(() => parseAuditArgs(["verify", "--fix"])).toThrow(UsageError);
    const hash = "ab".repeat(32);
    expect(parseAuditArgs(["verify", "--head", `120:${hash.toUpperCase()}`])).toEqual({
      command: "verify",
      loggedHead: { seq: 120, hash },
    });
    for (const head of ["120", `0:${hash}`, `x:${hash}`, `12:${hash.slice(1)}`, ""]) {
      expect(() => parseAuditArgs(["verify", "--head", head]), head).toThrow(/--head must be SEQ:HASH/);
    }
  });

  it("says what verified, or names the first entry that does not", () => {
    const hash = "a".repeat(64);
    expect(formatAuditReport({ ok: true, entries: 12, head: { seq: 12, hash } })).toEqual({
      code: 0,
      line: `Audit log verified: 12 entries, head ${hash}`,
    });
    const broken = { id: "e1", createdAt: "2026-01-01T00:00:00.000Z", action: "lead.export", reason: "content hash mismatch: x" };
    expect(formatAuditReport({ ok: false, entries: 1, broken: { ...broken, seq: 2 } })).toEqual({
      code: 1,
      line: "Audit log does not verify at seq 2 (id e1, 2026-01-01T00:00:00.000Z, lead.export): content hash mismatch: x. 1 entry before it verified.",
    });
    expect(formatAuditReport({ ok: false, entries: 3, broken: { ...broken, seq: null } }).line).toMatch(
      /^Audit log does not verify at an entry outside the chain \(id e1,/,
    );
    expect(
      formatAuditReport({ ok: false, entries: 7, broken: { seq: 9, reason: "missing seq: the chain ends at seq 7" } }).line,
    ).toBe("Audit log does not verify at seq 9: missing seq: the chain ends at seq 7. 7 entries before it verified.");
  });
});

describe("npm run admin -- audit verify (against a real SQLite file)", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));
    file = path.join(dir, "site.db");
    const { db, dialect } = await openDatabase(`file:${file}`);
    await migrateToLatest(db, dialect);
    for (const reason of ["unknown passkey", "disabled", "unknown passkey"]) {
      await recordAudit(db, { actor: null, action: "sign-in.failed", details: { method: "passkey", reason }, ip: "192.0.2.5" });
    }
    await db.destroy();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (...args: string[]) => runScript("admin.ts", args, { DATABASE_URL: `file:${file}`, LOG_LEVEL: "info" });

  it("passes an untouched log and names the entry edited behind the application's back", async () => {
    const clean = await cli("audit", "verify");
    expect(clean).toMatchObject({ code: 0, stderr: "" });
    expect(clean.stdout).toMatch(/^Audit log verified: 3 entries, head [0-9a-f]{64}\n$/);

    const raw = new Database(file);
    const second = raw.prepare("select id, created_at from audit_log where seq = 2").get() as { id: string; created_at: string };
    raw.exec("drop trigger audit_log_no_update");
    raw
      .prepare("update audit_log set details = ? where seq = 2")
      .run(JSON.stringify({ method: "passkey", reason: "unknown passkey" }));
    raw.close();

    const tampered = await cli("audit", "verify");
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toBe("");
    expect(tampered.stderr).toBe(
      `Audit log does not verify at seq 2 (id ${second.id}, ${second.created_at}, sign-in.failed): content hash mismatch: the entry was changed after it was written. 1 entry before it verified.\n`,
    );

    expect((await cli("audit")).code).toBe(2);
  });
});
