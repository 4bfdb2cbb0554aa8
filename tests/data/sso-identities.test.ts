import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { invite } from "~/features/auth/invitations.server";
import { admitSsoIdentity, SsoError, type SsoIdentity, type SsoPolicy } from "~/features/auth/sso.server";
import { createUser, findUserByEmail, setDisabled } from "~/features/auth/db/admin-users.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { findSsoIdentity, findUserSsoIdentity, linkSsoIdentity } from "~/features/auth/db/sso-identities.server";
import { engines } from "./support/engines";

// Single sign-on's admission on both engines: an account is tied to the provider's subject on its
// first sign-in with a verified email and found by that subject from then on, never by an email
// that may since have moved to someone else.

const ISSUER = "https://login.quorvant.example";
const policy: SsoPolicy = { allowedDomains: ["quorvant.com"], groupRoles: [{ group: "website-editors", role: "editor" }] };

const identity = (subject: string, email: string, extra: Partial<SsoIdentity> = {}): SsoIdentity => ({
  issuer: ISSUER,
  subject,
  email,
  emailVerified: true,
  groups: [],
  ...extra,
});

/** The problem an admission is refused with, or "admitted". */
async function outcome(admission: Promise<unknown>): Promise<string> {
  try {
    await admission;
    return "admitted";
  } catch (error) {
    if (error instanceof SsoError) return error.problem;
    throw error;
  }
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`single sign-on identities on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const admit = (who: SsoIdentity) => admitSsoIdentity(who, "192.0.2.1", policy);
    const auditCount = async (action: string) =>
      (await db.selectFrom("audit_log").select("id").where("action", "=", action).execute()).length;

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 2, SEED: "never" });
      db = getDb();
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    it("keeps one link per subject and one subject per account at an issuer", async () => {
      const ann = await createUser(db, { email: "ann@quorvant.com", roles: ["editor"] });
      const bob = await createUser(db, { email: "bob@quorvant.com", roles: ["editor"] });
      expect(await linkSsoIdentity(db, { issuer: ISSUER, subject: "s-ann", userId: ann.id, email: ann.email })).toBe(true);
      // The same subject for another account, another subject for the same account: both refused.
      expect(await linkSsoIdentity(db, { issuer: ISSUER, subject: "s-ann", userId: bob.id, email: bob.email })).toBe(false);
      expect(await linkSsoIdentity(db, { issuer: ISSUER, subject: "s-other", userId: ann.id, email: ann.email })).toBe(false);
      // Another issuer is another namespace of subjects.
      expect(await linkSsoIdentity(db, { issuer: "https://other.example", subject: "s-ann", userId: bob.id, email: bob.email })).toBe(
        true,
      );
      expect((await findSsoIdentity(db, ISSUER, "s-ann"))?.userId).toBe(ann.id);
      expect((await findUserSsoIdentity(db, ann.id, ISSUER))?.subject).toBe("s-ann");
      expect(await findUserSsoIdentity(db, bob.id, ISSUER)).toBeUndefined();
      // The database itself refuses a second row for the same subject, whatever code writes it.
      await expect(
        db
          .insertInto("admin_sso_identities")
          .values({ issuer: ISSUER, subject: "s-ann", user_id: bob.id, email: "x", created_at: new Date().toISOString() })
          .execute(),
      ).rejects.toThrow();
    });

    it("refuses an email the provider did not verify on every path, and stores nothing", async () => {
      await createUser(db, { email: "owner@quorvant.com", roles: ["owner"] });
      await invite(db, { email: "guest@partner.example", roles: ["legal"], invitedBy: null, ip: "command line" });
      for (const who of [
        identity("s-1", "owner@quorvant.com", { emailVerified: false }),
        identity("s-2", "guest@partner.example", { emailVerified: false }),
        identity("s-3", "new@quorvant.com", { emailVerified: false, groups: ["website-editors"] }),
      ]) {
        expect(await outcome(admit(who)), who.email).toBe("unverified");
      }
      expect(await db.selectFrom("admin_sso_identities").selectAll().execute()).toEqual([]);
      expect(await findUserByEmail(db, "new@quorvant.com")).toBeUndefined();
      expect(await findUserByEmail(db, "guest@partner.example")).toBeUndefined();
    });

    it("links an existing account on its first verified sign-in, then refuses another subject with its email", async () => {
      const owner = await createUser(db, { email: "owner@quorvant.com", roles: ["owner"] });
      const entered = await admit(identity("s-owner", "Owner@Quorvant.com"));
      expect(entered.id).toBe(owner.id);
      expect((await findSsoIdentity(db, ISSUER, "s-owner"))?.userId).toBe(owner.id);
      expect(await auditCount("user.sso-linked")).toBe(1);

      // Someone else at the provider who now carries the owner's address (verified or not) is not the owner.
      expect(await outcome(admit(identity("s-intruder", "owner@quorvant.com")))).toBe("linked-elsewhere");
      expect(await findSsoIdentity(db, ISSUER, "s-intruder")).toBeUndefined();
      expect(await auditCount("user.sso-linked")).toBe(1);
      // The owner's own subject still enters.
      expect((await admit(identity("s-owner", "owner@quorvant.com"))).id).toBe(owner.id);
    });

    it("finds a linked account by its subject: a new email enters the same account, even another's address", async () => {
      const ann = await createUser(db, { email: "ann@quorvant.com", roles: ["editor"] });
      const bob = await createUser(db, { email: "bob@quorvant.com", roles: ["owner"] });
      await admit(identity("s-ann", "ann@quorvant.com"));

      expect((await admit(identity("s-ann", "ann.lee@quorvant.com"))).id).toBe(ann.id);
      // Ann's address at the provider is now Bob's: she still enters as herself, never as Bob.
      const entered = await admit(identity("s-ann", "bob@quorvant.com"));
      expect(entered.id).toBe(ann.id);
      expect(entered.roles).toEqual(["editor"]);
      expect(await findUserSsoIdentity(db, bob.id, ISSUER)).toBeUndefined();

      // Ann disabled: refused, and still not Bob.
      await setDisabled(db, ann.id, true);
      expect(await outcome(admit(identity("s-ann", "bob@quorvant.com")))).toBe("disabled");
      expect(await findUserSsoIdentity(db, bob.id, ISSUER)).toBeUndefined();
    });

    it("links whom an invitation or the groups let in", async () => {
      await invite(db, { email: "guest@partner.example", roles: ["legal"], invitedBy: null, ip: "command line" });
      const guest = await admit(identity("s-guest", "guest@partner.example"));
      expect(guest.roles).toEqual(["legal"]);
      const member = await admit(identity("s-member", "member@quorvant.com", { groups: ["website-editors"] }));
      expect(member.roles).toEqual(["editor"]);
      expect(member.rolesSource).toBe("identity-provider");
      expect((await findSsoIdentity(db, ISSUER, "s-guest"))?.userId).toBe(guest.id);
      expect((await findSsoIdentity(db, ISSUER, "s-member"))?.userId).toBe(member.id);
      expect(await auditCount("user.sso-linked")).toBe(2);
    });

    it("keeps the owner role of the last active owner whose groups no longer give it", async () => {
      const ownerPolicy: SsoPolicy = { ...policy, groupRoles: [...policy.groupRoles, { group: "website-owners", role: "owner" }] };
      const first = await admitSsoIdentity(identity("s-own", "own@quorvant.com", { groups: ["website-owners"] }), "192.0.2.1", ownerPolicy);
      expect(first.roles).toEqual(["owner"]);
      // Moved to the editors' group at the provider: still the only owner, so the role stays.
      const again = await admitSsoIdentity(identity("s-own", "own@quorvant.com", { groups: ["website-editors"] }), "192.0.2.1", ownerPolicy);
      expect(again.roles).toEqual(["owner", "editor"]);
      expect((await findUserByEmail(db, "own@quorvant.com"))?.roles.slice().sort()).toEqual(["editor", "owner"]);
      // With another active owner, the groups decide again.
      await createUser(db, { email: "second@quorvant.com", roles: ["owner"] });
      const third = await admitSsoIdentity(identity("s-own", "own@quorvant.com", { groups: ["website-editors"] }), "192.0.2.1", ownerPolicy);
      expect(third.roles).toEqual(["editor"]);
    });

    it("reads the domain after the last @ and refuses addresses it cannot read", async () => {
      const groups = ["website-editors"];
      expect(await outcome(admit(identity("s-1", "a@quorvant.com@evil.example", { groups })))).toBe("invalid-email");
      expect(await outcome(admit(identity("s-2", '"a@quorvant.com"@evil.example', { groups })))).toBe("invalid-email");
      expect(await outcome(admit(identity("s-3", "a@quorv\u0430nt.com", { groups })))).toBe("not-allowed");
      expect(await db.selectFrom("admin_users").select("email").execute()).toEqual([]);

      const member = await admit(identity("s-4", "A@QUORVANT.COM.", { groups }));
      expect(member.email).toBe("a@quorvant.com");
      expect(member.roles).toEqual(["editor"]);
    });
  });
}
