import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "./support/command-line";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { createUser, setLocales } from "~/features/auth/db/admin-users.server";
import { invitationLocales, parseInviteArgs } from "../../scripts/lib/invite-commands";
import { UsageError } from "../../scripts/lib/usage-error";

describe("inviting from the command line", () => {
  it("reads an invitation's arguments and refuses mistakes", () => {
    expect(parseInviteArgs(["ada@quorvant.com", "--role", "editor", "--locale", "de"])).toEqual({
      email: "ada@quorvant.com",
      roles: ["editor"],
      locales: ["de"],
    });
    expect(parseInviteArgs(["ada@quorvant.com", "--role", "owner"])).toMatchObject({ locales: [] });
    expect(() => parseInviteArgs(["ada@quorvant.com"])).toThrow(/Give at least one --role/);
    expect(() => parseInviteArgs(["ada", "--role", "editor"])).toThrow(/"ada" is not an email address/);
    expect(() => parseInviteArgs(["ada@quorvant.com", "--role", "god"])).toThrow(/Unknown role "god"/);
    expect(() => parseInviteArgs(["ada@quorvant.com", "--role", "editor", "--language", "de"])).toThrow(UsageError);
  });

  it("limits to the site's languages only, never an owner, and treats every language as no limit", () => {
    const args = (locales: string[], roles = ["editor"]) => ({ email: "ada@quorvant.com", roles, locales }) as never;
    expect(invitationLocales(args(["de"]), ["en", "de"])).toEqual(["de"]);
    expect(invitationLocales(args([]), ["en", "de"])).toEqual([]);
    expect(invitationLocales(args(["de", "en"]), ["en", "de"])).toEqual([]);
    expect(() => invitationLocales(args(["fr"]), ["en", "de"])).toThrow('Unknown language "fr": the site has en, de.');
    expect(() => invitationLocales(args(["de"], ["owner"]), ["en", "de"])).toThrow("Owners edit every language");
    expect(() => invitationLocales(args(["en"]), ["en"])).toThrow(/The site is in one language \(en\)/);
  });

  describe("against a database", () => {
    let dir: string;
    let file: string;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "admin-invite-"));
      file = path.join(dir, "site.db");
      const { db, dialect } = await openDatabase(`file:${file}`);
      await migrateToLatest(db, dialect);
      await db.destroy();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const cli = (...args: string[]) =>
      runScript("admin.ts", args, { DATABASE_URL: `file:${file}`, SITE_LOCALES: "en,de", SITE_URL: "http://localhost:3000" });
    const invitations = () => {
      const raw = new Database(file, { readonly: true });
      try {
        return raw.prepare("select email, roles, locales from admin_invitations order by created_at").all();
      } finally {
        raw.close();
      }
    };

    it("stores a translator's languages with the invitation, and refuses a wrong one with nothing stored", async () => {
      const refused = await cli("invite", "redaktion@quorvant.com", "--role", "editor", "--locale", "fr");
      expect(refused).toMatchObject({ code: 2, stdout: "", stderr: 'Unknown language "fr": the site has en, de.\n' });
      expect(invitations()).toEqual([]);

      const made = await cli("invite", "redaktion@quorvant.com", "--role", "editor", "--locale", "de");
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(
        /^Invitation for redaktion@quorvant\.com as Editor, for Deutsch only, single use, valid until /,
      );
      expect(made.stdout.trim().split("\n").at(-1)).toMatch(/^http:\/\/localhost:3000\/admin\/invitations\/[0-9a-f]{64}$/);
      expect(invitations()).toEqual([{ email: "redaktion@quorvant.com", roles: "editor", locales: "de" }]);
    });

    it("lists each person's languages: a limit's, else every language", async () => {
      const { db } = await openDatabase(`file:${file}`);
      try {
        const translator = await createUser(db, { email: "uebersetzung@quorvant.com", roles: ["editor"] });
        await setLocales(db, translator.id, ["de"]);
        await createUser(db, { email: "chef@quorvant.com", roles: ["owner"] });
      } finally {
        await db.destroy();
      }
      const listed = await cli("users");
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trim().split("\n");
      expect(lines.find((line) => line.startsWith("uebersetzung@quorvant.com"))).toMatch(/\tde only$/);
      expect(lines.find((line) => line.startsWith("chef@quorvant.com"))).toMatch(/\tevery language$/);
    });
  });
});
