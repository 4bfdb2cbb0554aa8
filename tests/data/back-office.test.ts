import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { readAuditQuery } from "~/features/audit/audit-filter.server";
import {
  admitInvited,
  invite,
  InvitationUsedError,
  invitationTokenHash,
  LAST_OWNER_PROBLEM,
  LastOwnerError,
  lookUpInvitation,
} from "~/features/auth/invitations.server";
import { createSignedInSession, idleCutoff, readSession, sessionRecordId } from "~/features/auth/session.server";
import {
  deleteUserSessions,
  findLiveSession,
  insertSession,
  listUserSessions,
  saveSignInState,
  takeSignInState,
  touchSession,
} from "~/features/auth/db/admin-sessions.server";
import {
  countActiveWithRole,
  createInvitation,
  createUser,
  findUserByEmail,
  findUserById,
  listUsers,
  setDisabled,
  setRoles,
  type AdminUser,
} from "~/features/auth/db/admin-users.server";
import { sharedSecret } from "~/db/app-secrets.server";
import { appendAuditEntry, listAuditEntries, type AuditCursor, type AuditEntry, type AuditFilter } from "~/features/audit/db/audit-log.server";
import { openDatabase, type OpenDatabase } from "~/db/connection.server";
import { closeDatabase, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// The back office's tables on both engines: invitations used once, sessions that end when they
// should, an audit log nobody can rewrite, sign-in states used once, and secrets made once.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`back office data on ${engine.name}`, () => {
    let url: string;
    let opened: OpenDatabase;
    let db: Kysely<Database>;

    beforeEach(async () => {
      const fresh = await migratedDatabase(engine, 4);
      ({ url, db } = fresh);
      opened = fresh;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await closeDatabase();
      await engine.cleanup();
    });

    const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);
    /** What the invitation page does: look the link up, then admit its person in one transaction. */
    const accept = async (token: string) => {
      const found = await lookUpInvitation(db, token);
      if (found.status !== "open") throw new InvitationUsedError(found.status);
      return db.transaction().execute((trx) => admitInvited(trx, found.invitation, { ip: "192.0.2.1" }));
    };

    describe("invitations", () => {
      it("lets the invited person in once, with the invited roles, and refuses the link afterwards", async () => {
        const { link, invitation } = await invite(db, {
          email: "New.Person@Example.com",
          roles: ["editor", "legal", "editor"],
          invitedBy: null,
          ip: "command line",
        });
        const token = tokenOf(link);
        expect(token).toMatch(/^[0-9a-f]{64}$/);
        expect(invitation.email).toBe("new.person@example.com");
        expect(invitation.roles).toEqual(["editor", "legal"]);
        // Only the hash is kept: the link's token opens nothing a copy of the table could read.
        const stored = await db.selectFrom("admin_invitations").selectAll().execute();
        expect(stored).toHaveLength(1);
        expect(JSON.stringify(stored)).not.toContain(token);
        expect(stored[0]!.token_hash).toBe(invitationTokenHash(token));
        expect(await findUserByEmail(db, "new.person@example.com")).toBeUndefined();

        const user = await accept(token);
        expect(user.email).toBe("new.person@example.com");
        expect(user.roles).toEqual(["editor", "legal"]);
        expect(user.disabledAt).toBeNull();
        expect((await findUserByEmail(db, "NEW.PERSON@example.com"))?.id).toBe(user.id);

        expect(await lookUpInvitation(db, token)).toEqual({ status: "used" });
        await expect(accept(token)).rejects.toBeInstanceOf(InvitationUsedError);
        // The accepted invitation itself refuses a second admission, whatever the caller checked before.
        await expect(db.transaction().execute((trx) => admitInvited(trx, invitation, { ip: "192.0.2.2" }))).rejects.toThrow(
          InvitationUsedError,
        );
        expect(await listUsers(db)).toHaveLength(1);
        const log = await listAuditEntries(db, {}, { limit: 10 });
        expect(log.entries.map((entry) => entry.action)).toEqual(["invitation.accepted", "invitation.created"]);
      });

      it("admits exactly one of two acceptances racing for the same link", async () => {
        for (let round = 0; round < 5; round++) {
          const email = `racer${round}@example.com`;
          const { link, invitation } = await invite(db, { email, roles: ["sales"], invitedBy: null, ip: "command line" });
          const token = tokenOf(link);
          // Both have looked the link up and found it open; then both accept at once.
          expect((await lookUpInvitation(db, token)).status).toBe("open");
          const results = await Promise.allSettled(
            [1, 2, 3].map(() => db.transaction().execute((trx) => admitInvited(trx, invitation, { ip: "192.0.2.3" }))),
          );
          const admitted = results.filter((result) => result.status === "fulfilled");
          const refused = results.filter((result) => result.status === "rejected");
          expect(admitted).toHaveLength(1);
          expect(refused).toHaveLength(2);
          for (const result of refused) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(InvitationUsedError);
          const users = (await listUsers(db)).filter((user) => user.email === email);
          expect(users).toHaveLength(1);
          expect(users[0]!.roles).toEqual(["sales"]);
          const accepted = await listAuditEntries(db, { action: "invitation.accepted", actorId: users[0]!.id }, { limit: 10 });
          expect(accepted.entries).toHaveLength(1);
        }
      });

      it("refuses an expired invitation and creates nobody", async () => {
        const token = "e".repeat(64);
        const invitation = await createInvitation(db, {
          tokenHash: invitationTokenHash(token),
          email: "late@example.com",
          roles: ["owner"],
          createdBy: null,
          expiresAt: new Date(Date.now() - 1000),
        });
        expect(await lookUpInvitation(db, token)).toEqual({ status: "expired" });
        await expect(db.transaction().execute((trx) => admitInvited(trx, invitation, { ip: "192.0.2.4" }))).rejects.toThrow(
          InvitationUsedError,
        );
        expect(await findUserByEmail(db, "late@example.com")).toBeUndefined();
        expect((await listAuditEntries(db, { action: "invitation.accepted" }, { limit: 10 })).entries).toEqual([]);
        expect(await lookUpInvitation(db, "f".repeat(64))).toEqual({ status: "unknown" });
        expect(await lookUpInvitation(db, "not-a-token")).toEqual({ status: "unknown" });
      });

      it("gives an existing, disabled person the invitation's roles and enables them again", async () => {
        const existing = await createUser(db, { email: "back@example.com", roles: ["owner", "sales"] });
        await setDisabled(db, existing.id, true);
        const { link } = await invite(db, { email: "back@example.com", roles: ["recruiter"], invitedBy: null, ip: "command line" });
        const user = await accept(tokenOf(link));
        expect(user.id).toBe(existing.id);
        expect(user.roles).toEqual(["recruiter"]);
        expect(user.disabledAt).toBeNull();
      });

      it("never takes the owner role from the last active owner, neither when inviting nor when accepting", async () => {
        const owner = await createUser(db, { email: "last-owner@example.com", roles: ["owner"] });
        const invitations = () => db.selectFrom("admin_invitations").select("id").execute();
        await expect(
          invite(db, { email: "Last-Owner@example.com", roles: ["editor"], invitedBy: null, ip: "command line" }),
        ).rejects.toThrow(new LastOwnerError(LAST_OWNER_PROBLEM));
        expect(await invitations()).toEqual([]);
        expect((await findUserById(db, owner.id))!.roles).toEqual(["owner"]);

        // Made while someone else was an owner too, accepted once nobody else is: the owner role stays.
        const other = await createUser(db, { email: "other-owner@example.com", roles: ["owner"] });
        const { link } = await invite(db, { email: owner.email, roles: ["editor"], invitedBy: null, ip: "command line" });
        await setDisabled(db, other.id, true);
        const user = await accept(tokenOf(link));
        expect(user.id).toBe(owner.id);
        expect([...user.roles].sort()).toEqual(["editor", "owner"]);
        expect(await countActiveWithRole(db, "owner")).toBe(1);
        const [accepted] = (await listAuditEntries(db, { action: "invitation.accepted" }, { limit: 1 })).entries;
        expect(accepted!.details).toMatchObject({ roles: ["editor"], ownerKept: true });

        // With another active owner, the same invitation takes the role away as asked.
        await setDisabled(db, other.id, false);
        const again = await invite(db, { email: owner.email, roles: ["editor"], invitedBy: null, ip: "command line" });
        expect((await accept(tokenOf(again.link))).roles).toEqual(["editor"]);
      });
    });

    describe("sessions", () => {
      let user: AdminUser;
      const T0 = new Date("2025-05-01T08:00:00.000Z");
      const at = (ms: number) => new Date(T0.getTime() + ms);
      const live = (id: string, now: Date) => findLiveSession(db, id, now, idleCutoff(now));

      beforeEach(async () => {
        user = await createUser(db, { email: "owner@example.com", roles: ["owner"] });
      });

      const start = async (userId: string, token = randomUUID()) => {
        const id = sessionRecordId(token);
        await insertSession(db, {
          id,
          userId,
          authMethod: "passkey",
          csrfSecret: "csrf",
          ip: "192.0.2.9",
          userAgent: "test",
          expiresAt: at(12 * HOUR).toISOString(),
          data: { flash: "hello" },
          now: T0,
        });
        return id;
      };

      it("ends after 30 idle minutes, and touching keeps it alive", async () => {
        const id = await start(user.id);
        const found = await live(id, at(29 * MINUTE));
        expect(found).toMatchObject({
          id,
          userId: user.id,
          authMethod: "passkey",
          createdAt: T0.toISOString(),
          lastSeenAt: T0.toISOString(),
          authenticatedAt: T0.toISOString(),
          expiresAt: at(12 * HOUR).toISOString(),
          data: { flash: "hello" },
        });
        expect(await live(id, at(30 * MINUTE))).toBeUndefined();
        expect(await live(id, at(31 * MINUTE))).toBeUndefined();

        const other = await start(user.id);
        await touchSession(db, other, at(25 * MINUTE));
        expect((await live(other, at(50 * MINUTE)))?.lastSeenAt).toBe(at(25 * MINUTE).toISOString());
        expect(await live(other, at(56 * MINUTE))).toBeUndefined();
      });

      it("ends at its absolute expiry however recently it was used", async () => {
        const id = await start(user.id);
        for (let minutes = 20; minutes < 12 * 60; minutes += 20) await touchSession(db, id, at(minutes * MINUTE));
        await touchSession(db, id, at(12 * HOUR - MINUTE));
        expect(await live(id, at(12 * HOUR - 1))).toBeDefined();
        expect(await live(id, at(12 * HOUR))).toBeUndefined();
        // Touching after the end changes nothing: the expiry is fixed when the session is made.
        await touchSession(db, id, at(12 * HOUR + MINUTE));
        expect(await live(id, at(12 * HOUR + 2 * MINUTE))).toBeUndefined();
        expect(await listUserSessions(db, user.id, at(12 * HOUR + 2 * MINUTE), idleCutoff(at(12 * HOUR + 2 * MINUTE)))).toEqual([]);
      });

      it("ends every session of one person, and nobody else's", async () => {
        const other = await createUser(db, { email: "editor@example.com", roles: ["editor"] });
        const mine = [await start(user.id), await start(user.id), await start(user.id)];
        const theirs = await start(other.id);
        const now = at(MINUTE);
        expect(await listUserSessions(db, user.id, now, idleCutoff(now))).toHaveLength(3);

        await setDisabled(db, user.id, true);
        expect(await deleteUserSessions(db, user.id)).toBe(3);
        for (const id of mine) expect(await live(id, now)).toBeUndefined();
        expect(await listUserSessions(db, user.id, now, idleCutoff(now))).toEqual([]);
        expect(await live(theirs, now)).toBeDefined();
        expect(await deleteUserSessions(db, user.id)).toBe(0);
      });

      it("keeps only the hash of the cookie's token, through the real session store", async () => {
        await initDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2, SEED: "never" });
        try {
          const setCookie = await createSignedInSession({
            userId: user.id,
            authMethod: "sso",
            csrfSecret: "a-csrf-secret",
            ip: "192.0.2.10",
            userAgent: "Vitest",
          });
          const cookie = setCookie.split(";")[0]!;
          expect(setCookie).toMatch(/HttpOnly/i);
          expect(setCookie).toMatch(/SameSite=Lax/i);
          const session = await readSession(new Request("http://localhost:3000/admin", { headers: { Cookie: cookie } }));
          expect(session.get("userId")).toBe(user.id);
          const token = session.id;
          expect(token.length).toBeGreaterThanOrEqual(40);

          const rows = await db.selectFrom("admin_sessions").selectAll().execute();
          expect(rows).toHaveLength(1);
          expect(rows[0]!.id).toBe(sessionRecordId(token));
          expect(JSON.stringify(rows)).not.toContain(token);

          // Without its row, the same cookie opens nothing.
          expect(await deleteUserSessions(db, user.id)).toBe(1);
          const after = await readSession(new Request("http://localhost:3000/admin", { headers: { Cookie: cookie } }));
          expect(after.get("userId")).toBeUndefined();
        } finally {
          await closeDatabase();
        }
      });
    });

    describe("sign-in states", () => {
      it("gives a state back once, to one of several servers asking at the same moment", async () => {
        const payload = { challenge: "abc", redirectTo: "/admin/users" };
        for (let round = 0; round < 5; round++) {
          const id = randomUUID();
          await saveSignInState(db, { id, purpose: "passkey-authentication", payload, expiresAt: new Date(Date.now() + 5 * MINUTE) });
          const taken = await Promise.all(
            [1, 2, 3, 4].map(() => takeSignInState(db, id, "passkey-authentication", new Date())),
          );
          expect(taken.filter((value) => value !== undefined)).toEqual([payload]);
          expect(await takeSignInState(db, id, "passkey-authentication", new Date())).toBeUndefined();
        }
      });

      it("refuses an expired state or one of another purpose", async () => {
        const id = randomUUID();
        const expiresAt = new Date(Date.now() + 5 * MINUTE);
        await saveSignInState(db, { id, purpose: "sso", payload: { state: "s" }, expiresAt });
        expect(await takeSignInState(db, id, "passkey-registration", new Date())).toBeUndefined();
        expect(await takeSignInState(db, id, "sso", expiresAt)).toBeUndefined();
        // Once refused for expiry it is gone: an earlier clock cannot bring it back.
        expect(await takeSignInState(db, id, "sso", new Date())).toBeUndefined();

        const fresh = randomUUID();
        await saveSignInState(db, { id: fresh, purpose: "sso", payload: { state: "t" }, expiresAt });
        expect(await takeSignInState(db, fresh, "sso", new Date(expiresAt.getTime() - 1))).toEqual({ state: "t" });
      });
    });

    describe("audit log", () => {
      it("refuses UPDATE, DELETE (and on PostgreSQL TRUNCATE) in the database itself", async () => {
        await appendAuditEntry(db, { actorId: null, actorEmail: "", action: "sign-in.failed", ip: "192.0.2.20" });
        await expect(sql`update audit_log set action = 'sign-in'`.execute(db)).rejects.toThrow(/append-only/);
        await expect(db.updateTable("audit_log").set({ ip: "0.0.0.0" }).execute()).rejects.toThrow(/append-only/);
        await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
        await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
        if (opened.dialect === "postgres") await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
        const { entries } = await listAuditEntries(db, {}, { limit: 10 });
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({ action: "sign-in.failed", ip: "192.0.2.20", actorId: null, details: {} });
      });

      const actors = [randomUUID(), randomUUID()];
      const actions = ["sign-in", "user.roles-changed"];

      /** 30 entries on 4 distinct instants, so most of them share their created_at with others. */
      async function fill(): Promise<AuditEntry[]> {
        const times = ["2025-03-01T09:00:00.000Z", "2025-03-01T09:00:00.001Z", "2025-03-02T12:30:00.000Z", "2025-03-03T00:00:00.000Z"];
        for (let index = 0; index < 30; index++) {
          await db
            .insertInto("audit_log")
            .values({
              id: randomUUID(),
              created_at: times[index % 3 === 0 ? 0 : index % 4]!,
              actor_id: actors[index % 2]!,
              actor_email: `actor${index % 2}@example.com`,
              action: actions[index % 3 === 1 ? 1 : 0]!,
              target_type: "user",
              target_id: String(index),
              details: JSON.stringify({ index }),
              ip: "192.0.2.30",
            })
            .execute();
        }
        const { entries } = await listAuditEntries(db, {}, { limit: 100 });
        return entries;
      }

      async function allPages(filter: AuditFilter, limit: number) {
        const pages: AuditEntry[][] = [];
        let after: AuditCursor | undefined;
        do {
          const page = await listAuditEntries(db, filter, { after, limit });
          pages.push(page.entries);
          after = page.next;
        } while (after && pages.length < 100);
        return pages;
      }

      const newestFirst = (a: AuditEntry, b: AuditEntry) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

      it("lists newest first and pages through ties on created_at without overlap or gaps", async () => {
        const all = await fill();
        expect(all).toHaveLength(30);
        expect(all).toEqual([...all].sort(newestFirst));
        expect(all[0]!.details).toEqual({ index: expect.any(Number) });

        for (const limit of [1, 4, 7, 30]) {
          const pages = await allPages({}, limit);
          expect(pages.every((page) => page.length === limit || page === pages.at(-1))).toBe(true);
          expect(pages.flat().map((entry) => entry.id), `limit ${limit}`).toEqual(all.map((entry) => entry.id));
        }
        // A full last page says there is nothing after it.
        const exact = await listAuditEntries(db, {}, { limit: 30 });
        expect(exact.next).toBeUndefined();
        const short = await listAuditEntries(db, {}, { limit: 29 });
        expect(short.next).toEqual({ createdAt: all[28]!.createdAt, id: all[28]!.id });
      });

      it("filters by person, action and date range, pages included", async () => {
        const all = await fill();
        const expectFilter = async (filter: AuditFilter, keep: (entry: AuditEntry) => boolean) => {
          const expected = all.filter(keep).map((entry) => entry.id);
          expect(expected.length).toBeGreaterThan(0);
          expect(expected.length).toBeLessThan(all.length);
          expect((await allPages(filter, 3)).flat().map((entry) => entry.id), JSON.stringify(filter)).toEqual(expected);
        };
        await expectFilter({ actorId: actors[0] }, (entry) => entry.actorId === actors[0]);
        await expectFilter({ action: "user.roles-changed" }, (entry) => entry.action === "user.roles-changed");
        await expectFilter(
          { actorId: actors[1], action: "sign-in" },
          (entry) => entry.actorId === actors[1] && entry.action === "sign-in",
        );
        // Days as the page's filter reads them: from and to both included, in UTC.
        const day = (from: string, to: string) => readAuditQuery(new URL(`http://localhost/admin/audit?from=${from}&to=${to}`)).filter;
        await expectFilter(day("2025-03-01", "2025-03-01"), (entry) => entry.createdAt.startsWith("2025-03-01"));
        await expectFilter(day("2025-03-02", "2025-03-03"), (entry) => entry.createdAt >= "2025-03-02");
        await expectFilter(
          { from: "2025-03-01T09:00:00.001Z", until: "2025-03-03T00:00:00.000Z" },
          (entry) => entry.createdAt >= "2025-03-01T09:00:00.001Z" && entry.createdAt < "2025-03-03",
        );
        expect((await listAuditEntries(db, { actorId: randomUUID() }, { limit: 10 })).entries).toEqual([]);
      });
    });

    describe("app secrets", () => {
      it("makes a shared secret once and gives every server asking at the same moment the same value", async () => {
        const second = await openDatabase(url, 4);
        try {
          let made = 0;
          const make = () => `secret-${++made}-${randomUUID()}`;
          const values = await Promise.all([
            ...[1, 2, 3].map(() => sharedSecret(db, "session-cookie", make)),
            ...[1, 2, 3].map(() => sharedSecret(second.db, "session-cookie", make)),
          ]);
          expect(new Set(values).size).toBe(1);
          expect(values[0]).toMatch(/^secret-\d-/);
          expect(await sharedSecret(second.db, "session-cookie", () => "another")).toBe(values[0]);
          expect(await sharedSecret(db, "other-purpose", () => "another")).toBe("another");
          const rows = await db.selectFrom("app_secrets").select(["name", "value"]).orderBy("name").execute();
          expect(rows).toEqual([
            { name: "other-purpose", value: "another" },
            { name: "session-cookie", value: values[0] },
          ]);
        } finally {
          await second.db.destroy();
        }
      });
    });

    describe("people and roles", () => {
      it("replaces roles when they are set, and reports a disabled person as such", async () => {
        const user = await createUser(db, { email: " Mixed@Example.COM ", roles: ["editor", "sales"] });
        expect(user.email).toBe("mixed@example.com");
        expect(user.roles).toEqual(["editor", "sales"]);
        expect(user.rolesSource).toBe("back-office");

        await setRoles(db, user.id, ["legal", "legal", "recruiter"]);
        expect((await findUserById(db, user.id))?.roles).toEqual(["legal", "recruiter"]);
        await setRoles(db, user.id, []);
        expect((await findUserById(db, user.id))?.roles).toEqual([]);
        await setRoles(db, user.id, ["owner"]);
        expect(await countActiveWithRole(db, "owner")).toBe(1);

        await setDisabled(db, user.id, true);
        const disabled = await findUserById(db, user.id);
        expect(disabled?.disabledAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect((await listUsers(db))[0]?.disabledAt).toBe(disabled?.disabledAt);
        expect(await countActiveWithRole(db, "owner")).toBe(0);

        await setDisabled(db, user.id, false);
        expect((await findUserById(db, user.id))?.disabledAt).toBeNull();
        expect(await countActiveWithRole(db, "owner")).toBe(1);
      });

      it("removes a person's roles and sessions with them, but keeps the audit log's entries", async () => {
        const user = await createUser(db, { email: "gone@example.com", roles: ["owner"] });
        await insertSession(db, {
          id: sessionRecordId("t"),
          userId: user.id,
          authMethod: "passkey",
          csrfSecret: "c",
          ip: "",
          userAgent: "",
          expiresAt: new Date(Date.now() + HOUR).toISOString(),
          data: {},
          now: new Date(),
        });
        await appendAuditEntry(db, { actorId: user.id, actorEmail: user.email, action: "sign-in", ip: "192.0.2.40" });
        await db.deleteFrom("admin_users").where("id", "=", user.id).execute();
        expect(await db.selectFrom("admin_user_roles").selectAll().execute()).toEqual([]);
        expect(await db.selectFrom("admin_sessions").selectAll().execute()).toEqual([]);
        expect((await listAuditEntries(db, { actorId: user.id }, { limit: 10 })).entries).toHaveLength(1);
      });
    });
  });
}
