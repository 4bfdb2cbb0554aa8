import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportContent } from "~/features/content/content-export.server";
import { formatProblem } from "~/features/content/content-files.server";
import { importContent } from "~/features/content/db/content-import.server";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { findPageForEditor, listPagesForEditors, unpublishPage } from "~/features/pages/page-documents.server";
import { savePageDraft, type PageDraft } from "~/features/pages/page-editor.server";
import { engines } from "./support/engines";

// Translations in content files, on both engines: the sample's German pages and posts are stored
// in German, each pointing at its English source and the source revision it was made from; the
// export writes them back where and as they were; the editor saves each German page as it is (its
// links lead where the site answers); a translation of nothing is refused, naming the file and
// the field, with nothing written.

const CONTENT_DIR = path.resolve("content");

/** Every page and post with its language and source (by the source's address), as the import left them. */
async function languages(db: Kysely<Database>) {
  const docs = await db.selectFrom("content_documents").selectAll().where("type", "=", "page").orderBy("path").execute();
  const posts = await db.selectFrom("blog_posts").selectAll().orderBy("slug").execute();
  const docPath = new Map(docs.map((doc) => [doc.id, doc.path]));
  const postSlug = new Map(posts.map((post) => [post.id, post.slug]));
  return {
    pages: docs.map((doc) => ({
      path: doc.path,
      locale: doc.locale,
      source: doc.translation_of && docPath.get(doc.translation_of),
      sourceRevision: doc.source_revision === null ? null : Number(doc.source_revision),
    })),
    posts: posts.map((post) => ({
      slug: post.slug,
      locale: post.locale,
      source: post.translation_of && postSlug.get(post.translation_of),
      sourceRevision: post.source_revision === null ? null : Number(post.source_revision),
    })),
  };
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`translations in content files on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let dirs: string[];
    const tempDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-translations-test-"));
      dirs.push(dir);
      return dir;
    };
    const emptyDatabase = async () => {
      const opened = await openDatabase(await engine.create(), 2);
      await migrateToLatest(opened.db, opened.dialect);
      return opened.db;
    };
    const others: Kysely<Database>[] = [];

    beforeEach(async () => {
      dirs = [];
      db = await emptyDatabase();
    });
    afterEach(async () => {
      await db.destroy();
      for (const other of others.splice(0)) await other.destroy();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    afterAll(() => engine.cleanup());

    it("stores the German pages and posts in German, each pointing at its English source's current revision", async () => {
      const report = await importContent(db, CONTENT_DIR);
      expect(report.problems.map(formatProblem)).toEqual([]);
      const { pages, posts } = await languages(db);
      const german = pages.filter((page) => page.locale === "de");
      expect(german).toHaveLength(13);
      expect(german).toContainEqual({ path: "/de/produkte/sentinel", locale: "de", source: "/products/sentinel", sourceRevision: 1 });
      expect(german).toContainEqual({ path: "/de", locale: "de", source: "/", sourceRevision: 1 });
      expect(german.every((page) => page.source && page.sourceRevision === 1)).toBe(true);
      expect(pages.filter((page) => page.locale === "en")).toHaveLength(13);
      expect(pages.filter((page) => page.locale === "en").every((page) => page.source === null && page.sourceRevision === null)).toBe(true);
      // A post read from a file has no revision before its first edit in the back office.
      expect(posts.filter((post) => post.locale === "de")).toEqual([
        { slug: "datenresidenz-fuer-ki-workloads", locale: "de", source: "data-residency-for-ai-workloads", sourceRevision: 0 },
        { slug: "eu-ai-act-checkliste", locale: "de", source: "eu-ai-act-readiness-checklist", sourceRevision: 0 },
        { slug: "ki-governance-betriebsmodell", locale: "de", source: "ai-governance-operating-model", sourceRevision: 0 },
      ]);
      expect(posts.filter((post) => post.locale === "en" && post.source !== null)).toEqual([]);

      // The English page changes: its translation, unchanged, stays made from revision 1 (outdated);
      // the translation imported changed is brought up to the source's revision.
      const dir = tempDir();
      cpSync(CONTENT_DIR, dir, { recursive: true });
      const about = path.join(dir, "pages", "about.yaml");
      writeFileSync(about, readFileSync(about, "utf8").replace("title: About Us", "title: About Quorvant"));
      expect((await importContent(db, dir)).problems).toEqual([]);
      const after = (await languages(db)).pages;
      expect(after.find((page) => page.path === "/de/unternehmen/ueber-uns")!.sourceRevision).toBe(1);
      const ueberUns = path.join(dir, "pages", "de", "about.yaml");
      writeFileSync(ueberUns, readFileSync(ueberUns, "utf8").replace("title: Über uns", "title: Über Quorvant"));
      const again = await importContent(db, dir);
      expect(again.changes.filter((change) => change.action !== "unchanged")).toEqual([
        { path: "pages/de/about.yaml", table: "content_documents", key: "/de/unternehmen/ueber-uns", action: "update" },
      ]);
      expect((await languages(db)).pages.find((page) => page.path === "/de/unternehmen/ueber-uns")!.sourceRevision).toBe(2);
    });

    it("saves every German page in the editor as it is: its links lead to German addresses the site has", async () => {
      expect((await importContent(db, CONTENT_DIR)).problems).toEqual([]);
      const alice = { actor: { id: randomUUID(), email: "alice@quorvant.com" }, ip: "127.0.0.1" };
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
      const german = (await listPagesForEditors(db)).filter((item) => item.path === "/de" || item.path.startsWith("/de/"));
      expect(german).toHaveLength(13);
      for (const item of german) {
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

    it("exports translations into their language's folder with their source, and imports them back the same", async () => {
      expect((await importContent(db, CONTENT_DIR)).problems).toEqual([]);
      const dir = tempDir();
      const exported = await exportContent(db, dir);
      expect(exported.problems.map(formatProblem)).toEqual([]);
      expect(readdirSync(path.join(dir, "posts", "de")).sort()).toEqual([
        "datenresidenz-fuer-ki-workloads.md",
        "eu-ai-act-checkliste.md",
        "ki-governance-betriebsmodell.md",
      ]);
      expect(readdirSync(path.join(dir, "pages", "de"))).toHaveLength(13);
      // Named as its source's file is: the export names the product page by its last segment.
      const product = readFileSync(path.join(dir, "pages", "de", "sentinel.yaml"), "utf8");
      expect(product).toMatch(/^path: \/de\/produkte\/sentinel\ntranslation_of: \/products\/sentinel\n/);
      const post = readFileSync(path.join(dir, "posts", "de", "eu-ai-act-checkliste.md"), "utf8");
      expect(post).toMatch(/^slug: eu-ai-act-checkliste\nlocale: de\ntranslation_of: eu-ai-act-readiness-checklist$/m);
      expect(readFileSync(path.join(dir, "posts", "eu-ai-act-readiness-checklist.md"), "utf8")).not.toMatch(/^(locale|translation_of):/m);

      const fresh = await emptyDatabase();
      others.push(fresh);
      expect((await importContent(fresh, dir)).problems.map(formatProblem)).toEqual([]);
      expect(await languages(fresh)).toEqual(await languages(db));
      const back = tempDir();
      await exportContent(fresh, back);
      for (const folder of ["pages/de", "posts/de"])
        for (const name of readdirSync(path.join(dir, folder)))
          expect(readFileSync(path.join(back, folder, name), "utf8"), `${folder}/${name}`).toBe(
            readFileSync(path.join(dir, folder, name), "utf8"),
          );

      // A translation gone from the database goes from the export's folder.
      await db.deleteFrom("blog_posts").where("slug", "=", "eu-ai-act-checkliste").execute();
      const again = await exportContent(db, dir);
      expect(again.changes.filter((change) => change.action !== "unchanged")).toEqual([
        { path: "posts/de/eu-ai-act-checkliste.md", action: "remove" },
      ]);

      // A translation of a page taken off the site is written without its source, and still imports.
      const about = (await listPagesForEditors(db)).find((item) => item.path === "/company/about")!;
      expect(await unpublishPage(db, { actor: { id: randomUUID(), email: "alice@quorvant.com" }, ip: "127.0.0.1" }, about.id)).toEqual({ ok: true });
      const withoutSource = tempDir();
      expect((await exportContent(db, withoutSource)).problems).toEqual([]);
      expect(readFileSync(path.join(withoutSource, "pages", "de", "ueber-uns.yaml"), "utf8")).not.toMatch(/translation_of/);
      const other = await emptyDatabase();
      others.push(other);
      expect((await importContent(other, withoutSource)).problems.map(formatProblem)).toEqual([]);
    });

    it("refuses a translation of nothing, or one without its language, naming the file and field; nothing is written", async () => {
      const dir = tempDir();
      mkdirSync(path.join(dir, "pages", "de"), { recursive: true });
      mkdirSync(path.join(dir, "posts", "de"), { recursive: true });
      const page = (pagePath: string, source?: string) =>
        [`path: ${pagePath}`, ...(source ? [`translation_of: ${source}`] : []), "title: Seite", "description: Eine Seite.", "noindex: false", "blocks: []", ""].join(
          "\n",
        );
      writeFileSync(path.join(dir, "pages", "about.yaml"), page("/company/about"));
      writeFileSync(path.join(dir, "pages", "de", "missing.yaml"), page("/de/fehlt", "/company/missing"));
      const post = (fields: string) =>
        `---\ntitle: Ein Beitrag\n${fields}\nexcerpt: Kurz.\ncategory: Compliance\nauthor: Ada\npublished_date: 2025-01-02\nread_time: 3\nfeatured: false\npublished: true\n---\nText.\n`;
      writeFileSync(path.join(dir, "posts", "source.md"), post("slug: source"));
      writeFileSync(path.join(dir, "posts", "de", "orphan.md"), post("slug: waise\nlocale: de\ntranslation_of: no-such-post"));

      const report = await importContent(db, dir);
      expect(report.written).toBe(false);
      expect(report.problems.map(formatProblem).sort()).toEqual(
        [
          `${path.relative(process.cwd(), path.join(dir, "posts", "de", "orphan.md"))}: translation_of: names "no-such-post", which is the slug of no en post`,
          "pages/de/missing.yaml: translation_of: names /company/missing, where there is no en page",
        ].sort(),
      );
      expect(await db.selectFrom("content_documents").select("id").execute()).toEqual([]);
      expect(await db.selectFrom("blog_posts").select("id").execute()).toEqual([]);

      // A translation's path without its language's prefix, a source in another language, a post
      // naming a source but no language, a German folder's post said to be English: each refused before anything is written.
      writeFileSync(path.join(dir, "pages", "de", "missing.yaml"), page("/company/fehlt", "/company/about"));
      writeFileSync(path.join(dir, "pages", "de", "chain.yaml"), page("/de/kette", "/de/fehlt"));
      writeFileSync(path.join(dir, "posts", "de", "orphan.md"), post("slug: waise\ntranslation_of: source"));
      writeFileSync(path.join(dir, "posts", "de", "english.md"), post("slug: english\nlocale: en"));
      mkdirSync(path.join(dir, "pages", "xx"));
      const shown = (file: string) => path.relative(process.cwd(), path.join(dir, "posts", "de", file));
      expect((await importContent(db, dir)).problems.map(formatProblem).sort()).toEqual(
        [
          "pages/de/missing.yaml: path: must begin with its language's prefix (/de/…): a page with translation_of is a translation",
          "pages/de/missing.yaml: path: must begin with /de: the file's folder is for pages in de",
          "pages/de/chain.yaml: translation_of: names /de/fehlt, a page in de: a translation names the en page it translates",
          "pages/xx: folder: names no language with a message catalog (de)",
          `${shown("orphan.md")}: translation_of: needs locale: a translation names its language (such as locale: de) and the en post it translates`,
          `${shown("orphan.md")}: locale: must be de, the language of the file's folder`,
          `${shown("english.md")}: locale: must be de, the language of the file's folder`,
        ].sort(),
      );
    });
  });
}
