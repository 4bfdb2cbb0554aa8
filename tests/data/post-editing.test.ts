import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { savePost, type SaveOutcome } from "~/features/blog/post-editor.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import {
  findRedirectedPost,
  listOldSlugs,
  listPostsForEditors,
  listRevisions,
  type PostFields,
} from "~/features/blog/db/post-editing.server";
import { findPublishedPost } from "~/features/blog/db/posts.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { addPost, postFields as fields } from "./support/fixtures";

// Posts saved from the back office on both engines: revisions numbered without gaps, a save based
// on an old revision refused (also when two arrive at once), old slugs that redirect without
// chains, one featured post, and the editors' list filters.

const alice = { id: "", email: "alice@quorvant.com" };
const bob = { id: "", email: "bob@quorvant.com" };

const ok = (outcome: SaveOutcome) => {
  if (!outcome.ok) throw new Error(`not saved: ${JSON.stringify(outcome)}`);
  return outcome;
};

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`post editing on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      for (const person of [alice, bob]) {
        person.id = randomUUID();
        await db.insertInto("admin_users").values({ id: person.id, email: person.email, created_at: new Date().toISOString() }).execute();
      }
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(async () => {
      await engine.cleanup?.();
    });

    const save = (id: string | undefined, baseRevision: number, values: PostFields, actor = alice) =>
      savePost({ id, baseRevision, fields: values, intent: "save", actor, ip: "127.0.0.1" });

    it("numbers revisions and refuses a save based on an older one, saying who changed what", async () => {
      const created = ok(await save(undefined, 0, fields()));
      expect(created.revision).toBe(1);
      ok(await save(created.id, 1, fields({ content: "Alice's text." }), alice));
      const refused = await save(created.id, 1, fields({ title: "Bob's title" }), bob);
      expect(refused).toMatchObject({ ok: false, conflict: { number: 2, authorEmail: alice.email } });
      if (refused.ok || !("conflict" in refused)) throw new Error("expected a conflict");
      expect(refused.conflict.changes.map((change) => change.label)).toEqual(["Body"]);
      expect((await findPublishedPost(db, "a-post"))!.title).toBe("A post");
      expect((await listRevisions(db, created.id)).map((revision) => [revision.number, revision.authorEmail])).toEqual([
        [2, alice.email],
        [1, alice.email],
      ]);
    });

    it("lets exactly one of two simultaneous saves of one revision through", async () => {
      const { id } = ok(await save(undefined, 0, fields()));
      const outcomes = await Promise.all([save(id, 1, fields({ title: "One" }), alice), save(id, 1, fields({ title: "Two" }), bob)]);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok && "conflict" in outcome)).toHaveLength(1);
      expect(await listRevisions(db, id)).toHaveLength(2);
    });

    it("keeps the state of an imported post as revision 1 on its first save", async () => {
      const imported = await addPost(db, { slug: "imported", title: "Imported", published_date: "2025-01-01T00:00:00.000Z" });
      const saved = ok(await save(imported.id, 0, fields({ slug: "imported", title: "Edited" })));
      expect(saved.revision).toBe(2);
      const revisions = await listRevisions(db, imported.id);
      expect(revisions.map((revision) => [revision.number, revision.authorEmail])).toEqual([
        [2, alice.email],
        [1, ""],
      ]);
    });

    it("redirects every old slug of a published post to its current one, and gives a slug back when reused", async () => {
      const { id } = ok(await save(undefined, 0, fields({ slug: "first" })));
      ok(await save(id, 1, fields({ slug: "second" })));
      ok(await save(id, 2, fields({ slug: "third" })));
      expect(await findRedirectedPost(db, "first")).toBe("third");
      expect(await findRedirectedPost(db, "second")).toBe("third");
      expect(await listOldSlugs(db, id)).toEqual(["first", "second"]);
      // Renamed back: the current slug is never also a redirect.
      ok(await save(id, 3, fields({ slug: "first" })));
      expect(await listOldSlugs(db, id)).toEqual(["second", "third"]);
      // Another post may take an old address: it is then that post's own.
      const other = ok(await save(undefined, 0, fields({ slug: "second", title: "Other" })));
      expect(await listOldSlugs(db, id)).toEqual(["third"]);
      expect((await findPublishedPost(db, "second"))!.id).toBe(other.id);
    });

    it("does not redirect a draft's old slug, nor to a post that is not public", async () => {
      const { id } = ok(await save(undefined, 0, fields({ slug: "draft-one", published: false })));
      ok(await save(id, 1, fields({ slug: "draft-two", published: false })));
      expect(await listOldSlugs(db, id)).toEqual([]);
      const live = ok(await save(undefined, 0, fields({ slug: "live-one" })));
      ok(await savePost({ id: live.id, baseRevision: 1, fields: fields({ slug: "live-two", published: false }), intent: "unpublish", actor: alice, ip: "x" }));
      expect(await findRedirectedPost(db, "live-one")).toBeUndefined();
    });

    it("features one post at a time and names the one it unfeatured", async () => {
      const first = ok(await save(undefined, 0, fields({ slug: "one", title: "One", featured: true })));
      expect(first.unfeatured).toEqual([]);
      const second = ok(await save(undefined, 0, fields({ slug: "two", title: "Two", featured: true })));
      expect(second.unfeatured).toEqual(["One"]);
      const featured = await db.selectFrom("blog_posts").select("slug").where("featured", "=", true).execute();
      expect(featured).toEqual([{ slug: "two" }]);
    });

    it("lists posts by state, category and title words (a % in the search is a plain character)", async () => {
      ok(await save(undefined, 0, fields({ slug: "live", title: "Live 100% post" })));
      ok(await save(undefined, 0, fields({ slug: "later", title: "Later", published_date: new Date(Date.now() + 3_600_000).toISOString() })));
      ok(await save(undefined, 0, fields({ slug: "draft", title: "Draft", published: false, category: "Company" })));
      const gone = ok(await save(undefined, 0, fields({ slug: "gone", title: "Gone" })));
      ok(await savePost({ id: gone.id, baseRevision: 1, fields: fields({ slug: "gone", title: "Gone", published: false }), intent: "unpublish", actor: alice, ip: "x" }));
      const slugs = async (filter: Parameters<typeof listPostsForEditors>[1]) => (await listPostsForEditors(db, filter)).map((post) => post.slug).sort();
      expect(await slugs({ state: "published" })).toEqual(["live"]);
      expect(await slugs({ state: "scheduled" })).toEqual(["later"]);
      expect(await slugs({ state: "draft" })).toEqual(["draft"]);
      expect(await slugs({ state: "unpublished" })).toEqual(["gone"]);
      expect(await slugs({ category: "Company" })).toEqual(["draft"]);
      expect(await slugs({ search: "100%" })).toEqual(["live"]);
      expect(await slugs({ search: "%" })).toEqual(["live"]);
      expect(await slugs({ search: "LATER" })).toEqual(["later"]);
    });

    it("writes an audit entry with every save, in the same transaction", async () => {
      const { id } = ok(await save(undefined, 0, fields()));
      ok(await save(id, 1, fields({ title: "Changed" })));
      // Both saves can fall within one millisecond: entries of the same instant are taken by action.
      const entries = await db
        .selectFrom("audit_log")
        .select(["action", "actor_email", "target_id"])
        .orderBy("created_at")
        .orderBy("action")
        .execute();
      expect(entries.map((entry) => [entry.action, entry.actor_email, entry.target_id])).toEqual([
        ["post.created", alice.email, id],
        ["post.saved", alice.email, id],
      ]);
    });
  });
}
