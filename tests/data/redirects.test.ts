import { randomUUID } from "node:crypto";
import { Migrator, type Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations/index";
import type { Database } from "~/db/schema";
import { keepOldSlug } from "~/features/blog/db/post-editing.server";
import { publishPage, savePage } from "~/features/pages/page-documents.server";
import { RedirectHitCounter } from "~/features/redirects/redirect-hits.server";
import {
  deleteRedirect,
  listRedirects,
  recordPathMove,
  redirectAnswer,
  saveRedirect,
  type RedirectActor,
} from "~/features/redirects/redirects.server";
import { engines } from "./support/engines";
import { addPost } from "./support/fixtures";
import { migratedDatabase, withSeedPages } from "./support/migrated-database";

// Redirects on both engines: what an editor may save (and why not), loops and chains refused, a
// page move that rewrites older redirects, uses counted by several servers, the answer a visitor
// gets, and the blog's old slugs in the same list, those stored before the migration included.

const at = "https://site.invalid";

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`redirects on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let editor: RedirectActor;
    const save = (from: string, target: string, kind = "permanent", id?: string) =>
      saveRedirect(db, { from, target, kind }, editor, { id, siteUrl: "https://www.quorvant.example" });
    const saved = async (from: string, target: string, kind = "permanent") => {
      const result = await save(from, target, kind);
      if (!result.ok) throw new Error(`not saved: ${JSON.stringify(result)}`);
      return result.id;
    };
    const refusal = async (from: string, target: string, kind = "permanent", id?: string) => {
      const result = await save(from, target, kind, id);
      if (result.ok || !("fieldErrors" in result)) throw new Error(`expected a refusal: ${JSON.stringify(result)}`);
      return result;
    };
    const audit = async () =>
      (await db.selectFrom("audit_log").select(["action", "details"]).where("action", "like", "redirect.%").orderBy("seq").execute()).map(
        (row) => row.action,
      );

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine));
      // The site's pages are content: a fresh site has the seed's.
      await withSeedPages(db);
      editor = { id: randomUUID(), email: "eddie@quorvant.com", ip: "192.0.2.1" };
      await db.insertInto("admin_users").values({ id: editor.id, email: editor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("saves a redirect in the server's form of the path, audited, and answers with it", async () => {
      const id = await saved("/Old-Pricing/", "/contact-sales?utm_source=old-pricing");
      await saved("/old-events", "https://events.example.com/quorvant", "temporary");
      await saved("/retired-product", "", "gone");
      const items = await listRedirects(db);
      expect(items.map((item) => [item.from, item.target, item.kind, item.source])).toEqual([
        ["/old-events", "https://events.example.com/quorvant", "temporary", "editor"],
        ["/old-pricing", "/contact-sales?utm_source=old-pricing", "permanent", "editor"],
        ["/retired-product", "", "gone", "editor"],
      ]);
      expect(items.find((item) => item.id === id)?.updatedBy).toBe(editor.email);
      expect(await audit()).toEqual(["redirect.created", "redirect.created", "redirect.created"]);

      // Campaign parameters are carried over (the target's own win); any other parameter is dropped.
      expect(await redirectAnswer(db, new URL(`${at}/old-pricing?utm_source=x&utm_campaign=q3&page=2`))).toEqual({
        status: 301,
        location: "/contact-sales?utm_source=old-pricing&utm_campaign=q3",
      });
      expect(await redirectAnswer(db, new URL(`${at}/old-events?ref=1`))).toEqual({
        status: 302,
        location: "https://events.example.com/quorvant",
      });
      expect(await redirectAnswer(db, new URL(`${at}/retired-product`))).toEqual({ status: 410 });
      expect(await redirectAnswer(db, new URL(`${at}/never-was`))).toBeUndefined();

      // Changed, then deleted: each audited.
      expect((await save("/old-pricing", "/request-demo", "temporary", id)).ok).toBe(true);
      expect(await redirectAnswer(db, new URL(`${at}/old-pricing`))).toEqual({ status: 302, location: "/request-demo" });
      expect(await deleteRedirect(db, id, editor)).toEqual({ ok: true });
      expect(await deleteRedirect(db, id, editor)).toEqual({ ok: false, notFound: true });
      expect(await audit()).toEqual(["redirect.created", "redirect.created", "redirect.created", "redirect.updated", "redirect.deleted"]);
    });

    it("refuses malformed addresses, the site's own routes, targets that are not pages, and open redirects", async () => {
      const post = await addPost(db, { slug: "live-post", published_date: "2025-01-01T00:00:00.000Z" });
      await addPost(db, { slug: "draft-post", published: false, published_date: "2025-01-01T00:00:00.000Z" });
      const fromErrors = async (from: string) => (await refusal(from, "/")).fieldErrors.from;
      expect(await fromErrors("old")).toMatch(/starts with \//);
      expect(await fromErrors("/a//b")).toMatch(/\/\//);
      expect(await fromErrors("/a?b=1")).toMatch(/query string/);
      expect(await fromErrors("/a#top")).toMatch(/fragment/);
      expect(await fromErrors("/a\u0000b")).toMatch(/control character/);
      expect(await fromErrors(`/${"a".repeat(600)}`)).toMatch(/At most 512/);
      expect(await fromErrors("/a/../admin")).toMatch(/\. or \.\./);
      expect(await fromErrors("/admin/users")).toMatch(/under \/admin/);
      expect(await fromErrors("/rss.xml")).toMatch(/answers this address itself/);
      expect(await fromErrors("/assets/app.js")).toMatch(/under \/assets/);
      expect(await fromErrors("/Company/About/")).toMatch(/page of the site/);
      expect(await fromErrors("/terms/privacy-policy")).toMatch(/page of the site/);
      expect(await fromErrors("/contact-sales")).toMatch(/page of the site/);
      expect(await fromErrors("/resources/blog/live-post")).toMatch(/A post is published/);
      expect(await fromErrors(`/resources/blog/${post.id}`)).toMatch(/A post is published/);
      expect(await fromErrors("/resources/blog/draft-post")).toMatch(/not public yet/);

      const targetErrors = async (target: string) => (await refusal("/old", target)).fieldErrors.target;
      expect(await targetErrors("")).toMatch(/Enter where it leads/);
      expect(await targetErrors("http://example.com/")).toMatch(/Only https/);
      expect(await targetErrors("javascript:alert(1)")).toMatch(/Only https/);
      expect(await targetErrors("//evil.example/")).toMatch(/\/\//);
      expect(await targetErrors("https://user:pw@example.com/")).toMatch(/user name or password/);
      expect(await targetErrors("https://www.quorvant.example/company/about")).toMatch(/this site: enter its path, \/company\/about/);
      expect(await targetErrors("/no-such-page")).toMatch(/no page of the site at \/no-such-page/);
      expect(await targetErrors("/resources/blog/draft-post")).toMatch(/no page of the site/);
      expect(await targetErrors("/admin")).toMatch(/no page of the site/);
      expect((await refusal("/old", "/", "sideways")).fieldErrors.kind).toMatch(/permanent, temporary or gone/);
      // The editor's input comes back as typed.
      expect((await refusal("/a?b=1", "http://x")).values).toEqual({ from: "/a?b=1", kind: "permanent", target: "http://x" });

      expect(await saved("/old-post-link", "/resources/blog/live-post")).toBeTruthy();
      expect(await saved("/old-home", "/")).toBeTruthy();
      expect(await listRedirects(db)).toHaveLength(2);
      expect(await audit()).toEqual(["redirect.created", "redirect.created"]);
    });

    it("knows the pages of the content core: a published one is a target, any one is no old address", async () => {
      const as = { actor: { id: editor.id, email: editor.email }, ip: editor.ip };
      const page = (path: string) => ({
        path,
        title: "Financial services",
        description: "AI governance for banks",
        noindex: false,
        blocks: [{ type: "hero" as const, title: "Govern every model", lede: "From one place." }],
      });
      const live = await savePage(db, as, { baseRevision: 0, page: page("/solutions/financial-services") });
      if (!live.ok) throw new Error("page not saved");
      expect((await publishPage(db, as, { id: live.id, baseRevision: 1 })).ok).toBe(true);
      expect((await savePage(db, as, { baseRevision: 0, page: page("/solutions/draft") })).ok).toBe(true);
      expect((await refusal("/solutions/financial-services", "/")).fieldErrors.from).toMatch(/A page of the site is at this address/);
      expect((await refusal("/solutions/draft", "/")).fieldErrors.from).toMatch(/not public yet/);
      expect((await refusal("/old-solutions", "/solutions/draft")).fieldErrors.target).toMatch(/no page of the site/);
      expect(await saved("/old-solutions", "/solutions/financial-services")).toBeTruthy();
    });

    it("refuses loops and chains, with the reason", async () => {
      await saved("/b", "/company/about");
      expect((await refusal("/a", "/a")).fieldErrors.target).toMatch(/own address would loop/);
      expect((await refusal("/a", "/b")).fieldErrors.target).toBe(
        "/b is itself redirected to /company/about: point this redirect at /company/about instead, so visitors take one step, not two.",
      );
      expect((await refusal("/c", "/b")).fieldErrors.target).toMatch(/itself redirected/);
      // Something leads to /b already: a redirect from /b's target would chain.
      const toA = await saved("/x", "/company/careers");
      expect((await refusal("/b", "/company/brand")).fieldErrors.from).toMatch(/exists already/);
      // A → B → A: /x's target moved to a page that /x... an old address pointed at by another:
      await db.updateTable("redirects").set({ target: "/y" }).where("id", "=", toA).execute(); // as an older tool left it
      expect((await refusal("/y", "/x")).fieldErrors).toEqual({
        from: "/x already redirects to /y: a redirect from here would make a chain (/x → /y → …). Point /x elsewhere first.",
        target: "/x redirects to /y: this would loop (/y → /x → /y).",
      });
      await saved("/gone-page", "", "gone");
      expect((await refusal("/d", "/gone-page")).fieldErrors.target).toMatch(/marked gone/);
      // Editing a redirect is not refused for its own address.
      const [b] = (await listRedirects(db)).filter((item) => item.from === "/b");
      expect((await save("/b", "/company/brand", "temporary", b!.id!)).ok).toBe(true);
    });

    it("a page moved: its old address leads to the new one, older redirects follow, nothing chains or loops", async () => {
      await saved("/older", "/company/about?utm_source=x");
      await saved("/other", "https://example.com/");
      await recordPathMove(db, "/company/about", "/company/about-us", editor);
      let items = await listRedirects(db);
      expect(items.map((item) => [item.from, item.target, item.source])).toEqual([
        ["/company/about", "/company/about-us", "page-move"],
        ["/older", "/company/about-us?utm_source=x", "editor"],
        ["/other", "https://example.com/", "editor"],
      ]);
      // Moved back: the page lives at its first path again, so no redirect is left there.
      await recordPathMove(db, "/company/about-us", "/company/about", editor);
      items = await listRedirects(db);
      expect(items.map((item) => [item.from, item.target, item.source])).toEqual([
        ["/company/about-us", "/company/about", "page-move"],
        ["/older", "/company/about?utm_source=x", "editor"],
        ["/other", "https://example.com/", "editor"],
      ]);
      expect(await audit()).toEqual([
        "redirect.created",
        "redirect.created",
        "redirect.updated",
        "redirect.created",
        "redirect.deleted",
        "redirect.updated",
        "redirect.created",
      ]);
    });

    it("counts uses in memory and adds them on flush, from several servers", async () => {
      await saved("/old", "/community");
      const post = await addPost(db, { slug: "now", published_date: "2025-01-01T00:00:00.000Z" });
      await db.transaction().execute((trx) => keepOldSlug(trx, post.id, "before", "now"));
      const first = new RedirectHitCounter();
      const second = new RedirectHitCounter();
      first.redirect("/old", "2026-03-01T10:00:00.000Z");
      first.redirect("/old", "2026-03-01T10:00:05.000Z");
      second.redirect("/old", "2026-03-01T10:00:02.000Z");
      second.postRename("before", "2026-03-01T11:00:00.000Z");
      first.redirect("/not-a-redirect");
      await Promise.all([first.flush(db), second.flush(db)]);
      await first.flush(db); // nothing left
      const items = await listRedirects(db);
      expect(items.map((item) => [item.from, item.hits, item.lastUsedAt])).toEqual([
        ["/old", 3, expect.stringMatching(/^2026-03-01T10:00:0[25]/)],
        ["/resources/blog/before", 1, "2026-03-01T11:00:00.000Z"],
      ]);
    });

    it("lists a post's old slugs as redirects that follow the post, and refuses to redirect them again", async () => {
      const post = await addPost(db, { slug: "third", title: "Renamed twice", published_date: "2025-01-01T00:00:00.000Z" });
      await db.transaction().execute(async (trx) => {
        await keepOldSlug(trx, post.id, "first", "second");
        await keepOldSlug(trx, post.id, "second", "third");
      });
      const renames = (await listRedirects(db)).filter((item) => item.source === "post-rename");
      expect(renames.map((item) => [item.from, item.target, item.kind, item.post?.title])).toEqual([
        ["/resources/blog/first", "/resources/blog/third", "permanent", "Renamed twice"],
        ["/resources/blog/second", "/resources/blog/third", "permanent", "Renamed twice"],
      ]);
      expect((await refusal("/resources/blog/first", "/community")).fieldErrors.from).toMatch(
        /old address of the post “Renamed twice”: it already leads to \/resources\/blog\/third/,
      );
      expect((await refusal("/elsewhere", "/resources/blog/second")).fieldErrors.target).toMatch(
        /itself redirected to \/resources\/blog\/third/,
      );
      // A deleted post's address may lead somewhere else.
      expect(await saved("/resources/blog/deleted-post", "/resources/blog/third")).toBeTruthy();
    });
  });

  describe.skipIf(skip)(`redirects migration on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("keeps the old slugs stored before it, which then show in the list with no uses yet", async () => {
      const url = await engine.create();
      const { db, dialect } = await openDatabase(url);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
        const before = await migrator.migrateTo("0014-erasure");
        expect(before.error).toBeUndefined();
        const post = await addPost(db, { slug: "current", title: "Moved", published_date: "2025-01-01T00:00:00.000Z" });
        await db.insertInto("blog_slug_redirects").values({ slug: "old-name", post_id: post.id, created_at: "2025-02-01T00:00:00.000Z" }).execute();
        await migrateToLatest(db, dialect);
        const items = await listRedirects(db);
        expect(items.map((item) => [item.from, item.target, item.source, item.hits, item.lastUsedAt])).toEqual([
          ["/resources/blog/old-name", "/resources/blog/current", "post-rename", 0, null],
        ]);
      } finally {
        await db.destroy();
      }
    });
  });
}
