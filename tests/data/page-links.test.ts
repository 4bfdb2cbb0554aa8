import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { findDocument } from "~/features/content/documents.server";
import { findPageForEditor, listPagesForEditors } from "~/features/pages/page-documents.server";
import { savePageDraft, type PageDraft } from "~/features/pages/page-editor.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";
import { ok, samplePage } from "./support/sample-page";

// A page's links to this site are checked when the editor saves, on both engines: a link to an
// address where the site has nothing is refused next to its control and nothing is saved; a link
// to a page still in draft is kept (publishing checks it); every seed page saves as it is.

const cta = (href: string, intro = "Talk to us.") => ({
  type: "cta-band",
  title: "See Sentinel",
  intro,
  actions: [{ label: "Request Demo", href, style: "primary" }],
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`links checked on save on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };
    const draft = (blocks: PageDraft["blocks"], path = "/solutions/financial-services"): PageDraft => ({
      ...samplePage({ path }),
      blocks,
    });

    beforeEach(async () => {
      db = (await migratedDatabase(engine)).db;
      await withSeedPages(db);
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(() => db.destroy());
    afterAll(() => engine.cleanup());

    it("refuses a link to no page of the site next to its control, in a field or in markup, saving nothing", async () => {
      const pages = (await listPagesForEditors(db)).length;
      const outcome = await savePageDraft(db, alice, {
        baseRevision: 0,
        draft: draft([cta("/no-such-page?from=cta#top", "Read [the guide](/guides/missing) or [contact us](/contact-sales).")]),
      });
      expect(outcome).toEqual({
        ok: false,
        errors: {
          "blocks.0.actions.0.href": "No page of the site is at /no-such-page. Link to one that exists, or create that page first.",
          "blocks.0.intro": "No page of the site is at /guides/missing. Link to one that exists, or create that page first.",
        },
      });
      expect(await listPagesForEditors(db)).toHaveLength(pages);
    });

    it("keeps links to the site's own routes, posts, live pages, a page in draft and the page itself", async () => {
      const upcoming = ok(await savePageDraft(db, alice, { baseRevision: 0, draft: draft([cta("/request-demo")], "/solutions/insurance") }));
      const saved = ok(
        await savePageDraft(db, alice, {
          baseRevision: 0,
          draft: draft([
            cta("/solutions/insurance", "See [our blog](/resources/blog), [the product](/products/sentinel#features) and [this page](/solutions/financial-services)."),
          ]),
        }),
      );
      expect((await findDocument(db, saved.id))?.revision).toBe(1);
      expect((await findPageForEditor(db, upcoming.id))?.path).toBe("/solutions/insurance");
    });

    it("saves every seed page as it is: none links to an address the site does not have", async () => {
      for (const item of await listPagesForEditors(db)) {
        const page = (await findPageForEditor(db, item.id))!;
        const outcome = await savePageDraft(db, alice, {
          id: page.id,
          baseRevision: page.revision,
          draft: page.draft as PageDraft,
          previousPath: page.path,
        });
        expect(outcome, page.path).toMatchObject({ ok: true });
      }
    });
  });
}
