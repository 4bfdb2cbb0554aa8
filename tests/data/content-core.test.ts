import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportContent } from "~/features/content/content-export.server";
import type { PageSnapshot } from "~/features/content/content-types";
import { importContent } from "~/features/content/db/content-import.server";
import { diffSnapshots } from "~/features/content/core.server";
import { findDocument } from "~/features/content/documents.server";
import { setContentChangeListener, type ContentChange } from "~/features/content/publish-hook.server";
import { findRevision, insertRevision, listRevisions } from "~/features/content/revisions.server";
import {
  findPublishedPage,
  importPages,
  listPagesForEditors,
  listPublishedPages,
  publishPage,
  restorePageRevision,
  savePage,
  unpublishPage,
} from "~/features/pages/page-documents.server";
import { findLegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import type { Database } from "~/db/schema";
import { createLegalDraft, draftFieldsOf, publishLegalDraft, saveLegalDraft } from "~/features/legal/editing.server";
import { engines } from "./support/engines";
import { ok, samplePage } from "./support/sample-page";
import { migratedDatabase } from "./support/migrated-database";

// The content core on both engines, with pages (the type stored in the core's own table): a save
// changes the draft only, publishing shows it, a scheduled change shows by itself at its time, a
// path names one page, a stale save is refused with what changed, revisions restore without
// publishing, the publish hook names the paths that changed, and the seed imports page files.

const page = samplePage;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the content core on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };
    const bob = { actor: { id: "", email: "bob@quorvant.com" }, ip: "127.0.0.1" };
    const changes: ContentChange[] = [];

    beforeEach(async () => {
      db = (await migratedDatabase(engine)).db;
      for (const editor of [alice, bob]) {
        editor.actor.id = randomUUID();
        await db.insertInto("admin_users").values({ id: editor.actor.id, email: editor.actor.email, created_at: new Date().toISOString() }).execute();
      }
      changes.length = 0;
      setContentChangeListener((change) => changes.push(change));
    });
    afterEach(async () => {
      setContentChangeListener(undefined);
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("keeps a draft from visitors until it is published, and a later edit too", async () => {
      const created = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      expect(created.revision).toBe(1);
      expect(await findPublishedPage(db, "/solutions/financial-services")).toBeUndefined();
      ok(await publishPage(db, alice, { id: created.id, baseRevision: 1 }));
      expect(await findPublishedPage(db, "/solutions/financial-services")).toMatchObject({ title: "Financial services", id: created.id });
      expect(changes.map((change) => change.paths)).toEqual([["/solutions/financial-services", "/sitemap.xml"]]);

      ok(await savePage(db, alice, { id: created.id, baseRevision: 1, page: page({ title: "Banks and insurers" }) }));
      expect((await findPublishedPage(db, "/solutions/financial-services"))!.title).toBe("Financial services");
      ok(await publishPage(db, alice, { id: created.id, baseRevision: 2 }));
      expect((await findPublishedPage(db, "/solutions/financial-services"))!.title).toBe("Banks and insurers");

      const audit = await db.selectFrom("audit_log").select(["action", "target_type", "target_id"]).orderBy("seq").execute();
      expect(audit.map((entry) => entry.action)).toEqual(["page.created", "page.published", "page.saved", "page.published"]);
      expect(new Set(audit.map((entry) => `${entry.target_type}:${entry.target_id}`))).toEqual(new Set([`page:${created.id}`]));
    });

    it("shows a scheduled change by itself at its time, the published version until then", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      ok(await savePage(db, alice, { id, baseRevision: 1, page: page({ path: "/industries/finance", title: "Finance" }) }));
      const at = new Date(Date.now() + 60_000);
      const scheduled = ok(await publishPage(db, alice, { id, baseRevision: 2, at: at.toISOString() }));
      expect(scheduled.scheduled).toBe(true);
      expect(changes.at(-1)).toMatchObject({ at: at.toISOString(), paths: ["/solutions/financial-services", "/industries/finance", "/sitemap.xml"] });

      const before = new Date(at.getTime() - 1);
      expect((await findPublishedPage(db, "/solutions/financial-services", before))!.title).toBe("Financial services");
      expect(await findPublishedPage(db, "/industries/finance", before)).toBeUndefined();
      expect(await findPublishedPage(db, "/industries/finance", at)).toMatchObject({ title: "Finance", publishedAt: at.toISOString() });
      expect(await findPublishedPage(db, "/solutions/financial-services", at)).toBeUndefined();
      expect((await listPublishedPages(db, at)).map((entry) => entry.path)).toEqual(["/industries/finance"]);
      expect((await listPagesForEditors(db)).map((entry) => [entry.state, entry.publishAt])).toEqual([["published", at.toISOString()]]);

      // A page never published and scheduled is absent until its time, and listed as scheduled.
      const { id: landing } = ok(await savePage(db, alice, { baseRevision: 0, page: page({ path: "/campaigns/spring" }) }));
      ok(await publishPage(db, alice, { id: landing, baseRevision: 1, at: at.toISOString() }));
      expect(await findPublishedPage(db, "/campaigns/spring", before)).toBeUndefined();
      expect(await findPublishedPage(db, "/campaigns/spring", at)).toBeDefined();
      expect((await listPagesForEditors(db)).find((entry) => entry.id === landing)!.state).toBe("scheduled");
    });

    it("gives a path to one page only, drafted, published or scheduled", async () => {
      const first = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await publishPage(db, alice, { id: first.id, baseRevision: 1 }));
      const clash = await savePage(db, bob, { baseRevision: 0, page: page() });
      expect(clash).toEqual({ ok: false, errors: { path: "Path /solutions/financial-services is already used by another page." } });
      // Moved in its draft, the page still holds its published address until the move is published.
      ok(await savePage(db, alice, { id: first.id, baseRevision: 1, page: page({ path: "/finance" }) }));
      expect(await savePage(db, bob, { baseRevision: 0, page: page() })).toMatchObject({ ok: false, errors: { path: expect.any(String) } });
      ok(await publishPage(db, alice, { id: first.id, baseRevision: 2 }));
      ok(await savePage(db, bob, { baseRevision: 0, page: page() }));
    });

    it("refuses bad fields next to the field and a stale save with what changed, and restores without publishing", async () => {
      expect(await savePage(db, alice, { baseRevision: 0, page: { ...page(), path: "Not a path", title: "" } })).toEqual({
        ok: false,
        errors: {
          path: "Path must be a site path such as /solutions/financial-services.",
          title: "Title must not be empty.",
        },
      });
      expect(await savePage(db, alice, { baseRevision: 0, page: { ...page(), blocks: [{ title: "no type" }] } })).toMatchObject({
        ok: false,
        errors: { blocks: expect.stringMatching(/^Blocks \(0 › type\)/) },
      });
      // Each block against its own type's schema: an unknown icon is named by its field, nothing saved.
      const badIcon = { type: "item-grid", title: "Features", columns: 3, items: [{ icon: "skull", title: "One" }] };
      expect(await savePage(db, alice, { baseRevision: 0, page: page({ blocks: [badIcon] }) })).toMatchObject({
        ok: false,
        errors: { "blocks.0.items.0.icon": expect.stringContaining("is not an icon") },
      });
      expect(await listPagesForEditors(db)).toEqual([]);
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await savePage(db, alice, { id, baseRevision: 1, page: page({ description: "Alice's words" }) }));
      const refused = await savePage(db, bob, { id, baseRevision: 1, page: page({ title: "Bob's title" }) });
      expect(refused).toMatchObject({ ok: false, conflict: { number: 2, authorEmail: alice.actor.email } });
      if (refused.ok || !("conflict" in refused)) throw new Error("expected a conflict");
      expect(refused.conflict.changes.map((change) => change.label)).toEqual(["Description"]);
      // Two saves at once on the same base: one wins, one is told.
      const both = await Promise.all([
        savePage(db, alice, { id, baseRevision: 2, page: page({ title: "A", description: "Alice's words" }) }),
        savePage(db, bob, { id, baseRevision: 2, page: page({ title: "B", description: "Alice's words" }) }),
      ]);
      expect(both.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(both.filter((outcome) => !outcome.ok && "conflict" in outcome)).toHaveLength(1);

      ok(await publishPage(db, alice, { id, baseRevision: 3 }));
      const restored = ok((await restorePageRevision(db, bob, { id, number: 1, baseRevision: 3 }))!);
      expect(restored.revision).toBe(4);
      expect((await findDocument<PageSnapshot>(db, id))!.draft.description).toBe("AI governance for banks");
      expect((await findPublishedPage(db, "/solutions/financial-services"))!.description).toBe("Alice's words");
      expect((await listRevisions(db, "page", id)).map((revision) => [revision.number, revision.summary])).toEqual([
        [4, "Restored revision 1"],
        [3, "Saved"],
        [2, "Saved"],
        [1, "Created"],
      ]);
      const actions = await db.selectFrom("audit_log").select("action").where("action", "=", "page.restored").execute();
      expect(actions).toHaveLength(1);
    });

    it("takes a page off the site and tells the cache which path", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      changes.length = 0;
      expect(await unpublishPage(db, alice, id)).toEqual({ ok: true });
      expect(await findPublishedPage(db, "/solutions/financial-services")).toBeUndefined();
      expect(changes).toEqual([{ type: "page", id, paths: ["/solutions/financial-services", "/sitemap.xml"] }]);
      expect((await listPagesForEditors(db))[0]!.state).toBe("unpublished");
    });

    it("diffs blocks field by field, readably", () => {
      const changesOf = diffSnapshots(
        "page",
        page(),
        page({ blocks: [{ type: "hero", title: "Govern every model", lede: "From one place, at once." }] }),
      );
      expect(changesOf.map((change) => change.label)).toEqual(["Blocks"]);
      const lines = changesOf[0]!.diff.hunks.flatMap((hunk) => hunk.lines);
      expect(lines).toContainEqual({ kind: "removed", text: "lede: From one place." });
      expect(lines).toContainEqual({ kind: "added", text: "lede: From one place, at once." });
      expect(lines).toContainEqual({ kind: "same", text: "[Block 1: hero]" });
    });

    it("seeds pages from files once, and imports a changed file as a published revision", async () => {
      const files = [
        { path: "content/pages/home.yaml", value: page({ path: "/", title: "Home" }) },
        { path: "content/pages/about.yaml", value: page({ path: "/company/about", title: "About" }) },
      ];
      const seeded = await importPages(db, files, { onlyIntoEmpty: true });
      expect(seeded.changes.map((change) => change.action)).toEqual(["create", "create"]);
      expect((await findPublishedPage(db, "/"))!.title).toBe("Home");
      expect((await importPages(db, files, { onlyIntoEmpty: true })).changes).toEqual([]);
      const again = await importPages(db, [files[0]!, { ...files[1]!, value: page({ path: "/company/about", title: "About us" }) }]);
      expect(again.changes.map((change) => change.action)).toEqual(["unchanged", "update"]);
      const about = (await findPublishedPage(db, "/company/about"))!;
      expect(about.title).toBe("About us");
      expect((await findRevision(db, "page", about.id, 2))!.summary).toBe("Imported from content/pages/about.yaml");
      const bad = await importPages(db, [{ path: "content/pages/bad.yaml", value: { path: "/x" } }]);
      expect(bad.problems.map((problem) => problem.field)).toEqual(["title", "description", "blocks"]);
    });

    it("keeps a revision of every legal draft save and tells the cache when a version goes live", async () => {
      await db
        .insertInto("legal_documents")
        .values({
          id: randomUUID(),
          document_type: "terms-of-use",
          title: "Terms of Use",
          content: JSON.stringify({ sections: [{ title: "Use", content: "Be kind." }] }),
          last_updated: "2026-01-01T00:00:00.000Z",
          version: "1.0",
          published: true,
        })
        .execute();
      const created = await createLegalDraft(db, alice, { type: "terms-of-use" });
      if (!created.ok) throw new Error(created.problem);
      const { id } = created.value;
      const record = (await findLegalVersionRecord(db, id))!;
      const fields = draftFieldsOf(record);
      const saved = await saveLegalDraft(db, bob, {
        id,
        revision: 0,
        fields: { ...fields, changeSummary: "Kinder", sections: [{ title: "Use", content: "Be very kind." }] },
      });
      expect(saved).toEqual({ ok: true, value: { changed: true, revision: 1 } });
      expect((await listRevisions(db, "legal", id)).map((revision) => [revision.number, revision.summary, revision.authorEmail])).toEqual([
        [2, "Saved", bob.actor.email],
        [1, "Created from version 1.0", alice.actor.email],
      ]);
      const diff = diffSnapshots("legal", (await findRevision(db, "legal", id, 1))!.snapshot, (await findRevision(db, "legal", id, 2))!.snapshot);
      expect(diff.map((change) => change.label)).toEqual(["Summary of changes", "Text"]);

      changes.length = 0;
      const published = await publishLegalDraft(db, alice, { id, revision: 1 });
      expect(published.ok).toBe(true);
      expect(changes).toEqual([
        {
          type: "legal",
          id,
          // The German translation's page too: it says whether a newer English version is in force.
          paths: [
            "/terms/terms-of-use",
            "/terms/legal",
            "/terms/privacy-policy/*",
            "/terms/terms-of-use/*",
            "/sitemap.xml",
            "/de/rechtliches/nutzungsbedingungen",
            "/de/rechtliches/nutzungsbedingungen/*",
          ],
        },
      ]);
    });

    it("exports published pages as files the import reads back unchanged, and imports changed ones", async () => {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: page() }));
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      ok(await savePage(db, alice, { baseRevision: 0, page: page({ path: "/drafts/unseen", title: "Unseen" }) }));
      expect((await importContent(db, path.resolve("content"))).problems).toEqual([]);
      const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-pages-"));
      // The sample pages come along unchanged; the one made here is what this test follows.
      const pageChanges = async () =>
        (await importContent(db, dir)).changes.filter(
          (change) => change.table === "content_documents" && (change.action !== "unchanged" || change.key === "/solutions/financial-services"),
        );
      try {
        const exported = await exportContent(db, dir);
        expect(exported.problems).toEqual([]);
        expect(exported.summaries).toContain("27 pages (1 never published or taken off the site, not exported)");
        expect(readdirSync(path.join(dir, "pages"))).toContain("financial-services.yaml");
        expect(await pageChanges()).toEqual([
          { path: "pages/financial-services.yaml", table: "content_documents", key: "/solutions/financial-services", action: "unchanged" },
        ]);
        const file = path.join(dir, "pages", "financial-services.yaml");
        writeFileSync(file, readFileSync(file, "utf8").replace("title: Financial services", "title: Finance"));
        expect((await pageChanges()).map((change) => change.action)).toEqual(["update"]);
        expect((await findPublishedPage(db, "/solutions/financial-services"))!.title).toBe("Finance");
        writeFileSync(file, "path: /x\ntitle: [unclosed");
        expect((await importContent(db, dir)).problems).toEqual([
          { path: "pages/financial-services.yaml", field: "page", message: expect.stringMatching(/^is not valid YAML/) },
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("numbers revisions per type and document; the same number twice is refused", async () => {
      const id = randomUUID();
      const revision = { type: "legal" as const, documentId: id, number: 1, snapshot: {}, summary: "", author: null };
      await insertRevision(db, revision);
      await insertRevision(db, { ...revision, type: "page" });
      await expect(insertRevision(db, revision)).rejects.toThrow();
    });
  });
}
