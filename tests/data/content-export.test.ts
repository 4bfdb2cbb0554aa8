import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import sharp from "sharp";
import { storeUpload } from "~/features/media/media.server";
import { exportContent } from "~/features/content/content-export.server";
import { formatProblem } from "~/features/content/content-files.server";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { importContent } from "~/features/content/db/content-import.server";
import { findLegalDocument, listLegalVersions, parseLegalContent } from "~/features/legal/db/legal.server";
import { toBool, toIso } from "~/db/normalize";
import { findPublishedPost, listPublishedPosts, listScheduledPosts, toBlogPost } from "~/features/blog/db/posts.server";
import type { Database } from "~/db/schema";
import { createLegalDraft, draftFieldsOf, publishLegalDraft, saveLegalDraft, type Editor } from "~/features/legal/editing.server";
import { findLegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { engines, sqliteEngine } from "./support/engines";
import { addLegal, addPost } from "./support/fixtures";

// `content export` on both engines: the sample content, edited the way the back office edits it
// (a published new legal version, a legal draft, a scheduled post), is exported, imported into an
// empty database and exported again. The rows, the public pages' data and the files all come back
// the same, byte for byte; a row that would not come back is refused with nothing written.

const CONTENT_DIR = path.resolve("content");
const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };

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

/** The content tables as the site reads them, in a fixed order (legal rows have new ids in a new database). */
async function contentRows(db: Kysely<Database>) {
  const posts = (await db.selectFrom("blog_posts").selectAll().orderBy("id").execute()).map(toBlogPost);
  const legal = (await db.selectFrom("legal_documents").selectAll().execute())
    .map((row) => ({
      locale: row.locale,
      document_type: row.document_type,
      title: row.title,
      content: parseLegalContent(row.content),
      version: row.version,
      last_updated: toIso(row.last_updated),
      published: toBool(row.published),
      change_summary: row.change_summary,
      author_email: row.author_email,
      published_at: row.published_at === null ? null : toIso(row.published_at),
      published_by_email: row.published_by_email,
    }))
    .sort((a, b) =>
      `${a.document_type} ${a.version} ${a.locale}`.localeCompare(`${b.document_type} ${b.version} ${b.locale}`),
    );
  const media = (await db.selectFrom("media").selectAll().orderBy("id").execute()).map((row) => ({
    id: row.id,
    file_name: row.file_name,
    original_name: row.original_name,
    content_type: row.content_type,
    width: Number(row.width),
    height: Number(row.height),
    has_alpha: toBool(row.has_alpha),
    sha256: row.sha256,
    alt: row.alt,
    data: Buffer.from(row.data).toString("base64"),
    created_at: toIso(row.created_at),
  }));
  return { posts, legal, media };
}

/** What visitors are shown: the lists, every post page, the legal pages and their histories. */
async function publicData(db: Kysely<Database>) {
  const posts = await listPublishedPosts(db, { limit: 100, offset: 0 });
  const pages = await Promise.all(posts.map((post) => findPublishedPost(db, post.slug ?? post.id)));
  const legal = await Promise.all(
    (["privacy-policy", "terms-of-use"] as const).map(async (type) => {
      const { id: _id, created_at: _created, ...document } = (await findLegalDocument(db, type))!;
      return { document, versions: await listLegalVersions(db, type) };
    }),
  );
  return { posts, pages, legal, scheduled: await listScheduledPosts(db) };
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`content export on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let dirs: string[];
    const tempDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-export-test-"));
      dirs.push(dir);
      return dir;
    };
    const emptyDatabase = async (url?: string) => {
      const opened = await openDatabase(url ?? (await engine.create()), 2);
      await migrateToLatest(opened.db, opened.dialect);
      return opened.db;
    };

    beforeEach(async () => {
      dirs = [];
      db = await emptyDatabase();
      expect((await importContent(db, CONTENT_DIR)).problems).toEqual([]);
    });
    afterEach(async () => {
      await db.destroy();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    /** The sample content as the back office leaves it: a new privacy policy published, a terms draft, a scheduled post. */
    async function editLikeTheBackOffice() {
      const now = new Date();
      const created = await createLegalDraft(db, editor, { type: "privacy-policy" }, now);
      if (!created.ok) throw new Error(created.problem);
      const record = (await findLegalVersionRecord(db, created.value.id))!;
      const fields = draftFieldsOf(record);
      await saveLegalDraft(db, editor, {
        id: record.id,
        revision: 0,
        fields: {
          ...fields,
          changeSummary: "A contact section.",
          sections: [...fields.sections, { title: "Contact", content: "Write to privacy@quorvant.com.\n\nWe answer within a week." }],
        },
      });
      expect(await publishLegalDraft(db, editor, { id: record.id, revision: 1 }, now)).toMatchObject({ ok: true });
      const draft = await createLegalDraft(db, { ...editor, actor: { ...editor.actor, email: "max@quorvant.com" } }, { type: "terms-of-use" });
      expect(draft.ok).toBe(true);
      await addPost(db, { slug: "coming-soon", title: "Coming soon", published_date: "2099-01-01T09:30:00.123Z" });
      // An uploaded image, cleaned as an upload is, that a published post shows.
      await db.insertInto("admin_users").values({ id: editor.actor.id, email: editor.actor.email, created_at: now.toISOString() }).execute();
      const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#1d4ed8" } }).png().toBuffer();
      const upload = await storeUpload(db, new File([png], "Harbour view.png", { type: "image/png" }), "A harbour at dusk", {
        ...editor.actor,
        ip: editor.ip,
      });
      if (!upload.ok) throw new Error(JSON.stringify(upload.fieldErrors));
      await addPost(db, { slug: "with-an-upload", title: "With an upload", published_date: "2025-05-01T00:00:00.000Z", image_url: upload.image.url });
    }

    it("round-trips posts and every legal version: same rows, same public pages, byte-identical files", async () => {
      await editLikeTheBackOffice();
      const dir = tempDir();
      const first = await exportContent(db, dir);
      expect(first.problems.map(formatProblem)).toEqual([]);
      // The 11 sample posts (one a draft), their 3 German translations and the scheduled one (13 pages and their German ones); three privacy policies, the terms and their draft, and the German translations of both documents; four positions and one German translation.
      expect(first.summaries).toEqual(["16 posts (1 unpublished)", "7 legal versions (1 draft)", "1 image", "26 pages", "5 positions"]);
      // A German position in its language's folder, naming its English source by slug right after its own.
      expect(readdirSync(path.join(dir, "positions", "de"))).toEqual(["enterprise-account-executive.yaml"]);
      expect(readFileSync(path.join(dir, "positions", "de", "enterprise-account-executive.yaml"), "utf8")).toMatch(
        /^slug: enterprise-account-executive\ntranslation_of: enterprise-account-executive\ntitle: Enterprise Account Executive \(m\/w\/d\)\n/,
      );
      const [imageDetails, imageFile] = readdirSync(path.join(dir, "media")).sort();
      expect(imageFile).toMatch(/^[0-9a-f-]{36}\.png$/);
      expect(JSON.parse(readFileSync(path.join(dir, "media", imageDetails!), "utf8"))).toMatchObject({
        alt: "A harbour at dusk",
        file_name: "harbour-view",
        content_type: "image/png",
      });
      expect(readdirSync(path.join(dir, "legal")).sort()).toEqual([
        "privacy-policy-2.1.md",
        "privacy-policy-2.2-de.md",
        "privacy-policy-2.2.md",
        "privacy-policy-2.3.md",
        "terms-of-use-1.3-de.md",
        "terms-of-use-1.3.md",
        "terms-of-use-1.4.md",
      ]);
      // A translation's file names its language; the import links it to the English file of its version.
      expect(readFileSync(path.join(dir, "legal", "privacy-policy-2.2-de.md"), "utf8")).toMatch(
        /^---\nlocale: de\ndocument_type: privacy-policy\ntitle: Datenschutzerklärung\nversion: '2.2'\n/,
      );
      const draftFile = readFileSync(path.join(dir, "legal", "terms-of-use-1.4.md"), "utf8");
      expect(draftFile).toMatch(/^published: false$/m);
      expect(draftFile).toMatch(/^author_email: max@quorvant\.com$/m);
      const published = readFileSync(path.join(dir, "legal", "privacy-policy-2.3.md"), "utf8");
      expect(published).toMatch(/^change_summary: A contact section\.$/m);
      expect(published).toMatch(/^published_by_email: lena@quorvant\.com$/m);
      expect(published).toMatch(/## Contact\n\nWrite to privacy@quorvant\.com\.\n\nWe answer within a week\.\n$/);

      // The same database exported again, into the same folder and into a new one: the same bytes.
      const files = snapshot(dir);
      const again = await exportContent(db, dir);
      expect(again.written).toBe(false);
      expect(again.changes.every((change) => change.action === "unchanged")).toBe(true);
      expect(snapshot(dir)).toEqual(files);
      const elsewhere = tempDir();
      await exportContent(db, elsewhere);
      expect(snapshot(elsewhere)).toEqual(files);

      // Into an empty database: the same rows and the same public data; exported from there, the same bytes.
      const fresh = await emptyDatabase();
      try {
        const imported = await importContent(fresh, dir);
        expect(imported.problems.map(formatProblem)).toEqual([]);
        expect(await contentRows(fresh)).toEqual(await contentRows(db));
        expect(await publicData(fresh)).toEqual(await publicData(db));
        const third = tempDir();
        await exportContent(fresh, third);
        expect(snapshot(third)).toEqual(files);
        // And importing the export into the database it came from changes nothing.
        const onto = await importContent(db, dir);
        expect(onto.written).toBe(false);
      } finally {
        await fresh.destroy();
      }
    });

    it("writes nothing when a row would not import back as stored, and says which and why", async () => {
      const dir = tempDir();
      mkdirSync(path.join(dir, "posts"));
      writeFileSync(path.join(dir, "posts", "kept.md"), "left alone\n");
      const badSlug = randomUUID();
      await db
        .insertInto("blog_posts")
        .values({ id: randomUUID(), slug: "no-excerpt", title: "No excerpt", content: "Body", category: "News", author: "Ada", published: true })
        .execute();
      await db
        .insertInto("blog_posts")
        .values({ id: badSlug, slug: "Not A Slug", title: "Bad slug", excerpt: "E", content: "Body", category: "News", author: "Ada", published: false })
        .execute();
      const heading = await addLegal(db, {
        document_type: "terms-of-use",
        version: "2.0",
        last_updated: "2026-01-01T00:00:00.000Z",
        published: false,
        content: JSON.stringify({ sections: [{ title: "Scope", content: "One line\n## Looks like a heading" }] }),
      });
      const broken = await addLegal(db, {
        document_type: "terms-of-use",
        version: "2.1",
        last_updated: "2026-01-02T00:00:00.000Z",
        published: false,
        content: JSON.stringify({ sections: "none" }),
      });
      // A second row of a version (the database allows it; the import format does not): its file gets a suffix.
      await addLegal(db, { document_type: "privacy-policy", version: "2.1", last_updated: "2026-01-03T00:00:00.000Z", published: false });

      const report = await exportContent(db, dir);
      const shown = path.relative(process.cwd(), dir);
      expect(report.written).toBe(false);
      expect(report.problems.map(formatProblem).sort()).toEqual(
        [
          `${shown}/legal/privacy-policy-2.1.md: version: "2.1" of privacy-policy is also defined by ${shown}/legal/privacy-policy-2.1-2.md (each version of a document needs its own version string)`,
          `${shown}/legal/terms-of-use-2.0.md: body: a line of section "Scope" starts with "## ", which the import would read as a new section (row ${heading})`,
          `${shown}/legal/terms-of-use-2.1.md: body: Invalid document content structure in the database (version 2.1 of terms-of-use, row ${broken})`,
          `${shown}/posts/no-excerpt.md: excerpt: must not be empty`,
          `${shown}/posts/post-${badSlug}.md: slug: must be lowercase letters, digits and single hyphens, e.g. ai-governance-basics`,
        ].sort(),
      );
      expect(snapshot(dir)).toEqual({ [path.join("posts", "kept.md")]: Buffer.from("left alone\n").toString("base64") });
    });

    it("replaces what an earlier export wrote: files of deleted rows go, other files stay", async () => {
      const dir = tempDir();
      await exportContent(db, dir);
      writeFileSync(path.join(dir, "README.txt"), "backup of the website content\n");
      writeFileSync(path.join(dir, "posts", "notes.txt"), "not content\n");
      await db.deleteFrom("blog_posts").where("slug", "=", "sentinel-2-4-release").execute();
      await db.updateTable("blog_posts").set({ title: "Red Teaming, Revised" }).where("slug", "=", "red-teaming-llm-applications").execute();

      const report = await exportContent(db, dir);
      expect(report.changes.filter((change) => change.action !== "unchanged")).toEqual([
        { path: "posts/red-teaming-llm-applications.md", action: "update" },
        { path: "posts/sentinel-2-4-release.md", action: "remove" },
      ]);
      expect(existsSync(path.join(dir, "posts", "sentinel-2-4-release.md"))).toBe(false);
      expect(readFileSync(path.join(dir, "README.txt"), "utf8")).toBe("backup of the website content\n");
      expect(existsSync(path.join(dir, "posts", "notes.txt"))).toBe(true);
    });

    it.skipIf(engine.name !== "postgres")("moves a site from SQLite to PostgreSQL", async () => {
      const sqlite = sqliteEngine();
      const source = await emptyDatabase(await sqlite.create());
      try {
        await importContent(source, CONTENT_DIR);
        const dir = tempDir();
        await exportContent(source, dir);
        const target = await emptyDatabase();
        try {
          expect((await importContent(target, dir)).problems).toEqual([]);
          expect(await publicData(target)).toEqual(await publicData(source));
          const back = tempDir();
          await exportContent(target, back);
          expect(snapshot(back)).toEqual(snapshot(dir));
        } finally {
          await target.destroy();
        }
      } finally {
        await source.destroy();
        await sqlite.cleanup();
      }
    });
  });
}
