import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatProblem } from "~/features/content/content-files.server";
import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import { importContent, seedSampleContent } from "~/features/content/db/content-import.server";
import { migrationProvider } from "~/db/migrations";
import { closeDatabase, getDb, getDialect, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { insertLead, listLeads } from "~/features/leads/db/leads.server";
import { findLegalDocument, isValidLegalContent } from "~/features/legal/db/legal.server";
import {
  countPublishedPosts,
  findFeaturedPost,
  findPublishedPost,
  findPublishedPostCard,
  latestPostUpdate,
  listPublishedCategories,
  listPublishedPosts,
  listScheduledPosts,
} from "~/features/blog/db/posts.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addLegal, addPost } from "./support/fixtures";

// One suite, both engines: every repository behaviour must hold on SQLite and on PostgreSQL alike.

const CONTENT_DIR = path.resolve("content");
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`data layer on ${engine.name}`, () => {
    let url: string;
    let opened: OpenDatabase;
    let db: Kysely<Database>;

    beforeEach(async () => {
      const fresh = await migratedDatabase(engine, 4);
      ({ url, db } = fresh);
      opened = fresh;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await closeDatabase();
      await engine.cleanup();
    });

    it("reports its dialect and applies migrations idempotently", async () => {
      expect(opened.dialect).toBe(engine.name);
      await migrateToLatest(db, opened.dialect);
      await migrateToLatest(db, opened.dialect);
      const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      const known = Object.keys(await migrationProvider(opened.dialect).getMigrations()).sort();
      expect(migrations.rows.map((row) => row.name)).toEqual(known);
      const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining([
        "admin_invitations",
        "admin_passkeys",
        "admin_sessions",
        "admin_sign_in_states",
        "admin_user_roles",
        "admin_users",
        "app_secrets",
        "audit_log",
        "blog_posts",
        "career_applications",
        "demo_requests",
        "lead_deliveries",
        "legal_documents",
        "media",
        "sales_leads",
        "blog_post_revisions",
        "blog_slug_redirects",
      ]),
      );
    });

    it("lists published posts newest first, pages them without overlap, and never returns drafts", async () => {
      await addPost(db, { title: "Oldest", published_date: "2025-01-01T00:00:00.000Z" });
      await addPost(db, { title: "Newest draft", published_date: "2025-12-01T00:00:00.000Z", published: false, featured: true, slug: "draft" });
      await addPost(db, { title: "Middle", published_date: "2025-06-01T00:00:00.000Z" });
      await addPost(db, { title: "Newest", published_date: "2025-09-01T00:00:00.000Z" });
      const tieA = await addPost(db, { title: "Tie", published_date: "2025-03-01T00:00:00.000Z" });
      const tieB = await addPost(db, { title: "Tie", published_date: "2025-03-01T00:00:00.000Z" });

      const all = await listPublishedPosts(db, { limit: 10 });
      expect(all.map((post) => post.title)).toEqual(["Newest", "Middle", "Tie", "Tie", "Oldest"]);
      expect(all.slice(2, 4).map((post) => post.id)).toEqual([tieA.id, tieB.id].sort().reverse());
      const pages = [
        ...(await listPublishedPosts(db, { limit: 2 })),
        ...(await listPublishedPosts(db, { limit: 2, offset: 2 })),
        ...(await listPublishedPosts(db, { limit: 2, offset: 4 })),
      ];
      expect(pages.map((post) => post.id)).toEqual(all.map((post) => post.id));

      expect(await countPublishedPosts(db)).toBe(5);
      expect(await findPublishedPost(db, "draft")).toBeUndefined();
      expect((await findFeaturedPost(db))?.title).toBe("Newest");
      expect(all.every((post) => post.published)).toBe(true);
    });

    it("filters by category, counts per category, lists categories in use and excludes one post", async () => {
      const first = await addPost(db, { category: "Security", published_date: "2025-02-01T00:00:00.000Z" });
      await addPost(db, { category: "Security", published_date: "2025-03-01T00:00:00.000Z" });
      await addPost(db, { category: "Compliance", published_date: "2025-04-01T00:00:00.000Z" });
      await addPost(db, { category: "AI Governance", published_date: "2025-05-01T00:00:00.000Z" });
      await addPost(db, { category: "Unreleased", published_date: "2025-05-01T00:00:00.000Z", published: false });

      expect(await listPublishedCategories(db)).toEqual(["AI Governance", "Compliance", "Security"]);
      expect(await countPublishedPosts(db, { category: "Security" })).toBe(2);
      expect(await countPublishedPosts(db, { category: "Unreleased" })).toBe(0);
      expect(await countPublishedPosts(db, { excludeId: first.id })).toBe(3);
      expect(await countPublishedPosts(db, { category: "Security", excludeId: first.id })).toBe(1);
      // A value that is not an id excludes nothing (and must not upset PostgreSQL's uuid column).
      expect(await countPublishedPosts(db, { excludeId: "not-a-uuid" })).toBe(4);
      const security = await listPublishedPosts(db, { limit: 10, category: "Security" });
      expect(security.map((post) => post.category)).toEqual(["Security", "Security"]);
      expect((await listPublishedPosts(db, { limit: 10, category: "Security", excludeId: first.id })).map((p) => p.id)).not.toContain(first.id);
    });

    it("features the newest published featured post, else the newest published post", async () => {
      expect(await findFeaturedPost(db)).toBeUndefined();
      await addPost(db, { title: "Plain new", published_date: "2025-08-01T00:00:00.000Z" });
      await addPost(db, { title: "Plain old", published_date: "2025-01-01T00:00:00.000Z" });
      expect((await findFeaturedPost(db))?.title).toBe("Plain new");
      await addPost(db, { title: "Featured old", published_date: "2025-02-01T00:00:00.000Z", featured: true });
      await addPost(db, { title: "Featured older", published_date: "2025-01-15T00:00:00.000Z", featured: true });
      await addPost(db, { title: "Featured draft", published_date: "2025-09-01T00:00:00.000Z", featured: true, published: false });
      expect((await findFeaturedPost(db))?.title).toBe("Featured old");
    });

    it("hides a post scheduled for later from every read until its time, and lists it as scheduled", async () => {
      await addPost(db, { slug: "live", title: "Live", category: "News", published_date: "2025-01-01T00:00:00.000Z" });
      const soon = new Date(Date.now() + 60 * 60_000).toISOString();
      const later = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
      await addPost(db, { slug: "later", title: "Later", category: "Launches", published_date: later, featured: true });
      await addPost(db, { slug: "soon", title: "Soon", category: "Launches", published_date: soon });
      await addPost(db, { slug: "draft", title: "Draft", published_date: soon, published: false });
      expect((await listPublishedPosts(db, { limit: 10 })).map((post) => post.title)).toEqual(["Live"]);
      expect(await countPublishedPosts(db)).toBe(1);
      expect(await listPublishedCategories(db)).toEqual(["News"]);
      expect((await findFeaturedPost(db))?.title).toBe("Live");
      expect(await findPublishedPost(db, "soon")).toBeUndefined();
      expect((await listScheduledPosts(db)).map((post) => [post.title, post.published_date])).toEqual([
        ["Soon", soon],
        ["Later", later],
      ]);
      // Its time comes: visible, and no longer scheduled.
      await db.updateTable("blog_posts").set({ published_date: new Date(Date.now() - 1000).toISOString() }).where("slug", "=", "soon").execute();
      expect((await findPublishedPost(db, "soon"))?.title).toBe("Soon");
      expect((await listScheduledPosts(db)).map((post) => post.title)).toEqual(["Later"]);
    });

    it("finds a published post by slug first, then by id", async () => {
      const withSlug = await addPost(db, { slug: "zero-trust", title: "By slug", published_date: "2025-01-01T00:00:00.000Z" });
      const slugless = await addPost(db, { title: "By id", published_date: "2025-01-02T00:00:00.000Z" });
      // A slug that happens to be another post's id: the slug wins.
      const shadow = await addPost(db, { slug: slugless.id, title: "Slug shaped like an id", published_date: "2025-01-03T00:00:00.000Z" });
      const draft = await addPost(db, { title: "Draft", published_date: "2025-01-04T00:00:00.000Z", published: false });

      expect((await findPublishedPost(db, "zero-trust"))?.id).toBe(withSlug.id);
      expect((await findPublishedPost(db, withSlug.id))?.title).toBe("By slug");
      expect((await findPublishedPost(db, slugless.id))?.id).toBe(shadow.id);
      await db.deleteFrom("blog_posts").where("id", "=", shadow.id).execute();
      expect((await findPublishedPost(db, slugless.id))?.title).toBe("By id");
      expect((await findPublishedPost(db, slugless.id.toUpperCase()))?.title).toBe("By id");
      expect(await findPublishedPost(db, draft.id)).toBeUndefined();
      expect(await findPublishedPost(db, "no-such-post")).toBeUndefined();
    });

    it("reads a published post's card fields and version, by slug then id, never a draft's", async () => {
      const post = await addPost(db, { slug: "card", title: "Card title", published_date: "2025-03-05T10:00:00.000Z" });
      const slugless = await addPost(db, { title: "Slugless", published_date: "2025-01-02T00:00:00.000Z" });
      const draft = await addPost(db, { slug: "draft-card", title: "Draft", published_date: "2025-01-04T00:00:00.000Z", published: false });
      const card = await findPublishedPostCard(db, "card");
      expect(card).toEqual({
        id: post.id,
        title: "Card title",
        category: expect.any(String),
        author: expect.any(String),
        published_date: "2025-03-05T10:00:00.000Z",
        image_url: null,
        updated_at: expect.stringMatching(ISO),
      });
      expect(Object.keys(card!)).not.toContain("content");
      expect((await findPublishedPostCard(db, slugless.id.toUpperCase()))?.title).toBe("Slugless");
      expect(await findPublishedPostCard(db, "draft-card")).toBeUndefined();
      expect(await findPublishedPostCard(db, draft.id)).toBeUndefined();
      expect(await findPublishedPostCard(db, "no-such-post")).toBeUndefined();
    });

    it("reads summaries for lists without the content, and the whole post only for its page", async () => {
      const row = await addPost(db, { slug: "summary", title: "Summary", published_date: "2025-04-05T06:07:08.000Z", featured: true });
      const summaries = [...(await listPublishedPosts(db, { limit: 10 })), (await findFeaturedPost(db))!];
      expect(summaries).toHaveLength(2);
      for (const summary of summaries) {
        expect(summary).not.toHaveProperty("content");
        expect(Object.keys(summary).sort()).toEqual(
          [
            "author",
            "category",
            "created_at",
            "excerpt",
            "featured",
            "id",
            "image_url",
            "locale",
            "published",
            "published_date",
            "read_time",
            "slug",
            "title",
            "updated_at",
          ].sort(),
        );
        expect(summary).toMatchObject({ id: row.id, published_date: "2025-04-05T06:07:08.000Z", featured: true, read_time: 4 });
      }
      expect(await findPublishedPost(db, "summary")).toMatchObject({ ...summaries[0], content: "Body of Summary" });
    });

    it("returns ISO dates and real booleans", async () => {
      const row = await addPost(db, { slug: "shape", published_date: "2025-04-05T06:07:08.000Z", featured: true });
      const post = await findPublishedPost(db, "shape");
      expect(post).toMatchObject({ id: row.id, published_date: "2025-04-05T06:07:08.000Z", featured: true, published: true, read_time: 4, image_url: null });
      expect(post!.created_at).toMatch(ISO);
      expect(post!.updated_at).toMatch(ISO);
      expect(typeof post!.featured).toBe("boolean");
      expect(await latestPostUpdate(db)).toBe(post!.updated_at);
      // Defaults set by the database itself (as an editor's tool would rely on) are ISO too.
      await sql`insert into blog_posts (id, title, published) values (${"0b0e7a4c-1d2f-4a6b-8c9d-0e1f2a3b4c5d"}, ${"Raw"}, ${true})`.execute(db);
      const raw = await findPublishedPost(db, "0b0e7a4c-1d2f-4a6b-8c9d-0e1f2a3b4c5d");
      expect(raw).toMatchObject({ featured: false, published: true, excerpt: "" });
      expect(raw!.published_date).toMatch(ISO);
      expect(raw!.created_at).toMatch(ISO);
    });

    it("shows the newest published legal document by last_updated, version defaulting to 1.0", async () => {
      expect(await findLegalDocument(db, "privacy-policy")).toBeUndefined();
      await addLegal(db, { document_type: "privacy-policy", last_updated: "2024-01-01T00:00:00.000Z", published: true, version: "1.0" });
      const newest = await addLegal(db, { document_type: "privacy-policy", last_updated: "2025-02-01T00:00:00.000Z", published: true, version: "0.9" });
      await addLegal(db, { document_type: "privacy-policy", last_updated: "2025-12-01T00:00:00.000Z", published: false, version: "3.0" });
      await addLegal(db, { document_type: "terms-of-use", last_updated: "2026-01-01T00:00:00.000Z", published: true });

      const privacy = await findLegalDocument(db, "privacy-policy");
      expect(privacy).toMatchObject({ id: newest, document_type: "privacy-policy", version: "0.9", published: true, last_updated: "2025-02-01T00:00:00.000Z" });
      expect(privacy!.created_at).toMatch(ISO);
      expect(isValidLegalContent(privacy!.content)).toBe(true);
      expect(privacy!.content).toEqual({ sections: [{ title: "One", content: "Text" }] });
      expect((await findLegalDocument(db, "terms-of-use"))?.version).toBe("1.0");
    });

    it("hands legal content that breaks the sections structure to the page as it is", async () => {
      await addLegal(db, { document_type: "terms-of-use", last_updated: "2025-01-01T00:00:00.000Z", published: true, content: JSON.stringify({ sections: [{ title: 1 }] }) });
      const doc = await findLegalDocument(db, "terms-of-use");
      expect(doc!.content).toEqual({ sections: [{ title: 1 }] });
      expect(isValidLegalContent(doc!.content)).toBe(false);
      expect(isValidLegalContent({ sections: "x" })).toBe(false);
      expect(isValidLegalContent("{")).toBe(false);
      expect(isValidLegalContent({ sections: [] })).toBe(true);
    });

    it("inserts leads, returns their ids, stores them exactly and applies the column defaults", async () => {
      const tracking = {
        source_page: "/contact-sales",
        landing_page: "/products/sentinel",
        referrer_host: "news.example.com",
        utm_source: "newsletter",
        utm_medium: "email",
        utm_campaign: "",
        utm_term: "ai governance",
        utm_content: "",
        first_utm_source: "linkedin",
        first_utm_medium: "social",
        first_utm_campaign: "q3",
        first_utm_term: "",
        first_utm_content: "hero",
      };
      const sales = { first_name: "Zoë", last_name: "O'Brien", email: "zoe@example.com", company: "Acme; DROP TABLE", phone: "+1 555 0100", message: "Line 1\nLine 2 ✓", product_name: "General", ...tracking };
      const salesId = await insertLead(db, "contact-sales", sales);
      const demo = { first_name: "Ann", last_name: "Lee", email: "ann@example.com", company: "Beta", job_title: "CISO", phone: "", company_size: "51-200", message: "", product_name: "Sentinel", ...tracking };
      const demoId = await insertLead(db, "request-demo", demo);
      const career = { first_name: "Raj", last_name: "Patel", email: "raj@example.com", phone: "", linkedin_profile: "https://www.linkedin.com/in/raj", years_experience: 0, current_position: "", why_quorvant: "Governance matters", biggest_achievement: "", work_style: "hybrid", resume_url: "https://example.com/cv.pdf", ...tracking };
      const careerId = await insertLead(db, "career-application", career);
      const careerNull = await insertLead(db, "career-application", { ...career, years_experience: null });
      for (const id of [salesId, demoId, careerId, careerNull]) expect(id).toMatch(/^[0-9a-f-]{36}$/);

      const [salesRow] = await listLeads(db, "sales_leads", {});
      // Written without a locale: English (migration 0020-locales).
      const english = { locale: "en" };
      expect(salesRow).toEqual({ id: salesId, created_at: expect.stringMatching(ISO), ...sales, ...english });
      expect((await listLeads(db, "demo_requests", {}))[0]).toEqual({ id: demoId, created_at: expect.stringMatching(ISO), ...demo, ...english });
      const careers = new Map((await listLeads(db, "career_applications", {})).map((row) => [row.id, row]));
      // Stored without a position: open applications (migration 0018-application-positions).
      const openApplication = { position_id: null, position_title: null, position_requested: null };
      expect(careers.get(careerId)).toEqual({ id: careerId, created_at: expect.stringMatching(ISO), ...career, ...openApplication, ...english });
      expect(careers.get(careerNull)).toEqual({ id: careerNull, created_at: expect.stringMatching(ISO), ...career, years_experience: null, ...openApplication, ...english });

      // The columns' defaults, as a tool writing the tables directly would get them.
      await db.insertInto("sales_leads").values({ id: "5e1c0c1e-0000-4000-8000-000000000001", email: "x@example.com" }).execute();
      await db.insertInto("demo_requests").values({ id: "5e1c0c1e-0000-4000-8000-000000000002", email: "y@example.com" }).execute();
      const salesDefaults = (await listLeads(db, "sales_leads", {})).find((row) => row.email === "x@example.com");
      expect(salesDefaults).toMatchObject({ product_name: "General", first_name: "", utm_source: "", locale: "en" });
      const demoDefaults = (await listLeads(db, "demo_requests", {})).find((row) => row.email === "y@example.com");
      expect(demoDefaults).toMatchObject({ product_name: "Sentinel" });

      expect(await listLeads(db, "sales_leads", { since: "2999-01-01" })).toEqual([]);
      expect((await listLeads(db, "sales_leads", { since: "2000-01-01" })).length).toBe(2);
    });

    it("keeps its data when the database is closed and opened again", async () => {
      await addPost(db, { slug: "durable", published_date: "2025-01-01T00:00:00.000Z" });
      const leadId = await insertLead(db, "contact-sales", { first_name: "A", last_name: "B", email: "a@b.co", company: "", phone: "", message: "", product_name: "General", source_page: "/", utm_source: "", utm_medium: "", utm_campaign: "" });
      await db.destroy();
      opened = await openDatabase(url, 2);
      db = opened.db;
      await migrateToLatest(db, opened.dialect);
      expect((await findPublishedPost(db, "durable"))?.slug).toBe("durable");
      expect((await listLeads(db, "sales_leads", {})).map((row) => row.id)).toEqual([leadId]);
    });

    it("imports the sample content; a second import changes nothing", async () => {
      const first = await importContent(db, CONTENT_DIR);
      expect(first.problems).toEqual([]);
      expect(first.changes.every((change) => change.action === "create")).toBe(true);
      const snapshot = await db.selectFrom("blog_posts").select(["id", "slug", "updated_at"]).orderBy("id").execute();
      const legalSnapshot = await db.selectFrom("legal_documents").selectAll().orderBy("id").execute();

      const second = await importContent(db, CONTENT_DIR);
      expect(second.written).toBe(false);
      expect(second.changes.map((change) => change.action)).toEqual(first.changes.map(() => "unchanged"));
      expect(await db.selectFrom("blog_posts").select(["id", "slug", "updated_at"]).orderBy("id").execute()).toEqual(snapshot);
      expect(await db.selectFrom("legal_documents").selectAll().orderBy("id").execute()).toEqual(legalSnapshot);

      // What the sample content promises: ≥ 9 published posts, ≥ 4 categories, one featured, a draft, a slugless post.
      expect(await countPublishedPosts(db)).toBeGreaterThanOrEqual(9);
      expect((await listPublishedCategories(db)).length).toBeGreaterThanOrEqual(4);
      expect((await findFeaturedPost(db))?.featured).toBe(true);
      expect(await db.selectFrom("blog_posts").select("id").where("published", "=", false).execute()).toHaveLength(1);
      const slugless = await db.selectFrom("blog_posts").select("id").where("slug", "is", null).where("published", "=", true).execute();
      expect(slugless).toHaveLength(1);
      expect((await findPublishedPost(db, slugless[0]!.id))?.slug).toBeNull();
      for (const type of ["privacy-policy", "terms-of-use"] as const) {
        const doc = await findLegalDocument(db, type);
        expect(isValidLegalContent(doc?.content)).toBe(true);
        expect((doc!.content as { sections: unknown[] }).sections.length).toBeGreaterThanOrEqual(6);
      }
    });

    describe("with a copy of the content folder", () => {
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-content-"));
        cpSync(CONTENT_DIR, dir, { recursive: true });
      });
      afterEach(() => rmSync(dir, { recursive: true, force: true }));
      const edit = (file: string, change: (text: string) => string) => {
        const target = path.join(dir, file);
        writeFileSync(target, change(readFileSync(target, "utf8")));
      };

      it("writes nothing when one file is malformed and names the file and the field", async () => {
        edit("posts/red-teaming-llm-applications.md", (text) => text.replace("read_time: 9", "read_time: soon"));
        const report = await importContent(db, dir);
        expect(report.written).toBe(false);
        const messages = report.problems.map(formatProblem);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatch(/^.*posts\/red-teaming-llm-applications\.md: read_time: must be a whole number of minutes$/);
        expect(await db.selectFrom("blog_posts").select("id").execute()).toEqual([]);
        expect(await db.selectFrom("legal_documents").select("id").execute()).toEqual([]);
      });

      it("updates only what changed, bumping updated_at of that post alone, and dry runs write nothing", async () => {
        await importContent(db, dir);
        const before = await db.selectFrom("blog_posts").select(["slug", "updated_at", "title"]).orderBy("id").execute();
        edit("posts/building-an-ai-model-inventory.md", (text) => text.replace("Building an AI Model Inventory You Can Trust", "An AI Model Inventory You Can Trust"));
        edit("legal/terms-of-use.md", (text) => text.replace("## Contact\n", "## Contact us\n"));

        const dry = await importContent(db, dir, { dryRun: true });
        expect(dry.changes.filter((change) => change.action !== "unchanged").map((change) => change.key)).toEqual([
          "building-an-ai-model-inventory",
          "terms-of-use@1.3",
        ]);
        expect(await db.selectFrom("blog_posts").select(["slug", "updated_at", "title"]).orderBy("id").execute()).toEqual(before);

        await new Promise((resolve) => setTimeout(resolve, 5));
        const real = await importContent(db, dir);
        expect(real.written).toBe(true);
        const after = await db.selectFrom("blog_posts").select(["slug", "updated_at", "title"]).orderBy("id").execute();
        const changed = after.filter((row, index) => JSON.stringify(row) !== JSON.stringify(before[index]));
        expect(changed.map((row) => [row.slug, row.title])).toEqual([["building-an-ai-model-inventory", "An AI Model Inventory You Can Trust"]]);
        const terms = await findLegalDocument(db, "terms-of-use");
        expect((terms!.content as { sections: { title: string }[] }).sections.at(-1)?.title).toBe("Contact us");
      });
    });

    it("initDatabase migrates and seeds empty tables with SEED=auto, and seeds nothing with SEED=never", async () => {
      const never = await engine.create();
      await initDatabase({ DATABASE_URL: never, DATABASE_POOL_SIZE: 2, SEED: "never" });
      expect(getDialect()).toBe(engine.name);
      expect(await countPublishedPosts(getDb())).toBe(0);
      expect(await findLegalDocument(getDb(), "privacy-policy")).toBeUndefined();
      await closeDatabase();

      await initDatabase({ DATABASE_URL: never, DATABASE_POOL_SIZE: 2, SEED: "auto" }, seedSampleContent);
      await initDatabase({ DATABASE_URL: never, DATABASE_POOL_SIZE: 2, SEED: "auto" }, seedSampleContent);
      const seeded = await countPublishedPosts(getDb());
      expect(seeded).toBeGreaterThanOrEqual(9);
      expect(await findLegalDocument(getDb(), "terms-of-use")).toBeDefined();
      // Not empty any more: an editor's deletion of one post is not undone by a restart.
      await getDb().deleteFrom("blog_posts").where("slug", "=", "sentinel-2-4-release").execute();
      await closeDatabase();
      await initDatabase({ DATABASE_URL: never, DATABASE_POOL_SIZE: 2, SEED: "auto" }, seedSampleContent);
      expect(await countPublishedPosts(getDb())).toBe(seeded - 1);
      await closeDatabase();
    });
  });
}
