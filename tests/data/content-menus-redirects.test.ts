import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { exportContent } from "~/features/content/content-export.server";
import { formatProblem } from "~/features/content/content-files.server";
import { importContent } from "~/features/content/db/content-import.server";
import { watchContentChanges, type ContentChange } from "~/features/content/publish-hook.server";
import { defaultDraft, saveMenu, type Editor } from "~/features/navigation/navigation.server";
import { addRedirectHits } from "~/features/redirects/db/redirects.server";
import { listRedirects, recordPathMove, saveRedirect } from "~/features/redirects/redirects.server";
import { parseSiteLocales } from "~/features/i18n/site-locales";
import { engines } from "./support/engines";

// Menus and redirects in `content export` and `content import`, on both engines: the sample
// content with menus and redirects edited in the back office goes out as files and into an empty
// database unchanged (use counts stay behind, a post's old slugs stay with the post); a file the
// back office's rules refuse (a loop, a chain, a malformed address, a link to no page) stops the
// whole import with its file and field; an export without the two folders leaves both alone.

const CONTENT_DIR = path.resolve("content");
const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };
const actor = { ...editor.actor, ip: editor.ip };

/** Every file under a folder with its bytes, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = readFileSync(full, "base64");
    }
  };
  walk(dir);
  return files;
}

/** The saved menus as stored (jsonb hands back objects, SQLite text). */
const menuRows = async (db: Kysely<Database>) =>
  (await db.selectFrom("navigation_menus").select(["menu", "items"]).orderBy("menu").execute()).map((row) => ({
    menu: row.menu,
    items: typeof row.items === "string" ? (JSON.parse(row.items) as unknown) : row.items,
  }));

/** The redirects table as visitors meet it, by old address, with its use counts. */
const redirectRows = async (db: Kysely<Database>) =>
  (await db.selectFrom("redirects").select(["from_path", "target", "kind", "source", "hits"]).execute())
    .map((row) => ({ ...row, hits: Number(row.hits) }))
    .sort((a, b) => (a.from_path < b.from_path ? -1 : 1));
const withoutHits = (rows: Awaited<ReturnType<typeof redirectRows>>) => rows.map(({ hits: _hits, ...row }) => row);

const postTitle = async (db: Kysely<Database>, slug: string) =>
  (await db.selectFrom("blog_posts").select("title").where("slug", "=", slug).executeTakeFirstOrThrow()).title;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`menus and redirects in the content files on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let dirs: string[];
    const tempDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-menus-redirects-"));
      dirs.push(dir);
      return dir;
    };
    const emptyDatabase = async () => {
      const opened = await openDatabase(await engine.create(), 2);
      await migrateToLatest(opened.db, opened.dialect);
      return opened.db;
    };
    /** A fresh database holding the sample content, as a new site has it. */
    const sampleSite = async () => {
      const site = await emptyDatabase();
      expect((await importContent(site, CONTENT_DIR)).problems).toEqual([]);
      return site;
    };

    beforeEach(async () => {
      dirs = [];
      db = await sampleSite();
      await db.insertInto("admin_users").values({ id: editor.actor.id, email: editor.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(async () => {
      await db.destroy();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    /** Two menus and four redirects saved in the back office (one left by a page's move), a post renamed, redirects used. */
    async function editLikeTheBackOffice() {
      const footer = defaultDraft("footer");
      const company = footer.find((group) => group.id === "company")!;
      company.links[0]!.label = "About";
      company.links.push({ label: "Status", to: "https://status.quorvant.com" });
      expect(await saveMenu(db, editor, { menu: "footer", revision: 0, draft: footer })).toMatchObject({ ok: true, changed: true });
      const bottom = defaultDraft("footer-links");
      bottom[0]!.links.push({ label: "Contact", to: "/contact-sales" });
      expect(await saveMenu(db, editor, { menu: "footer-links", revision: 0, draft: bottom })).toMatchObject({ ok: true });

      const save = (from: string, target: string, kind: string) => saveRedirect(db, { from, target, kind }, actor);
      expect(await save("/Old-Pricing/", "/contact-sales?utm_source=old-pricing", "permanent")).toMatchObject({ ok: true });
      expect(await save("/old-events", "https://events.example.com/quorvant", "temporary")).toMatchObject({ ok: true });
      expect(await save("/retired-product", "", "gone")).toMatchObject({ ok: true });
      await recordPathMove(db, "/about-us", "/company/about", actor);

      const post = await db.selectFrom("blog_posts").select("id").where("slug", "=", "red-teaming-llm-applications").executeTakeFirstOrThrow();
      await db.insertInto("blog_slug_redirects").values({ slug: "red-teaming-101", post_id: post.id, created_at: new Date().toISOString() }).execute();
      await addRedirectHits(db, [
        { key: { table: "redirects", fromPath: "/old-events" }, hits: 7, at: new Date().toISOString() },
        { key: { table: "posts", slug: "red-teaming-101" }, hits: 3, at: new Date().toISOString() },
      ]);
    }

    it("round-trips the saved menus and the redirects exactly; a second export changes no byte", async () => {
      await editLikeTheBackOffice();
      const dir = tempDir();
      const first = await exportContent(db, dir);
      expect(first.problems.map(formatProblem)).toEqual([]);
      expect(first.summaries.slice(-2)).toEqual(["2 menus", "4 redirects"]);
      // The header was never saved: it stays the code's, with no file.
      expect(readdirSync(path.join(dir, "navigation")).sort()).toEqual(["footer-links.yaml", "footer.yaml"]);
      expect(readFileSync(path.join(dir, "navigation", "footer-links.yaml"), "utf8")).toBe(
        [
          "- label: Privacy",
          "  to: /terms/privacy-policy",
          "- label: Terms",
          "  to: /terms/terms-of-use",
          "- label: Contact",
          "  to: /contact-sales",
          "",
        ].join("\n"),
      );
      expect(readFileSync(path.join(dir, "navigation", "footer.yaml"), "utf8")).toContain(
        ["- id: company", "  label: Company", "  links:", "    - label: About", "      to: /company/about"].join("\n"),
      );
      // By old address; no use counts; the post's old slug is the post's, not a redirect of this file.
      expect(readFileSync(path.join(dir, "redirects", "redirects.yaml"), "utf8")).toBe(
        [
          "- from: /about-us",
          "  kind: permanent",
          "  target: /company/about",
          "  source: page-move",
          "- from: /old-events",
          "  kind: temporary",
          "  target: 'https://events.example.com/quorvant'",
          "- from: /old-pricing",
          "  kind: permanent",
          "  target: /contact-sales?utm_source=old-pricing",
          "- from: /retired-product",
          "  kind: gone",
          "",
        ].join("\n"),
      );

      const files = snapshot(dir);
      const again = await exportContent(db, dir);
      expect(again.written).toBe(false);
      expect(snapshot(dir)).toEqual(files);

      // Into an empty database: the same menus and redirects, told to the page cache, not audited.
      const fresh = await emptyDatabase();
      const told: ContentChange[] = [];
      watchContentChanges("test", (change) => told.push(change));
      try {
        const imported = await importContent(fresh, dir);
        expect(imported.problems.map(formatProblem)).toEqual([]);
        expect(imported.changes.filter((change) => change.table === "navigation_menus" || change.table === "redirects")).toEqual([
          { path: "navigation/footer-links.yaml", table: "navigation_menus", key: "footer-links", action: "create" },
          { path: "navigation/footer.yaml", table: "navigation_menus", key: "footer", action: "create" },
          { path: "redirects/redirects.yaml", table: "redirects", key: "/about-us", action: "create" },
          { path: "redirects/redirects.yaml", table: "redirects", key: "/old-events", action: "create" },
          { path: "redirects/redirects.yaml", table: "redirects", key: "/old-pricing", action: "create" },
          { path: "redirects/redirects.yaml", table: "redirects", key: "/retired-product", action: "create" },
        ]);
        expect(told.filter((change) => change.type === "navigation")).toEqual([
          { type: "navigation", id: "footer-links", paths: ["/*"] },
          { type: "navigation", id: "footer", paths: ["/*"] },
        ]);
        expect(await menuRows(fresh)).toEqual(await menuRows(db));
        expect(withoutHits(await redirectRows(fresh))).toEqual(withoutHits(await redirectRows(db)));
        expect((await redirectRows(fresh)).map((row) => row.hits)).toEqual([0, 0, 0, 0]);
        expect(await fresh.selectFrom("blog_slug_redirects").select("slug").execute()).toEqual([]);
        expect(await fresh.selectFrom("audit_log").select("seq").execute()).toEqual([]);
        const third = tempDir();
        await exportContent(fresh, third);
        expect(snapshot(third)).toEqual(files);
      } finally {
        watchContentChanges("test", undefined);
        await fresh.destroy();
      }

      // Onto the database it came from: nothing to do, and an edited file changes only what it says.
      expect((await importContent(db, dir)).written).toBe(false);
      const file = path.join(dir, "redirects", "redirects.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("https://events.example.com/quorvant", "/request-demo").replace("  source: page-move\n", ""),
      );
      const edited = await importContent(db, dir);
      expect(edited.changes.filter((change) => change.action !== "unchanged")).toEqual([
        { path: "redirects/redirects.yaml", table: "redirects", key: "/old-events", action: "update" },
      ]);
      const rows = await redirectRows(db);
      // Its use count stays; the page move's redirect keeps its source when the file leaves it out.
      expect(rows.find((row) => row.from_path === "/old-events")).toMatchObject({ target: "/request-demo", hits: 7 });
      expect(rows.find((row) => row.from_path === "/about-us")?.source).toBe("page-move");
    });

    it("refuses loops, chains, redirects from a page and links to no page, by file and field, writing nothing", async () => {
      const dir = tempDir();
      await exportContent(db, dir);
      const post = path.join(dir, "posts", "red-teaming-llm-applications.md");
      writeFileSync(post, readFileSync(post, "utf8").replace(/^title: .*$/m, "title: Changed by the import"));
      writeFileSync(
        path.join(dir, "redirects", "redirects.yaml"),
        [
          "- { from: /a, kind: permanent, target: /b }",
          "- { from: /b, kind: permanent, target: /a }",
          "- { from: /c, kind: permanent, target: /d }",
          "- { from: /d, kind: temporary, target: /company/about }",
          "- { from: /company/about, kind: gone }",
          "- { from: /e, kind: permanent, target: /no-such-page }",
          "- { from: /f, kind: permanent, target: /company/careers }",
          "",
        ].join("\n"),
      );
      const header = defaultDraft("header").map((group) => ({ id: group.id, label: group.label, links: group.links }));
      header[0]!.links[0]!.to = "/no-such-page";
      mkdirSync(path.join(dir, "navigation"), { recursive: true });
      writeFileSync(path.join(dir, "navigation", "header.yaml"), JSON.stringify(header));

      const report = await importContent(db, dir);
      expect(report.written).toBe(false);
      expect(report.changes).toEqual([]);
      const problems = report.problems.map((problem) => `${problem.path}: ${problem.field}`);
      expect(problems).toEqual([
        "navigation/header.yaml: 0.links.0.to",
        "redirects/redirects.yaml: 0.from",
        "redirects/redirects.yaml: 0.target",
        "redirects/redirects.yaml: 1.from",
        "redirects/redirects.yaml: 1.target",
        "redirects/redirects.yaml: 2.target",
        "redirects/redirects.yaml: 3.from",
        "redirects/redirects.yaml: 3.target",
        "redirects/redirects.yaml: 4.from",
        "redirects/redirects.yaml: 5.target",
      ]);
      const message = (field: string) => report.problems.find((problem) => problem.field === field)?.message;
      expect(message("0.links.0.to")).toMatch(/No page of this site has this address/);
      expect(message("0.target")).toBe("/b redirects to /a: this would loop (/a → /b → /a).");
      expect(message("2.target")).toMatch(/^\/d is itself redirected to \/company\/about/);
      expect(message("3.from")).toMatch(/^\/c already redirects to \/d: a redirect from here would make a chain/);
      // Checked against what the whole file leaves: /company/about is marked gone by the next entry.
      expect(message("3.target")).toBe("/company/about is marked gone (410): choose a page that exists.");
      expect(message("4.from")).toBe("A page of the site is at this address. A redirect from it would never be used.");
      expect(message("5.target")).toBe("There is no page of the site at /no-such-page.");

      // The posts were written in the same transaction before these checks: rolled back with it.
      expect(await postTitle(db, "red-teaming-llm-applications")).not.toBe("Changed by the import");
      expect(await redirectRows(db)).toEqual([]);
      expect(await menuRows(db)).toEqual([]);
    });

    it("refuses malformed addresses and menus before anything is written", async () => {
      const dir = tempDir();
      await exportContent(db, dir);
      writeFileSync(
        path.join(dir, "redirects", "redirects.yaml"),
        [
          "- { from: '/x?y=1', kind: permanent, target: /company/about }",
          "- { from: /Y/, kind: permanent, target: /company/about }",
          "- { from: /y, kind: permanent, target: /company/careers }",
          "- { from: /gone, kind: gone, target: /company/about }",
          "- { from: /plain, kind: permanent, target: 'http://example.com/' }",
          "- { from: /typo, kinds: permanent, target: /company/about }",
          "",
        ].join("\n"),
      );
      mkdirSync(path.join(dir, "navigation"), { recursive: true });
      writeFileSync(path.join(dir, "navigation", "footer-links.yaml"), "- { label: '<b>Privacy</b>', to: /terms/privacy-policy }\n");
      writeFileSync(path.join(dir, "navigation", "sidebar.yaml"), "[]\n");

      const report = await importContent(db, dir);
      expect(report.written).toBe(false);
      expect(report.problems.map(formatProblem)).toEqual([
        "navigation/footer-links.yaml: 0.label: Labels are plain text: leave out HTML such as <script>.",
        "navigation/sidebar.yaml: file: is not a menu: name it header.yaml, footer.yaml, footer-links.yaml",
        "redirects/redirects.yaml: 5.kind: is required",
        "redirects/redirects.yaml: 5.kinds: is not a known field (check the spelling)",
      ]);
      // The fields' rules are the form's: with the file's shape right, each entry is checked.
      writeFileSync(
        path.join(dir, "redirects", "redirects.yaml"),
        readFileSync(path.join(dir, "redirects", "redirects.yaml"), "utf8").replace("kinds:", "kind:"),
      );
      expect((await importContent(db, dir)).problems.filter((problem) => problem.path.startsWith("redirects/"))).toEqual([
        { path: "redirects/redirects.yaml", field: "0.from", message: expect.stringMatching(/^Only the path: no query string/) },
        { path: "redirects/redirects.yaml", field: "3.target", message: "must be left out: a gone address leads nowhere" },
        { path: "redirects/redirects.yaml", field: "4.target", message: expect.stringMatching(/^Only https:\/\//) },
        { path: "redirects/redirects.yaml", field: "2.from", message: "/y is also redirected by redirects/redirects.yaml (1.from)" },
      ]);
      expect(await redirectRows(db)).toEqual([]);
      expect(await menuRows(db)).toEqual([]);
    });

    it("an export without the two folders imports as before and leaves menus and redirects alone", async () => {
      await editLikeTheBackOffice();
      const dir = tempDir();
      await exportContent(db, dir);
      rmSync(path.join(dir, "navigation"), { recursive: true });
      rmSync(path.join(dir, "redirects"), { recursive: true });
      const menus = await menuRows(db);
      const redirects = await redirectRows(db);

      const report = await importContent(db, dir);
      expect(report.problems).toEqual([]);
      expect(report.changes.filter((change) => change.table === "navigation_menus" || change.table === "redirects")).toEqual([]);
      expect(await menuRows(db)).toEqual(menus);
      expect(await redirectRows(db)).toEqual(redirects);
      expect((await listRedirects(db)).map((item) => item.from)).toContain("/resources/blog/red-teaming-101");
    });

    it("a dry run checks against the pages it brings and writes nothing; an export refuses what would not import back", async () => {
      await editLikeTheBackOffice();
      // A redirect and a menu link to a post that is then taken off the site.
      expect(
        await saveRedirect(db, { from: "/old-post", target: "/resources/blog/sentinel-2-4-release", kind: "permanent" }, actor),
      ).toMatchObject({ ok: true });
      const bottom = defaultDraft("footer-links");
      bottom[0]!.links.push({ label: "Release", to: "/resources/blog/sentinel-2-4-release" });
      expect(await saveMenu(db, editor, { menu: "footer-links", revision: 1, draft: bottom })).toMatchObject({ ok: true, changed: true });
      const dir = tempDir();
      expect((await exportContent(db, dir)).problems).toEqual([]);

      // Into an empty database the targets are pages and posts the same folder brings.
      const fresh = await emptyDatabase();
      try {
        const dry = await importContent(fresh, dir, { dryRun: true });
        expect(dry.problems.map(formatProblem)).toEqual([]);
        expect(dry.written).toBe(false);
        expect(dry.changes.filter((change) => change.table === "redirects").map((change) => change.action)).toEqual(Array(5).fill("create"));
        expect(await fresh.selectFrom("blog_posts").select("id").execute()).toEqual([]);
        expect(await redirectRows(fresh)).toEqual([]);
        expect(await menuRows(fresh)).toEqual([]);
      } finally {
        await fresh.destroy();
      }

      await db.updateTable("blog_posts").set({ published: false }).where("slug", "=", "sentinel-2-4-release").execute();
      const before = snapshot(dir);
      const report = await exportContent(db, dir);
      expect(report.written).toBe(false);
      const shown = path.relative(process.cwd(), dir);
      expect(report.problems.map(formatProblem)).toEqual([
        `${shown}/navigation/footer-links.yaml: 2.to: No page of this site has this address. Check the spelling, or publish the page first.`,
        `${shown}/redirects/redirects.yaml: 2.target: There is no page of the site at /resources/blog/sentinel-2-4-release.`,
      ]);
      expect(snapshot(dir)).toEqual(before);
    });
    it("a menu of another language goes out to its language's folder and comes back as that language's menu", async () => {
      const parsed = parseSiteLocales("en,de");
      if (!parsed.ok) throw new Error(parsed.problem);
      const german = parsed.locales[1]!;
      const header = defaultDraft("header");
      header[0]!.label = "Produkt";
      header[0]!.links[0]!.to = "/de/produkte/sentinel";
      expect(await saveMenu(db, editor, { menu: "header", revision: 0, draft: header, locale: german })).toMatchObject({ ok: true });

      const dir = tempDir();
      const exported = await exportContent(db, dir);
      expect(exported.problems.map(formatProblem)).toEqual([]);
      expect(readdirSync(path.join(dir, "navigation"))).toEqual(["de"]);
      expect(readdirSync(path.join(dir, "navigation", "de"))).toEqual(["header.yaml"]);
      expect(readFileSync(path.join(dir, "navigation", "de", "header.yaml"), "utf8")).toContain(
        "  label: Produkt\n  links:\n    - label:",
      );
      expect((await exportContent(db, dir)).written).toBe(false);

      const fresh = await emptyDatabase();
      try {
        const imported = await importContent(fresh, dir);
        expect(imported.problems.map(formatProblem)).toEqual([]);
        expect(imported.changes.filter((change) => change.table === "navigation_menus")).toEqual([
          { path: "navigation/de/header.yaml", table: "navigation_menus", key: "de:header", action: "create" },
        ]);
        expect(await menuRows(fresh)).toEqual(await menuRows(db));
      } finally {
        await fresh.destroy();
      }

      // A folder that names no language with a catalog stops the import, naming it.
      mkdirSync(path.join(dir, "navigation", "xx"));
      writeFileSync(path.join(dir, "navigation", "xx", "header.yaml"), "[]\n");
      const refused = await importContent(db, dir, { dryRun: true });
      expect(refused.problems.map(formatProblem)).toEqual([
        "navigation/xx: folder: names no language with a message catalog (de)",
      ]);
    });
  });
}
