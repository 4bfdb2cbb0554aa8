import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { findMenuRow } from "~/features/navigation/db/navigation.server";
import { defaultNavigation } from "~/features/navigation/navigation";
import {
  defaultDraft,
  defaultNavigationOf,
  forgetNavigation,
  menuEditorViews,
  publicNavigation,
  saveMenu,
  type Editor,
} from "~/features/navigation/navigation.server";
import { countPublishedPosts, findPublishedPost, listPublishedPosts } from "~/features/blog/db/posts.server";
import { isLiveSitePath } from "~/features/site/site-paths.server";
import type { SiteLocale } from "~/features/i18n/site-locales";
import { engines } from "./support/engines";
import { addPost } from "./support/fixtures";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";

// The menus and the blog in each language, on both engines: German menus are rows of their own
// (de:header…) whose defaults are the English menus in German at the German addresses, English
// rows and defaults untouched; a German post is on the German blog only, at its address there.

const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };
const de: SiteLocale = { tag: "de", prefix: "/de" };

const germanPost = (db: Kysely<Database>, slug: string) =>
  addPost(db, { slug, title: "KI-Governance", published_date: "2025-03-05T10:00:00.000Z" }).then(async (row) => {
    await db.updateTable("blog_posts").set({ locale: "de" }).where("id", "=", row.id).execute();
    return row;
  });

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`menus and posts per language on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
      await withSeedPages(db);
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    it("gives German menus German defaults at the German addresses, English ones unchanged", async () => {
      const german = defaultNavigationOf(de);
      expect(german.header.map((group) => group.label)).toEqual(["Produkte", "Ressourcen", "Unternehmen"]);
      expect(german.header[2]!.links).toEqual([
        { label: "Über uns", to: "/de/unternehmen/ueber-uns" },
        { label: "Karriere", to: "/de/unternehmen/karriere" },
        { label: "Marke", to: "/de/marke" },
        { label: "Charta", to: "/de/gemeinschaft/charta" },
      ]);
      expect(german["footer-links"]).toEqual([
        { label: "Datenschutz", to: "/de/rechtliches/datenschutzerklaerung" },
        { label: "Bedingungen", to: "/de/rechtliches/nutzungsbedingungen" },
      ]);
      // The same group ids: the footer's headings and the mobile menu are named by them.
      expect(german.footer.map((group) => group.id)).toEqual(defaultNavigation.footer.map((group) => group.id));
      expect(defaultNavigationOf({ tag: "en", prefix: "" })).toBe(defaultNavigation);
      const views = await menuEditorViews(db, de);
      expect(views.map((view) => [view.menu, view.revision, view.isDefault])).toEqual([
        ["header", 0, true],
        ["footer", 0, true],
        ["footer-links", 0, true],
      ]);
      expect(views[0]!.draft[0]!.links).toEqual([{ label: "Sentinel", to: "/de/produkte/sentinel" }]);
    });

    it("saves a German menu under its own key and audits it with its language; English stays as it was", async () => {
      const draft = defaultDraft("footer-links", de);
      draft[0]!.links = [{ label: "Status", to: "https://status.quorvant.com" }];
      expect(await saveMenu(db, editor, { menu: "footer-links", revision: 0, draft, locale: de })).toEqual({
        ok: true,
        changed: true,
        revision: 1,
      });
      expect(await findMenuRow(db, "de:footer-links")).toMatchObject({ revision: 1, items: [{ label: "Status", to: "https://status.quorvant.com" }] });
      expect(await findMenuRow(db, "footer-links")).toBeUndefined();
      expect((await menuEditorViews(db)).map((view) => view.revision)).toEqual([0, 0, 0]);
      expect((await menuEditorViews(db, de)).map((view) => view.revision)).toEqual([0, 0, 1]);
      const audit = await db.selectFrom("audit_log").select(["action", "target_id", "details"]).execute();
      expect(audit.map((row) => ({ ...row, details: typeof row.details === "string" ? JSON.parse(row.details) : row.details }))).toEqual([
        {
          action: "navigation.saved",
          target_id: "de:footer-links",
          details: expect.objectContaining({ menu: "footer-links", locale: "de", revision: 1 }),
        },
      ]);
      // The English menu saved at revision 0 is its own: no conflict with the German one.
      expect((await saveMenu(db, editor, { menu: "footer-links", revision: 0, draft })).ok).toBe(true);
    });

    it("checks a German menu's links against the German site: a German post is live at its German address only", async () => {
      await germanPost(db, "ki-governance");
      expect(await isLiveSitePath(db, "/de/ressourcen/blog/ki-governance")).toBe(true);
      expect(await isLiveSitePath(db, "/resources/blog/ki-governance")).toBe(false);
      expect(await isLiveSitePath(db, "/de/ressourcen/blog/gibt-es-nicht")).toBe(false);
      // (The German defaults link to German pages the sample content brings: none here.)
      const draft = [
        {
          id: "resources",
          label: "Ressourcen",
          links: [
            { label: "Blog", to: "/de/ressourcen/blog" },
            { label: "Beitrag", to: "/de/ressourcen/blog/ki-governance" },
          ],
        },
      ];
      expect((await saveMenu(db, editor, { menu: "header", revision: 0, draft, locale: de })).ok).toBe(true);
      // A German page that is not published yet is refused next to its field.
      draft[0]!.links = [{ label: "Über uns", to: "/de/unternehmen/ueber-uns" }];
      expect(await saveMenu(db, editor, { menu: "header", revision: 1, draft, locale: de })).toMatchObject({
        ok: false,
        errors: { "group-0-link-0-to": expect.stringMatching(/No page of this site/) },
      });
    });

    it("lists each language's posts on its own blog only", async () => {
      const english = await addPost(db, { slug: "ai-governance", title: "AI governance", published_date: "2025-03-04T10:00:00.000Z" });
      const german = await germanPost(db, "ki-governance");
      expect((await listPublishedPosts(db, { limit: 10 })).map((post) => post.id)).toEqual([english.id]);
      expect((await listPublishedPosts(db, { limit: 10, locale: "de" })).map((post) => [post.id, post.locale])).toEqual([[german.id, "de"]]);
      expect(await countPublishedPosts(db, { locale: "de" })).toBe(1);
      expect(await findPublishedPost(db, "ki-governance")).toBeUndefined();
      expect((await findPublishedPost(db, "ki-governance", "de"))?.id).toBe(german.id);
    });
  });

  describe.skipIf(skip)(`the German menus pages draw, on ${engine.name}`, () => {
    afterAll(async () => {
      await closeDatabase();
      await engine.cleanup();
    });

    it("are the German defaults until saved, then the saved ones; English pages still carry none", async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 2, SEED: "never" });
      const db = getDb();
      await withSeedPages(db);
      forgetNavigation();
      expect(await publicNavigation(de)).toEqual(defaultNavigationOf(de));
      const draft = defaultDraft("footer-links", de);
      draft[0]!.links = [{ label: "Status", to: "https://status.quorvant.com" }];
      expect((await saveMenu(db, editor, { menu: "footer-links", revision: 0, draft, locale: de })).ok).toBe(true);
      expect((await publicNavigation(de))?.["footer-links"]).toEqual([{ label: "Status", to: "https://status.quorvant.com" }]);
      expect(await publicNavigation()).toBeUndefined();
    });
  });
}
