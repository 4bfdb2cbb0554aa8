import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { findMenuRow } from "~/features/navigation/db/navigation.server";
import { draftOf, type MenuDraft } from "~/features/navigation/menu-form";
import { defaultNavigation, type MenuKey } from "~/features/navigation/navigation";
import {
  defaultDraft,
  forgetNavigation,
  menuEditorViews,
  publicNavigation,
  saveMenu,
  type Editor,
} from "~/features/navigation/navigation.server";
import { isLiveSitePath, PATH_OWNERS } from "~/features/site/site-paths.server";
import { engines } from "./support/engines";
import { addPost, sleep } from "./support/fixtures";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";

// The menus edited in the back office, on both engines: a fresh database is the code's navigation;
// a save is checked, stored with its revision and audited; a save based on an older revision and
// every bad field are refused with nothing written (menu rows and audit log alike).

const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };

/** The default footer with "About Us" renamed, moved below Careers, and an outside link added. */
function editedFooter(): MenuDraft {
  const draft = defaultDraft("footer");
  const company = draft.find((group) => group.id === "company")!;
  company.links[0]!.label = "About";
  company.links.splice(0, 2, company.links[1]!, company.links[0]!);
  company.links.push({ label: "Status", to: "https://status.quorvant.com" });
  return draft;
}

/** The default menu with one link of its first group changed. */
function withLink(menu: MenuKey, link: { label?: string; to?: string }): MenuDraft {
  const draft = defaultDraft(menu);
  draft[0]!.links[0] = { ...draft[0]!.links[0]!, ...link };
  return draft;
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`navigation on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
      // The site's pages are content: a fresh site has the seed's.
      await withSeedPages(db);
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    const rows = () => db.selectFrom("navigation_menus").selectAll().execute();
    const audit = async () =>
      (await db.selectFrom("audit_log").select(["action", "actor_email", "target_type", "target_id", "details", "ip"]).execute()).map(
        (row) => ({ ...row, details: typeof row.details === "string" ? JSON.parse(row.details) : row.details }),
      );

    it("starts as the code's navigation: no rows, every menu its default at revision 0", async () => {
      expect(await rows()).toEqual([]);
      const views = await menuEditorViews(db);
      expect(views.map((view) => [view.menu, view.revision, view.isDefault])).toEqual([
        ["header", 0, true],
        ["footer", 0, true],
        ["footer-links", 0, true],
      ]);
      expect(views[1]!.draft).toEqual(draftOf("footer", defaultNavigation.footer));
      expect(views[2]!.draft).toEqual([{ id: "", label: "", links: defaultNavigation["footer-links"] }]);
    });

    it("saves a menu with its revision and one audit entry saying what changed", async () => {
      const saved = await saveMenu(db, editor, { menu: "footer", revision: 0, draft: editedFooter() });
      expect(saved).toEqual({ ok: true, changed: true, revision: 1 });
      const row = await findMenuRow(db, "footer");
      expect(row).toMatchObject({ revision: 1, updatedBy: "lena@quorvant.com" });
      const company = (row!.items as { id: string; links: unknown[] }[]).find((group) => group.id === "company");
      expect(company!.links).toEqual([
        { label: "Careers", to: "/company/careers" },
        { label: "About", to: "/company/about" },
        { label: "Brand", to: "/company/brand" },
        { label: "Charter", to: "/company/charter" },
        { label: "Status", to: "https://status.quorvant.com" },
      ]);
      expect(await audit()).toEqual([
        {
          action: "navigation.saved",
          actor_email: "lena@quorvant.com",
          target_type: "navigation_menu",
          target_id: "footer",
          ip: "203.0.113.5",
          details: {
            menu: "footer",
            revision: 1,
            added: ["Company › About → /company/about", "Company › Status → https://status.quorvant.com"],
            removed: ["Company › About Us → /company/about"],
            reordered: true,
          },
        },
      ]);
      // The other menus are untouched; saving the same again changes nothing and audits nothing.
      expect((await menuEditorViews(db)).map((view) => view.revision)).toEqual([0, 1, 0]);
      expect(await saveMenu(db, editor, { menu: "footer", revision: 1, draft: editedFooter() })).toEqual({
        ok: true,
        changed: false,
        revision: 1,
      });
      expect(await audit()).toHaveLength(1);
      // A further save moves it on.
      const again = editedFooter();
      again.pop();
      expect(await saveMenu(db, editor, { menu: "footer", revision: 1, draft: again })).toMatchObject({ ok: true, revision: 2 });
    });

    it("refuses a save based on an older revision, writing nothing", async () => {
      expect((await saveMenu(db, editor, { menu: "footer", revision: 0, draft: editedFooter() })).ok).toBe(true);
      const before = await rows();
      // Someone opened the default menu (revision 0) before that save.
      const stale = await saveMenu(db, editor, { menu: "footer", revision: 0, draft: defaultDraft("footer") });
      expect(stale).toMatchObject({ ok: false, status: 409 });
      expect(await saveMenu(db, editor, { menu: "footer", revision: 7, draft: defaultDraft("footer") })).toMatchObject({
        ok: false,
        status: 409,
      });
      expect(await rows()).toEqual(before);
      expect(await audit()).toHaveLength(1);
    });

    it("refuses every bad field next to it, writing nothing", async () => {
      const refusals: [MenuDraft, MenuKey, string, RegExp][] = [
        [withLink("footer", { to: "http://status.quorvant.com" }), "footer", "group-0-link-0-to", /https:\/\//],
        [withLink("footer", { to: "javascript:alert(1)" }), "footer", "group-0-link-0-to", /https:\/\//],
        [withLink("footer", { to: "/company/nowhere" }), "footer", "group-0-link-0-to", /No page of this site/],
        [withLink("footer", { to: "//evil.example/x" }), "footer", "group-0-link-0-to", /path/],
        [withLink("footer", { to: "https://user:pw@quorvant.com" }), "footer", "group-0-link-0-to", /password/],
        [withLink("footer", { to: "" }), "footer", "group-0-link-0-to", /Enter where the link goes/],
        [withLink("header", { label: "   " }), "header", "group-0-link-0-label", /Enter the link's text/],
        [withLink("header", { label: "<script>alert(1)</script>" }), "header", "group-0-link-0-label", /plain text/],
        [withLink("header", { label: "x".repeat(41) }), "header", "group-0-link-0-label", /At most 40/],
        [withLink("footer-links", { to: "/terms/nope" }), "footer-links", "group-0-link-0-to", /No page/],
      ];
      for (const [draft, menu, field, message] of refusals) {
        const result = await saveMenu(db, editor, { menu, revision: 0, draft });
        expect(result, `${menu} ${field}`).toMatchObject({ ok: false, status: 400 });
        if (!result.ok) expect(result.errors[field], JSON.stringify(draft[0]!.links[0])).toMatch(message);
      }

      // A group's title, a duplicate address, too many links, too many groups, an empty group.
      const header = defaultDraft("header");
      header[1]!.label = "";
      header[2]!.links.push({ ...header[2]!.links[0]! });
      const tooMany = defaultDraft("footer");
      tooMany[0]!.links = Array.from({ length: 11 }, (_, index) => ({ label: `Link ${index}`, to: `https://quorvant.com/${index}` }));
      const tooManyGroups = defaultDraft("footer");
      tooManyGroups.push({ id: "", label: "Fifth", links: [{ label: "A", to: "/" }] });
      const empty = defaultDraft("header");
      empty[0]!.links = [];
      const checks: [MenuDraft, MenuKey, Record<string, RegExp>][] = [
        [header, "header", { "group-1-label": /Enter the menu's title/, "group-2-link-4-to": /already has a link/ }],
        [tooMany, "footer", { "group-0-links": /At most 10 links/ }],
        [tooManyGroups, "footer", { "menu-items": /At most 4 columns/ }],
        [empty, "header", { "group-0-links": /at least one link/ }],
        [[], "footer-links", { "menu-items": /at least one link/ }],
      ];
      for (const [draft, menu, expected] of checks) {
        const result = await saveMenu(db, editor, { menu, revision: 0, draft });
        expect(result.ok).toBe(false);
        if (!result.ok) {
          const messages = Object.entries(expected).map(([field, message]) => [field, expect.stringMatching(message)]);
          expect(result.errors).toMatchObject(Object.fromEntries(messages));
        }
      }
      expect(await rows()).toEqual([]);
      expect(await audit()).toEqual([]);
    });

    it("knows the site's pages: routes, legal documents, published posts (not drafts or scheduled ones)", async () => {
      await addPost(db, { slug: "live-post", published_date: "2025-01-01T00:00:00.000Z" });
      await addPost(db, { slug: "draft-post", published: false, published_date: "2025-01-01T00:00:00.000Z" });
      await addPost(db, { slug: "future-post", published_date: "2999-01-01T00:00:00.000Z" });
      const known = async (path: string) => isLiveSitePath(db, path);
      expect(await known("/")).toBe(true);
      expect(await known("/company/careers#open-positions")).toBe(true);
      expect(await known("/contact-sales?product=sentinel")).toBe(true);
      expect(await known("/terms/privacy-policy")).toBe(true);
      expect(await known("/resources/blog/live-post")).toBe(true);
      expect(await known("/resources/blog/draft-post")).toBe(false);
      expect(await known("/resources/blog/future-post")).toBe(false);
      expect(await known("/admin")).toBe(false);
      expect(await known("/company/about/")).toBe(false);
      // Another feature adds its own pages.
      PATH_OWNERS.push((_db, pathname) => (pathname === "/solutions/banking" ? { reason: "A page.", live: true } : undefined));
      try {
        expect(await known("/solutions/banking")).toBe(true);
      } finally {
        PATH_OWNERS.pop();
      }
      // And a saved menu may link a published post.
      const draft = withLink("footer-links", { label: "Read this", to: "/resources/blog/live-post" });
      expect(await saveMenu(db, editor, { menu: "footer-links", revision: 0, draft })).toMatchObject({ ok: true, revision: 1 });
    });

    it("new groups get an id of their own for the page's markup", async () => {
      const draft = defaultDraft("header");
      draft.push({ id: "", label: "Company", links: [{ label: "Press", to: "https://press.quorvant.com" }] });
      draft.push({ id: "\"><script>", label: "Über uns!", links: [{ label: "Team", to: "/company/about" }] });
      expect((await saveMenu(db, editor, { menu: "header", revision: 0, draft })).ok).toBe(true);
      const ids = ((await findMenuRow(db, "header"))!.items as { id: string }[]).map((group) => group.id);
      expect(ids).toEqual(["products", "resources", "company", "company-2", "uber-uns"]);
    });
  });
}

// What every page reads: the server's own database, through the copy in memory.
for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the menus pages draw, on ${engine.name}`, () => {
    afterAll(async () => {
      await closeDatabase();
      await engine.cleanup();
    });

    it("are nothing extra while they are the defaults, the saved ones at once, and the defaults for a broken row", async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 2, SEED: "never" });
      const db = getDb();
      await withSeedPages(db);
      forgetNavigation(); // the copy the other engine's test left in memory
      // Untouched: the page carries no copy (its HTML is what it always was).
      expect(await publicNavigation()).toBeUndefined();

      // Saved on this server: the next page has it, without waiting for the copy to age.
      expect((await saveMenu(db, editor, { menu: "footer", revision: 0, draft: editedFooter() })).ok).toBe(true);
      const navigation = await publicNavigation();
      expect(navigation?.header).toEqual(defaultNavigation.header);
      expect(navigation?.footer.find((group) => group.id === "company")?.links.map((link) => link.label)).toEqual([
        "Careers",
        "About",
        "Brand",
        "Charter",
        "Status",
      ]);

      // Written by another tool (or another server): seen within the copy's half second. A row
      // that is not a valid menu leaves that menu at its default; the others keep their edits.
      await db
        .insertInto("navigation_menus")
        .values({ menu: "header", items: JSON.stringify([{ id: "x", label: "<b>Broken</b>", links: [] }]), updated_by: "tool" })
        .execute();
      await db
        .insertInto("navigation_menus")
        .values({ menu: "footer-links", items: JSON.stringify([{ label: "Status", to: "https://status.quorvant.com" }]) })
        .execute();
      await sleep(600);
      const read = await publicNavigation();
      expect(read?.header).toEqual(defaultNavigation.header);
      expect(read?.["footer-links"]).toEqual([{ label: "Status", to: "https://status.quorvant.com" }]);
      expect(read?.footer).toEqual(navigation?.footer);
      expect((await menuEditorViews(db)).map((view) => view.invalid)).toEqual([true, false, false]);

      // The database gone: pages keep the menus they had.
      await db.schema.dropTable("navigation_menus").execute();
      await sleep(600);
      expect(await publicNavigation()).toEqual(read);
    });
  });
}
