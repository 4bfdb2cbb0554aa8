import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkPostBeforePublish } from "~/features/blog/post-checks.server";
import { savePost } from "~/features/blog/post-editor.server";
import type { PostFields } from "~/features/blog/db/post-editing.server";
import type { PageSnapshot } from "~/features/content/content-types";
import { seedSampleContent } from "~/features/content/db/content-import.server";
import { listDocuments } from "~/features/content/documents.server";
import { setContentChangeListener, type ContentChange } from "~/features/content/publish-hook.server";
import { IMAGE_BUDGET_BYTES } from "~/features/content/publish-checks.server";
import { insertImportedMedia } from "~/features/media/db/media.server";
import { checkPageBeforePublish } from "~/features/pages/page-checks.server";
import { findPageForEditor, findPublishedPage, publishPage, savePage } from "~/features/pages/page-documents.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";

// The checks a page or a post must pass before it goes live, on both engines (whether a link
// leads to a page, and how large an image is, are questions for the database): each problem told
// at its block or field, publishing refused with nothing written, a draft always saved, and the
// sample content passing them all.

const page = (blocks: unknown[], overrides: Partial<PageSnapshot> = {}): PageSnapshot => ({
  path: "/solutions/banks",
  title: "Banks",
  description: "AI governance for banks",
  noindex: false,
  blocks: blocks as PageSnapshot["blocks"],
  ...overrides,
});

const hero = { type: "hero", title: "Govern every model", lede: "From one place." };

const post = (overrides: Partial<PostFields> = {}): PostFields => ({
  title: "Checked before it goes live",
  slug: "checked-post",
  excerpt: "Excerpt",
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

const ok = <T extends { ok: boolean }>(outcome: T) => {
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { ok: true }>;
};

const messages = (problems: { message: string }[]) => problems.map((problem) => problem.message);

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the checks before publishing on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const editor = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };
    const changes: ContentChange[] = [];

    /** An image of the media library, as the content import stores one: `bytes` long, whatever they are. */
    async function libraryImage(bytes: number, alt: string) {
      const id = randomUUID();
      const data = Buffer.alloc(bytes, 7);
      await insertImportedMedia(db, id, {
        fileName: "chart",
        originalName: "chart.png",
        contentType: "image/png",
        width: 1600,
        height: 900,
        hasAlpha: false,
        sha256: createHash("sha256").update(data).digest("hex"),
        alt,
        data,
        createdBy: null,
        createdAt: new Date().toISOString(),
      });
      return `/media/${id}/chart.png`;
    }

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      editor.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: editor.actor.id, email: editor.actor.email, created_at: new Date().toISOString() }).execute();
      changes.length = 0;
      setContentChangeListener((change) => changes.push(change));
    });
    afterEach(async () => {
      setContentChangeListener(undefined);
      await closeDatabase();
    });
    afterAll(() => engine.cleanup());

    it("tells each problem of a page at its block: links that lead nowhere, the outline, names, anchors, images over the budget", async () => {
      const big = await libraryImage(12_500_000, "A heavy chart");
      const small = await libraryImage(20_000, "A light chart");
      const problems = await checkPageBeforePublish(
        db,
        page(
          [
            // No heading here: the page's first heading is still the hero's.
            { type: "rich-text", body: "Before the hero." },
            { ...hero, visual: "image", image: { src: big, alt: "A heavy chart", width: 1600, height: 900 } },
            {
              type: "item-grid",
              anchor: "features",
              title: "Features",
              intro: "See [the guide](/no-such-page#install) and [this page](/solutions/banks?utm_source=x).",
              items: [{ title: "Inventory" }],
            },
            { type: "rich-text", anchor: "features", title: "More", body: "Read [](/contact-sales) or [insurers](/solutions/insurers)." },
            { type: "latest-insights" },
            { type: "hero", title: "A second main heading" },
            { type: "rich-text", body: `![](${small})` },
          ],
          { canonicalPath: "/solutions/missing", image: big },
        ),
      );
      expect(messages(problems)).toEqual([
        'Block 2 (Hero): the image "A heavy chart" is 12.5 MB; an image may be at most 10 MB. Export it smaller and upload it again.',
        "Block 3 (Grid of items): the link to /no-such-page leads to no page of the site.",
        'Block 4 (Rich text): the anchor "features" is used twice on the page: give each section its own.',
        "Block 4 (Rich text): a link has no text, so people using a screen reader cannot tell where it leads: give it words.",
        "Block 4 (Rich text): the link to /solutions/insurers leads to no page of the site.",
        'Block 6 (Hero): the heading "A second main heading" is a second main heading (level 1): a page has one, in its Hero block.',
        "Block 7 (Rich text): an image has no alt text: describe it for people who cannot see it.",
        'Social image: the image "A heavy chart" is 12.5 MB; an image may be at most 10 MB. Export it smaller and upload it again.',
        "Canonical path: the link to /solutions/missing leads to no page of the site.",
      ]);
      expect(problems.map((problem) => [problem.rule, problem.where])).toEqual([
        ["image-too-large", { block: 1, label: "Hero" }],
        ["broken-link", { block: 2, label: "Grid of items" }],
        ["no-dup-id", { block: 3, label: "Rich text" }],
        ["wcag/h30", { block: 3, label: "Rich text" }],
        ["broken-link", { block: 3, label: "Rich text" }],
        ["heading-level", { block: 5, label: "Hero" }],
        ["wcag/h37", { block: 6, label: "Rich text" }],
        ["image-too-large", { field: "image", label: "Social image" }],
        ["broken-link", { field: "canonicalPath", label: "Canonical path" }],
      ]);
    });

    it("wants the main heading first, and a link to a page only once that page is published", async () => {
      const withoutHero = page([{ type: "item-grid", title: "Features", items: [{ title: "Inventory" }] }]);
      expect(messages(await checkPageBeforePublish(db, withoutHero))).toEqual([
        'Block 1 (Grid of items): the page starts with a level 2 heading "Features": it needs its main heading (level 1) first, as a Hero block gives it.',
      ]);

      const linking = page([hero, { type: "cta-band", title: "Next", actions: [{ label: "Insurers", href: "/solutions/insurers" }] }]);
      const other = ok(await savePage(db, editor, { baseRevision: 0, page: page([hero], { path: "/solutions/insurers", title: "Insurers" }) }));
      expect(messages(await checkPageBeforePublish(db, linking))).toEqual([
        "Block 2 (Call to action): the link to /solutions/insurers leads to a page or post that is not published.",
      ]);
      ok(await publishPage(db, editor, { id: other.id, baseRevision: 1 }));
      expect(await checkPageBeforePublish(db, linking)).toEqual([]);
    });

    it("passes a page whose links lead to pages and whose images are within the budget", async () => {
      const image = await libraryImage(IMAGE_BUDGET_BYTES, "A chart at the budget");
      const valid = page(
        [
          { ...hero, visual: "image", image: { src: image, alt: "A chart at the budget", width: 1600, height: 900 } },
          {
            type: "link-groups",
            title: "Explore",
            groups: [
              {
                title: "Here",
                links: [
                  { label: "Talk to sales", href: "/contact-sales?utm_source=page" },
                  { label: "This page", href: "/solutions/banks#explore" },
                  { label: "The feed", href: "/rss.xml" },
                ],
              },
              {
                title: "Elsewhere",
                links: [
                  { label: "A standard", href: "https://example.com/no-such-page" },
                  { label: "Write to us", href: "mailto:hello@quorvant.com" },
                ],
              },
            ],
          },
          { type: "rich-text", title: "Notes", body: "## A sub-heading\n\n![A remote chart](https://example.com/huge.png)" },
          { type: "latest-insights" },
        ],
        { image: "https://example.com/card.png" },
      );
      expect(await checkPageBeforePublish(db, valid)).toEqual([]);
    });

    it("refuses to publish or schedule a page that fails a check, and writes nothing", async () => {
      const { id } = ok(await savePage(db, editor, { baseRevision: 0, page: page([hero]) }));
      ok(await publishPage(db, editor, { id, baseRevision: 1 }));
      const broken = page([{ ...hero, title: "New words" }, { type: "rich-text", body: "See [the guide](/no-such-page)." }]);
      // Saving a draft is never held up by the checks.
      ok(await savePage(db, editor, { id, baseRevision: 1, page: broken }));
      const before = await findPageForEditor(db, id);
      const auditBefore = await db.selectFrom("audit_log").select("action").orderBy("seq").execute();
      changes.length = 0;

      for (const at of [undefined, new Date(Date.now() + 3_600_000).toISOString()]) {
        const refused = await publishPage(db, editor, { id, baseRevision: 2, at });
        expect(refused).toEqual({
          ok: false,
          checks: [
            {
              rule: "broken-link",
              message: "Block 2 (Rich text): the link to /no-such-page leads to no page of the site.",
              where: { block: 1, label: "Rich text" },
            },
          ],
        });
      }
      expect(await findPageForEditor(db, id)).toEqual(before);
      expect((await findPublishedPage(db, "/solutions/banks"))!.blocks).toEqual([{ ...hero, actions: [], visual: "none" }]);
      expect(await db.selectFrom("audit_log").select("action").orderBy("seq").execute()).toEqual(auditBefore);
      expect(changes).toEqual([]);

      ok(await savePage(db, editor, { id, baseRevision: 2, page: page([{ ...hero, title: "New words" }]) }));
      ok(await publishPage(db, editor, { id, baseRevision: 3 }));
      expect((await findPublishedPage(db, "/solutions/banks"))!.blocks).toEqual([{ ...hero, title: "New words", actions: [], visual: "none" }]);
    });

    it("tells each problem of a post at its field", async () => {
      const big = await libraryImage(IMAGE_BUDGET_BYTES + 1, "A heavy chart");
      await db
        .insertInto("blog_posts")
        .values({
          id: randomUUID(),
          slug: "a-draft",
          title: "A draft",
          excerpt: "Not yet",
          content: "Soon.",
          category: "Research",
          author: "Ada",
          read_time: 1,
          published_date: "2025-06-01T00:00:00.000Z",
          featured: false,
          published: false,
          image_url: null,
        })
        .execute();
      const missing = `/media/${randomUUID()}/gone.png`;
      const problems = await checkPostBeforePublish(db, {
        ...post({
          content: [
            "# Why",
            "",
            "See [the guide](/no-such-page), [the draft](/resources/blog/a-draft) and [](/contact-sales).",
            "",
            `![A heavy chart](${big})`,
            "",
            "Back to [this post](/resources/blog/checked-post#why).",
          ].join("\n"),
          image_url: missing,
        }),
      });
      expect(messages(problems)).toEqual([
        "Body: the link to /no-such-page leads to no page of the site.",
        "Body: the link to /resources/blog/a-draft leads to a page or post that is not published.",
        "Body: a link has no text, so people using a screen reader cannot tell where it leads: give it words.",
        'Body: the image "A heavy chart" is 10,000,001 bytes; an image may be at most 10 MB. Export it smaller and upload it again.',
        `Image URL: the image ${missing} is not in the media library: choose an image that is.`,
      ]);
      expect(new Set(problems.map((problem) => JSON.stringify(problem.where)))).toEqual(
        new Set([JSON.stringify({ field: "content", label: "Body" }), JSON.stringify({ field: "image_url", label: "Image URL" })]),
      );

      const small = await libraryImage(20_000, "A light chart");
      const valid = post({
        content: `## Why\n\n![A light chart](${small})\n\nLINK: /contact-sales - Talk to us - Today\n\n[Elsewhere](https://example.com/x)`,
        image_url: small,
      });
      expect(await checkPostBeforePublish(db, valid)).toEqual([]);
    });

    it("keeps a post that fails a check from going live, publish or schedule, and saves it as a draft", async () => {
      const save = (id: string | undefined, baseRevision: number, fields: PostFields, intent: "save" | "publish" | "schedule") =>
        savePost({ id, baseRevision, fields, intent, actor: editor.actor, ip: editor.ip });
      const broken = post({ content: "See [the guide](/no-such-page)." });
      const refusal = {
        ok: false,
        checks: [
          {
            rule: "broken-link",
            message: "Body: the link to /no-such-page leads to no page of the site.",
            where: { field: "content", label: "Body" },
          },
        ],
      };
      expect(await save(undefined, 0, broken, "publish")).toEqual(refusal);
      expect(await save(undefined, 0, { ...broken, published_date: new Date(Date.now() + 3_600_000).toISOString() }, "schedule")).toEqual(
        refusal,
      );
      expect(await db.selectFrom("blog_posts").select("id").execute()).toEqual([]);
      expect(await db.selectFrom("audit_log").select("action").execute()).toEqual([]);

      const draft = ok(await save(undefined, 0, { ...broken, published: false }, "save"));
      expect(await save(draft.id, 1, broken, "publish")).toEqual(refusal);
      const row = await db.selectFrom("blog_posts").select(["published", "content"]).where("id", "=", draft.id).executeTakeFirstOrThrow();
      expect([Boolean(row.published), row.content]).toEqual([false, broken.content]);
      expect((await db.selectFrom("audit_log").select("action").execute()).map((entry) => entry.action)).toEqual(["post.created"]);

      ok(await save(draft.id, 1, post({ content: "See [the form](/contact-sales)." }), "publish"));
      const published = await db.selectFrom("blog_posts").select("published").where("id", "=", draft.id).executeTakeFirstOrThrow();
      expect(Boolean(published.published)).toBe(true);
    });

    it("passes every page and post of the sample content, seeded into a fresh database", async () => {
      await seedSampleContent(db);
      const pages = await listDocuments<PageSnapshot>(db, "page");
      const posts = await db.selectFrom("blog_posts").select(["id", "slug", "title", "content", "image_url"]).execute();
      expect(pages.length).toBeGreaterThan(10);
      expect(posts.length).toBeGreaterThan(5);
      const found: string[] = [];
      for (const doc of pages) found.push(...messages(await checkPageBeforePublish(db, doc.draft)).map((text) => `${doc.path}: ${text}`));
      for (const entry of posts) found.push(...messages(await checkPostBeforePublish(db, entry)).map((text) => `${entry.slug}: ${text}`));
      expect(found).toEqual([]);
    });
  });
}
