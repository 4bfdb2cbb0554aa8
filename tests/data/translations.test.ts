import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { findDocument } from "~/features/content/documents.server";
import { translatePage, translatePost, translationContext, translationStates } from "~/features/content/translations.server";
import { publishPage, savePage } from "~/features/pages/page-documents.server";
import { savePost } from "~/features/blog/post-editor.server";
import { findPostForEditor, type PostFields } from "~/features/blog/db/post-editing.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { PageSnapshot } from "~/features/content/content-types";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { ok, samplePage } from "./support/sample-page";

// Translations of pages and posts on both engines: a document's language follows its address, a
// translation made from an English source is a draft that names it and its revision, its status
// is Missing, Current or Outdated as the source changes, saving it may bring it up to date, and a
// translation may not leave its language's prefix.

const LOCALES = ["en", "de"];

const postFields = (overrides: Partial<PostFields> = {}): PostFields => ({
  title: "Model risk in 2026",
  slug: "model-risk-2026",
  excerpt: "What changes",
  content: "Body text.",
  category: "Research",
  author: "Ada",
  published_date: "2025-06-01T00:00:00.000Z",
  read_time: 1,
  read_time_manual: false,
  image_url: null,
  featured: false,
  published: true,
  ...overrides,
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`translations on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(() => engine.cleanup());

    const actions = async () =>
      (await db.selectFrom("audit_log").select(["action", "target_id"]).orderBy("seq").execute()).map((entry) => entry.action);

    it("gives a page the language of its address, on create, save and move", async () => {
      const english = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage() }));
      expect((await findDocument(db, english.id))!.locale).toBe("en");
      const german = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path: "/de/loesungen/banken" }) }));
      expect((await findDocument(db, german.id))!.locale).toBe("de");
      const home = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path: "/de" }) }));
      expect((await findDocument(db, home.id))!.locale).toBe("de");
      // "/design" only begins with the letters of a prefix: English.
      const design = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path: "/design" }) }));
      expect((await findDocument(db, design.id))!.locale).toBe("en");
      ok(await savePage(db, alice, { id: english.id, baseRevision: 1, page: samplePage({ path: "/de/finanzen" }) }));
      expect((await findDocument(db, english.id))!.locale).toBe("de");
      ok(await publishPage(db, alice, { id: english.id, baseRevision: 2 }));
      expect((await findDocument(db, english.id))!.locale).toBe("de");
    });

    it("translates an English page into a draft that names its source, and follows its status", async () => {
      const source = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage() }));
      ok(await publishPage(db, alice, { id: source.id, baseRevision: 1 }));
      expect((await translationStates(db, "page", [source.id], LOCALES)).get(source.id)).toEqual([
        { locale: "de", language: "Deutsch", status: "missing" },
      ]);

      const made = await translatePage(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES });
      if (!made.ok) throw new Error(JSON.stringify(made));
      const translation = (await findDocument<PageSnapshot>(db, made.id))!;
      expect(translation).toMatchObject({
        type: "page",
        path: "/de/solutions/financial-services",
        locale: "de",
        translationOf: source.id,
        sourceRevision: 1,
        storedState: "draft",
      });
      expect(translation.draft.blocks).toEqual((await findDocument<PageSnapshot>(db, source.id))!.draft.blocks);
      expect(await actions()).toContain("page.translation-created");
      // One translation per language.
      expect(await translatePage(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES })).toMatchObject({ ok: false });
      // Not into a language the site is not published in, nor from a translation.
      expect(await translatePage(db, alice, { sourceId: source.id, locale: "fr", locales: LOCALES })).toMatchObject({ ok: false });
      expect(await translatePage(db, alice, { sourceId: made.id, locale: "de", locales: LOCALES })).toMatchObject({ ok: false });

      const status = async () => (await translationStates(db, "page", [source.id], LOCALES)).get(source.id)![0]!;
      expect(await status()).toMatchObject({ status: "current", translation: { id: made.id, state: "draft", sourceRevision: 1 } });

      // The German page translated and published; then the English one changes.
      const german = samplePage({ path: "/de/solutions/financial-services", title: "Finanzdienstleister" });
      ok(await savePage(db, alice, { id: made.id, baseRevision: 1, page: german }));
      ok(await publishPage(db, alice, { id: made.id, baseRevision: 2 }));
      ok(await savePage(db, alice, { id: source.id, baseRevision: 1, page: samplePage({ title: "Banks and insurers" }) }));
      expect(await status()).toMatchObject({ status: "outdated", translation: { state: "published", sourceRevision: 1 } });

      const context = (await translationContext(db, "page", (await findDocument(db, made.id))!))!;
      expect(context).toMatchObject({ language: "Deutsch", outdated: true, sourceRevision: 1, source: { id: source.id, revision: 2 } });
      expect(context.changes.map((change) => change.field)).toEqual(["title"]);

      // A save that is not marked up to date leaves it outdated; one that is, brings it up to date (audited).
      ok(await savePage(db, alice, { id: made.id, baseRevision: 2, page: { ...german, description: "KI für Banken" } }));
      expect(await status()).toMatchObject({ status: "outdated" });
      ok(
        await savePage(db, alice, {
          id: made.id,
          baseRevision: 3,
          page: { ...german, title: "Banken und Versicherer" },
          translation: { sourceRevision: 2 },
        }),
      );
      expect(await status()).toMatchObject({ status: "current", translation: { sourceRevision: 2 } });
      expect((await translationContext(db, "page", (await findDocument(db, made.id))!))!).toMatchObject({ outdated: false, changes: [] });
      expect(await actions()).toContain("page.translation-updated");
    });

    it("refuses a translation whose address leaves its language, and saves nothing", async () => {
      const source = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage() }));
      const made = await translatePage(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES });
      if (!made.ok) throw new Error(JSON.stringify(made));
      const refused = await savePage(db, alice, { id: made.id, baseRevision: 1, page: samplePage({ path: "/solutions/banken" }) });
      expect(refused).toEqual({
        ok: false,
        errors: { path: "Path must begin with /de/: this is the Deutsch translation of an English page." },
      });
      const stored = (await findDocument(db, made.id))!;
      expect(stored).toMatchObject({ revision: 1, path: "/de/solutions/financial-services", locale: "de" });
      // Within its language it may move.
      ok(await savePage(db, alice, { id: made.id, baseRevision: 1, page: samplePage({ path: "/de/loesungen/finanzen" }) }));
      // Nor may its English source leave English while it has translations.
      expect(await savePage(db, alice, { id: source.id, baseRevision: 1, page: samplePage({ path: "/de/finanzen" }) })).toEqual({
        ok: false,
        errors: { path: "Path must stay outside the other languages' prefixes: this page has translations." },
      });
    });

    it("refuses to publish a translation whose blocks fail their schema", async () => {
      const source = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage() }));
      const made = await translatePage(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES });
      if (!made.ok) throw new Error(JSON.stringify(made));
      const broken = samplePage({ path: "/de/solutions/financial-services", blocks: [{ type: "hero", title: "" }] });
      expect(await savePage(db, alice, { id: made.id, baseRevision: 1, page: broken })).toMatchObject({ ok: false, errors: {} });
      // A draft stored broken (by a tool outside the editor) is still refused by publishing.
      await db
        .updateTable("content_documents")
        .set({ draft: JSON.stringify(broken) })
        .where("id", "=", made.id)
        .execute();
      const published = await publishPage(db, alice, { id: made.id, baseRevision: 1 });
      expect(published.ok).toBe(false);
      expect((await findDocument(db, made.id))!.storedState).toBe("draft");
    });

    it("translates an English post into a draft with its own slug, and follows its status", async () => {
      const source = await savePost({ id: undefined, baseRevision: 0, fields: postFields(), intent: "publish", actor: alice.actor, ip: alice.ip });
      if (!source.ok) throw new Error(JSON.stringify(source));
      expect((await findPostForEditor(db, source.id))!.locale).toBe("en");
      expect((await translationStates(db, "post", [source.id], LOCALES)).get(source.id)![0]).toMatchObject({ status: "missing" });

      const made = await translatePost(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES });
      if (!made.ok) throw new Error(JSON.stringify(made));
      expect(await findPostForEditor(db, made.id)).toMatchObject({
        slug: "model-risk-2026-de",
        title: "Model risk in 2026",
        locale: "de",
        translation_of: source.id,
        source_revision: 1,
        published: false,
        featured: false,
      });
      expect(await actions()).toContain("post.translation-created");
      expect(await translatePost(db, alice, { sourceId: source.id, locale: "de", locales: LOCALES })).toMatchObject({ ok: false });
      const status = async () => (await translationStates(db, "post", [source.id], LOCALES)).get(source.id)![0]!;
      expect(await status()).toMatchObject({ status: "current", translation: { id: made.id, state: "draft" } });

      // An edit never changes a post's language.
      const german = postFields({ title: "Modellrisiko 2026", slug: "modellrisiko-2026", published: false });
      ok(await savePost({ id: made.id, baseRevision: 1, fields: german, intent: "save", actor: alice.actor, ip: alice.ip }));
      expect((await findPostForEditor(db, made.id))!.locale).toBe("de");

      ok(await savePost({ id: source.id, baseRevision: 1, fields: postFields({ excerpt: "What changes now" }), intent: "save", actor: alice.actor, ip: alice.ip }));
      expect(await status()).toMatchObject({ status: "outdated" });
      const context = (await translationContext(db, "post", { locale: "de", translationOf: source.id, sourceRevision: 1 }))!;
      expect(context.changes.map((change) => change.field)).toEqual(["excerpt"]);

      ok(
        await savePost({
          id: made.id,
          baseRevision: 2,
          fields: { ...german, excerpt: "Was sich jetzt ändert" },
          intent: "save",
          translation: { sourceRevision: 2 },
          actor: alice.actor,
          ip: alice.ip,
        }),
      );
      expect(await status()).toMatchObject({ status: "current", translation: { sourceRevision: 2 } });
      expect(await actions()).toContain("post.translation-updated");
    });

    it("counts a post from the content files, never edited here, as revision 0", async () => {
      const id = randomUUID();
      await db
        .insertInto("blog_posts")
        .values({ id, slug: "imported", title: "Imported", excerpt: "E", content: "Body", category: "Research", author: "Ada", read_time: 1, published_date: "2025-01-01T00:00:00.000Z", published: true, featured: false })
        .execute();
      const made = await translatePost(db, alice, { sourceId: id, locale: "de", locales: LOCALES });
      if (!made.ok) throw new Error(JSON.stringify(made));
      expect(await findPostForEditor(db, made.id)).toMatchObject({ slug: "imported-de", source_revision: 0, content: "Body" });
      const status = async () => (await translationStates(db, "post", [id], LOCALES)).get(id)![0]!.status;
      expect(await status()).toBe("current");
      ok(await savePost({ id, baseRevision: 0, fields: postFields({ slug: "imported", title: "Imported, edited" }), intent: "save", actor: alice.actor, ip: alice.ip }));
      expect(await status()).toBe("outdated");
      const context = (await translationContext(db, "post", { locale: "de", translationOf: id, sourceRevision: 0 }))!;
      expect(context.changes.map((change) => change.field)).toContain("title");
    });
  });
}
