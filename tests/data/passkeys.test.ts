import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { csrfToken, newCsrfSecret } from "~/features/auth/csrf.server";
import { relyingParty } from "~/features/auth/passkeys.server";
import { createSignedInSession, readSession } from "~/features/auth/session.server";
import { createSignInLimits } from "~/features/auth/sign-in-limits.server";
import { addPasskey, createUser, listPasskeys, type AdminUser } from "~/features/auth/db/admin-users.server";
import { openDatabase, type OpenDatabase } from "~/db/connection.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { action as confirmAction } from "~/features/auth/routes/admin.passkeys.confirm";
import { action as registerAction } from "~/features/auth/routes/admin.passkeys.register";
import { action as signInAction } from "~/features/auth/routes/admin.passkeys.sign-in";
import { action as usersAction } from "~/features/auth/routes/admin.users";
import { engines } from "./support/engines";
import { softwareAuthenticator, type SoftwareAuthenticator } from "./support/software-authenticator";
import { signInRefusals, signIns } from "~/platform/metrics.server";

// The passkey endpoints as a browser posts to them, on both engines, with a software
// authenticator: confirming who is signed in is a ceremony of its own that only the signed-in
// person's passkeys can answer; adding a passkey needs a recent sign-in or confirmation; and
// sign-ins that fail to verify never lock the account they name.

const MINUTE = 60_000;

/** A route's action, called as the router calls it. */
type Action = (args: never) => Promise<unknown>;
type Answer = { status: number; body: Record<string, unknown>; cookie: string | null };
type Session = { cookie: string; csrf: string; recordId: string };

for (const [index, { engine, skip }] of (await engines()).entries()) {
  // The server's sign-in limits live as long as its modules: each engine's clients get their own addresses.
  const address = (host: number) => `10.${index}.0.${host}`;

  describe.skipIf(skip)(`passkey ceremonies on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let owner: AdminUser;
    let editor: AdminUser;
    let ownerKey: SoftwareAuthenticator;
    let editorKey: SoftwareAuthenticator;

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      owner = await createUser(db, { email: "owner@example.com", roles: ["owner"] });
      editor = await createUser(db, { email: "editor@example.com", roles: ["editor"] });
      ownerKey = await registeredKey(owner, "Owner's laptop");
      editorKey = await registeredKey(editor, "Editor's phone");
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(() => engine.cleanup());

    async function registeredKey(user: AdminUser, name: string) {
      const key = softwareAuthenticator(relyingParty());
      await addPasskey(db, {
        id: key.credentialId,
        userId: user.id,
        publicKey: key.publicKey,
        counter: 0,
        transports: ["internal"],
        deviceType: "singleDevice",
        backedUp: false,
        name,
      });
      return key;
    }

    async function post(action: Action, fields: Record<string, string>, from: { session?: Session; ip?: string } = {}) {
      const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: relyingParty().origin });
      if (from.session) headers.set("Cookie", from.session.cookie);
      const body = new URLSearchParams({ ...fields, ...(from.session ? { csrf: from.session.csrf } : {}) });
      const request = new Request(`${relyingParty().origin}/admin/passkeys`, { method: "POST", headers, body });
      const context = { clientIp: from.ip ?? address(1), requestId: randomUUID() } as AppLoadContext;
      const response = (await action({ request, context, params: {} } as never)) as Response;
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: response.headers.get("Set-Cookie") };
    }

    const options = (answer: Answer) => answer.body.options as { challenge: string; allowCredentials?: { id: string }[] };
    const verify = (action: Action, begun: Answer, response: unknown, from: { session?: Session; ip?: string } = {}) =>
      post(action, { step: "verify", stateId: String(begun.body.stateId), response: JSON.stringify(response) }, from);

    async function signedInSession(user: AdminUser, authenticatedMinutesAgo = 0): Promise<Session> {
      const secret = newCsrfSecret();
      const setCookie = await createSignedInSession({ userId: user.id, authMethod: "passkey", csrfSecret: secret, ip: address(1), userAgent: "Vitest" });
      const cookie = setCookie.split(";")[0]!;
      const { recordId } = (await readSession(new Request(relyingParty().origin, { headers: { Cookie: cookie } }))).data as { recordId: string };
      await db
        .updateTable("admin_sessions")
        .set({ authenticated_at: new Date(Date.now() - authenticatedMinutesAgo * MINUTE).toISOString() })
        .where("id", "=", recordId)
        .execute();
      return { cookie, csrf: csrfToken(secret), recordId };
    }

    const authenticatedAt = async (session: Session) =>
      String((await db.selectFrom("admin_sessions").select("authenticated_at").where("id", "=", session.recordId).executeTakeFirstOrThrow()).authenticated_at);

    const auditEntries = (action: string) =>
      db.selectFrom("audit_log").select(["actor_id", "details"]).where("action", "=", action).execute();

    describe("confirming who is signed in", () => {
      it("refuses another person's passkey answering a sign-in challenge, and the session stays unconfirmed", async () => {
        const session = await signedInSession(owner, 11);
        const before = await authenticatedAt(session);
        const signInOptions = await post(signInAction, { step: "options" });
        const assertion = editorKey.authenticate(options(signInOptions));

        const answer = await verify(confirmAction, signInOptions, assertion, { session });
        expect(answer.status).toBe(400);
        expect(await authenticatedAt(session)).toBe(before);
        expect(await auditEntries("reauthenticated")).toEqual([]);

        // Nor the owner's own passkey: a sign-in's challenge is not a confirmation's.
        const again = await post(signInAction, { step: "options" });
        expect((await verify(confirmAction, again, ownerKey.authenticate(options(again)), { session })).status).toBe(400);
        expect(await authenticatedAt(session)).toBe(before);
      });

      it("offers only the person's own passkeys, and refuses anyone else's even on the right challenge", async () => {
        const session = await signedInSession(owner, 11);
        const begun = await post(confirmAction, { step: "options" }, { session });
        expect(begun.status).toBe(200);
        expect(options(begun).allowCredentials?.map((credential) => credential.id)).toEqual([ownerKey.credentialId]);

        const answer = await verify(confirmAction, begun, editorKey.authenticate(options(begun)), { session });
        expect(answer).toMatchObject({ status: 400, body: { error: "This passkey is not one of yours." } });
        expect(await auditEntries("reauthenticated")).toEqual([]);
      });

      it("is bound to the session it was begun in, and its challenge signs nobody in", async () => {
        const session = await signedInSession(owner, 11);
        const otherSession = await signedInSession(owner, 11);

        const begun = await post(confirmAction, { step: "options" }, { session });
        const elsewhere = await verify(confirmAction, begun, ownerKey.authenticate(options(begun)), { session: otherSession });
        expect(elsewhere.status).toBe(400);

        const forSignIn = await post(confirmAction, { step: "options" }, { session });
        const signIn = await verify(signInAction, forSignIn, ownerKey.authenticate(options(forSignIn)), { ip: address(2) });
        expect(signIn.status).toBe(400);
        expect(signIn.cookie).toBeNull();
        expect(await auditEntries("reauthenticated")).toEqual([]);
      });

      it("accepts the person's own passkey once, marks the session fresh and names the passkey in the audit log", async () => {
        const session = await signedInSession(owner, 11);
        const before = await authenticatedAt(session);
        const begun = await post(confirmAction, { step: "options" }, { session });
        const assertion = ownerKey.authenticate(options(begun));

        const answer = await verify(confirmAction, begun, assertion, { session });
        expect(answer).toMatchObject({ status: 200, body: { redirectTo: "/admin" } });
        expect(Date.parse(await authenticatedAt(session))).toBeGreaterThan(Date.parse(before));
        const entries = await auditEntries("reauthenticated");
        expect(entries).toHaveLength(1);
        expect(entries[0]!.actor_id).toBe(owner.id);
        const details = typeof entries[0]!.details === "string" ? JSON.parse(entries[0]!.details) : entries[0]!.details;
        expect(details).toEqual({ method: "passkey", passkey: ownerKey.credentialId, name: "Owner's laptop" });

        // Used once: the same answer again is refused.
        expect((await verify(confirmAction, begun, assertion, { session })).status).toBe(400);
      });
    });

    describe("adding a passkey", () => {
      it("is refused by the server without a recent sign-in or confirmation, and works after confirming", async () => {
        const newKey = softwareAuthenticator(relyingParty());
        const session = await signedInSession(owner, 11);
        const refused = await post(registerAction, { step: "options" }, { session });
        expect(refused).toMatchObject({
          status: 403,
          body: { confirmTo: "/admin/confirm?redirectTo=%2Fadmin%2Faccount%23passkeys" },
        });

        // Options asked for within the ten minutes do not help once they are over.
        const fresh = await signedInSession(owner, 0);
        const begun = await post(registerAction, { step: "options" }, { session: fresh });
        expect(begun.status).toBe(200);
        await db.updateTable("admin_sessions").set({ authenticated_at: new Date(Date.now() - 11 * MINUTE).toISOString() }).where("id", "=", fresh.recordId).execute();
        const late = await verify(registerAction, begun, newKey.register(options(begun)), { session: fresh });
        expect(late.status).toBe(403);
        expect((await listPasskeys(db, owner.id)).map((passkey) => passkey.id)).toEqual([ownerKey.credentialId]);
        expect(await auditEntries("passkey.added")).toEqual([]);

        const confirming = await post(confirmAction, { step: "options" }, { session });
        expect((await verify(confirmAction, confirming, ownerKey.authenticate(options(confirming)), { session })).status).toBe(200);
        const allowed = await post(registerAction, { step: "options" }, { session });
        expect(allowed.status).toBe(200);
        const added = await verify(registerAction, allowed, newKey.register(options(allowed)), { session });
        expect(added).toMatchObject({ status: 200, body: { done: true } });
        expect((await listPasskeys(db, owner.id)).map((passkey) => passkey.id).sort()).toEqual(
          [ownerKey.credentialId, newKey.credentialId].sort(),
        );
        expect(await auditEntries("passkey.added")).toHaveLength(1);
      });
    });

    describe("inviting someone who has an account", () => {
      /** The People page's invite form as an owner's browser posts it: what the action returned or threw. */
      async function invitePerson(session: Session, email: string) {
        const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: relyingParty().origin, Cookie: session.cookie });
        const body = new URLSearchParams({ intent: "invite", email, roles: "editor", csrf: session.csrf });
        const request = new Request(`${relyingParty().origin}/admin/users`, { method: "POST", headers, body });
        const context = { clientIp: address(1), requestId: randomUUID() } as AppLoadContext;
        try {
          return await usersAction({ request, context, params: {} } as never);
        } catch (thrown) {
          return thrown;
        }
      }
      const openInvitations = async () => (await db.selectFrom("admin_invitations").select("email").execute()).map((row) => row.email);

      it("needs a recent confirmation, since its link adds a passkey to that account", async () => {
        const stale = await signedInSession(owner, 11);
        const refused = (await invitePerson(stale, editor.email)) as Response;
        expect(refused).toBeInstanceOf(Response);
        expect(refused.status).toBe(302);
        expect(refused.headers.get("Location")).toBe("/admin/confirm?redirectTo=%2Fadmin%2Fusers");
        expect(await openInvitations()).toEqual([]);

        // A newcomer has no sign-in to change: their invitation needs no confirmation.
        expect(await invitePerson(stale, "newcomer@example.com")).toMatchObject({ invited: { email: "newcomer@example.com", existing: false } });
        const fresh = await signedInSession(owner, 0);
        expect(await invitePerson(fresh, editor.email)).toMatchObject({ invited: { email: editor.email, existing: true } });
        expect((await openInvitations()).sort()).toEqual([editor.email, "newcomer@example.com"].sort());
      });
    });

    describe("signing in", () => {
      it("lets a person sign in after ten made-up signatures naming their passkey, and counts each by its outcome", async () => {
        const refusalsBefore = await counted(signInRefusals, { method: "passkey", reason: "passkey-rejected" });
        const signInsBefore = await counted(signIns, { method: "passkey" });
        const attacker = address(66);
        for (let attempt = 0; attempt < 10; attempt += 1) {
          const begun = await post(signInAction, { step: "options" }, { ip: attacker });
          // The editor's credential id, signed by a key that is not theirs.
          const forged = { ...(ownerKey.authenticate(options(begun)) as object), id: editorKey.credentialId, rawId: editorKey.credentialId };
          expect((await verify(signInAction, begun, forged, { ip: attacker })).status).toBe(400);
        }
        expect((await auditEntries("sign-in.failed")).length).toBe(10);

        const begun = await post(signInAction, { step: "options" }, { ip: address(7) });
        const answer = await verify(signInAction, begun, editorKey.authenticate(options(begun)), { ip: address(7) });
        expect(answer.status).toBe(200);
        expect(answer.cookie).toMatch(/^quorvant_admin=/);
        // What Prometheus reads: ten refusals by their reason, one sign-in.
        expect((await counted(signInRefusals, { method: "passkey", reason: "passkey-rejected" })) - refusalsBefore).toBe(10);
        expect((await counted(signIns, { method: "passkey" })) - signInsBefore).toBe(1);
      });
    });
  });

  describe.skipIf(skip)(`sign-in limits beside ${engine.name}`, () => {
    let opened: OpenDatabase;

    beforeEach(async () => {
      opened = await openDatabase(await engine.create(), 2);
    });
    afterEach(async () => {
      await opened.db.destroy();
    });

    const context = (clientIp: string) => ({ clientIp, requestId: "test-request" });

    it("counts every attempt against its address, and failures only against an account the attempt proved", async () => {
      const limits = createSignInLimits(() => ({ points: 3, pool: opened.pool }));
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await limits.allowAttempt(context("198.51.100.1"))).allowed).toBe(true);
      expect((await limits.allowAttempt(context("198.51.100.1"))).allowed).toBe(false);
      expect((await limits.allowAttempt(context("198.51.100.2"))).allowed).toBe(true);

      // Ten failures of someone the identity provider signed in lock that account, from every address.
      for (let attempt = 0; attempt < 10; attempt += 1) await limits.countVerifiedFailure(context("198.51.100.3"), "sso:someone@example.com");
      expect((await limits.allowAttempt(context("198.51.100.4"), "sso:someone@example.com")).allowed).toBe(false);
      expect((await limits.allowAttempt(context("198.51.100.5"), "sso:someone-else@example.com")).allowed).toBe(true);
      if (opened.pool) {
        const { rows } = await opened.pool.query<{ key: string }>("select key from admin_sign_in_limits order by key");
        expect(rows.map((row) => row.key)).toContain("sign-in-account:sso:someone@example.com");
      }
    });
  });
}

/** A counter's value for these labels in this process's metrics registry (0 before the first count). */
async function counted(metric: typeof signIns | typeof signInRefusals, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  const matches = (found: Record<string, unknown>) => Object.entries(labels).every(([name, wanted]) => found[name] === wanted);
  return values.find((value) => matches(value.labels))?.value ?? 0;
}
