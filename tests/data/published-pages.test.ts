import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { setContentChangeListener, type ContentChange } from "~/features/content/publish-hook.server";
import { findPublishedPage, publishPage, savePage } from "~/features/pages/page-documents.server";
import { findHeldPage, forgetHeldPages, publishedPagesWatchJob, WATCH_MS } from "~/features/pages/published-pages.server";
import type { Database } from "~/db/schema";
import type { Env } from "~/env.server";
import { engines } from "./support/engines";
import { ok, samplePage } from "./support/sample-page";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";

// The published pages each server holds in memory, on both engines: drawing a page asks the
// database nothing; a change made on this server shows at once; one made elsewhere (another
// server, or the database directly) shows within the watch's interval and is told to the page
// cache; a scheduled version shows by the clock; a database that fails after the first read leaves
// the pages last read being served.

const page = samplePage;

/** The same database, counting the queries made through it. */
function counted(db: Kysely<Database>) {
  const counter = { queries: 0, db: db as Kysely<Database> };
  counter.db = db.withPlugin({
    transformQuery: (args) => {
      counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return counter;
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the published pages in memory on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };
    const told: ContentChange[] = [];

    beforeEach(async () => {
      db = (await migratedDatabase(engine)).db;
      await withSeedPages(db);
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
      forgetHeldPages();
      told.length = 0;
      setContentChangeListener((change) => told.push(change));
    });
    afterEach(async () => {
      setContentChangeListener(undefined);
      forgetHeldPages();
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("answers as the database does, and asks it nothing while the copy is fresh", async () => {
      const counter = counted(db);
      const home = await findHeldPage(counter.db, "/");
      expect(home).toEqual(await findPublishedPage(db, "/"));
      expect(home!.title).toBe((await findPublishedPage(db, "/"))!.title);
      const afterFirst = counter.queries;
      expect(afterFirst).toBeGreaterThan(0);
      for (const path of ["/", "/products/sentinel", "/company/about", "/no/such/page"]) await findHeldPage(counter.db, path);
      expect(counter.queries).toBe(afterFirst);
      expect(await findHeldPage(db, "/no/such/page")).toBeUndefined();
    });

    it("shows a change made on this server at once, and a scheduled one by the clock", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      expect(await findHeldPage(db, "/solutions/financial-services")).toBeUndefined();
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      expect(await findHeldPage(db, "/solutions/financial-services")).toMatchObject({ id, title: "Financial services" });

      ok(await savePage(db, alice, { id, baseRevision: 1, page: page({ path: "/industries/finance", title: "Finance" }) }));
      const at = new Date(Date.now() + 60_000);
      ok(await publishPage(db, alice, { id, baseRevision: 2, at: at.toISOString() }));
      const before = new Date(at.getTime() - 1);
      expect(await findHeldPage(db, "/solutions/financial-services", before)).toMatchObject({ title: "Financial services" });
      expect(await findHeldPage(db, "/industries/finance", before)).toBeUndefined();
      expect(await findHeldPage(db, "/industries/finance", at)).toMatchObject({ title: "Finance", publishedAt: at.toISOString() });
      expect(await findHeldPage(db, "/solutions/financial-services", at)).toBeUndefined();
    });

    it("learns of a change made elsewhere within the watch's interval and tells the page cache", async () => {
      expect((await findHeldPage(db, "/company/about"))!.title).not.toBe("About us, edited elsewhere");
      // Another server (or an operator) publishes: nothing on this server announces it.
      const stored = await db
        .selectFrom("content_documents")
        .select(["id", "published", "revision"])
        .where("path", "=", "/company/about")
        .executeTakeFirstOrThrow();
      const published = JSON.parse(String(typeof stored.published === "string" ? stored.published : JSON.stringify(stored.published)));
      await db
        .updateTable("content_documents")
        .set({
          published: JSON.stringify({ ...published, title: "About us, edited elsewhere" }),
          published_at: new Date().toISOString(),
          revision: Number(stored.revision) + 1,
          updated_at: new Date().toISOString(),
        })
        .where("id", "=", stored.id)
        .execute();
      expect(told).toEqual([]);

      const watch = publishedPagesWatchJob.start({ env: {} as Env, getDb: () => db })!;
      try {
        // The watch reads it and tells the page cache, no visitor needed; then pages show it.
        await expect.poll(() => told.length, { interval: 20, timeout: 5_000 }).toBe(1);
        expect(told).toEqual([{ type: "page", id: stored.id, paths: ["/company/about"] }]);
        expect((await findHeldPage(db, "/company/about"))!.title).toBe("About us, edited elsewhere");
        // Unchanged pages are not announced again.
        await later(WATCH_MS * 2);
        expect(told).toHaveLength(1);
      } finally {
        await watch.stop();
      }
    });

    it("serves the pages last read while the database fails, and 503s only before any read", async () => {
      const about = await findHeldPage(db, "/company/about");
      await sql`alter table content_documents rename to content_documents_moved`.execute(db);
      try {
        const watch = publishedPagesWatchJob.start({ env: {} as Env, getDb: () => db })!;
        await later(WATCH_MS * 3);
        await watch.stop();
        // The copy is past its freshness, the read fails: the pages read before are served.
        expect(await findHeldPage(db, "/company/about")).toEqual(about);
        forgetHeldPages();
        await expect(findHeldPage(db, "/company/about")).rejects.toThrow();
      } finally {
        await sql`alter table content_documents_moved rename to content_documents`.execute(db);
      }
      expect(await findHeldPage(db, "/company/about")).toEqual(about);
    });
  });
}
