import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { pageCardSource } from "~/features/pages/page-card.server";
import {
  findPublishedPage,
  findPublishedPageById,
  publishPage,
  savePage,
  unpublishPage,
} from "~/features/pages/page-documents.server";
import { cardVersion } from "~/features/social-cards/cards.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { ok, samplePage } from "./support/sample-page";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";

// A page's social card is found by the page's id, on both engines: what visitors see now (a
// scheduled version once its time has come), never a draft or an unpublished page; and the card's
// version follows what it draws.

const page = samplePage;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`a page's card by id on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };

    beforeEach(async () => {
      db = (await migratedDatabase(engine)).db;
      await withSeedPages(db);
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("finds a published page by its id as by its path, whatever the id's case", async () => {
      const home = (await findPublishedPage(db, "/"))!;
      expect(await findPublishedPageById(db, home.id)).toEqual(home);
      expect(await findPublishedPageById(db, home.id.toUpperCase())).toEqual(home);
    });

    it("finds nothing for a draft, an unpublished page, an unknown or a malformed id", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      expect(await findPublishedPageById(db, id)).toBeUndefined();
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      expect(await findPublishedPageById(db, id)).toMatchObject({ id, title: "Financial services" });
      ok(await unpublishPage(db, alice, id));
      expect(await findPublishedPageById(db, id)).toBeUndefined();
      expect(await findPublishedPageById(db, randomUUID())).toBeUndefined();
      for (const malformed of ["", "home", "not-a-uuid", `${randomUUID()}x`, "' or 1=1 --"])
        expect(await findPublishedPageById(db, malformed), malformed).toBeUndefined();
    });

    it("finds what visitors see: a scheduled version once its time has come, and its card is a new version then", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      ok(await savePage(db, alice, { id, baseRevision: 1, page: page({ title: "Finance, retitled" }) }));
      const at = new Date(Date.now() + 60_000);
      ok(await publishPage(db, alice, { id, baseRevision: 2, at: at.toISOString() }));

      const before = (await findPublishedPageById(db, id, new Date(at.getTime() - 1)))!;
      const after = (await findPublishedPageById(db, id, at))!;
      expect(before.title).toBe("Financial services");
      expect(after).toMatchObject({ id, title: "Finance, retitled", publishedAt: at.toISOString() });
      expect(cardVersion(pageCardSource(after))).not.toBe(cardVersion(pageCardSource(before)));

      // A scheduled page never published before has no card until its time.
      const { id: later } = ok(await savePage(db, alice, { baseRevision: 0, page: page({ path: "/industries/energy", title: "Energy" }) }));
      ok(await publishPage(db, alice, { id: later, baseRevision: 1, at: at.toISOString() }));
      expect(await findPublishedPageById(db, later, new Date(at.getTime() - 1))).toBeUndefined();
      expect(await findPublishedPageById(db, later, at)).toMatchObject({ title: "Energy" });
    });
  });
}
