import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import { loadLatestInsights } from "~/features/blog/posts.server";
import { engines } from "./support/engines";
import { addPost } from "./support/fixtures";

// The Latest Insights block lists the posts in its page's language only, linked at that
// language's blog address; an English page lists English posts exactly as before.

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`Latest Insights by language on ${engine.name}`, () => {
    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 2, SEED: "never" });
      const db = getDb();
      await addPost(db, { slug: "english-new", title: "English new", published_date: "2025-05-01T00:00:00.000Z" });
      await addPost(db, { slug: "english-old", title: "English old", published_date: "2025-01-01T00:00:00.000Z" });
      for (const [slug, date, featured] of [
        ["deutsch-neu", "2025-06-01T00:00:00.000Z", false],
        ["deutsch-alt", "2025-02-01T00:00:00.000Z", true],
      ] as const)
        await db
          .insertInto("blog_posts")
          .values({
            id: crypto.randomUUID(),
            slug,
            title: slug,
            category: "Sicherheit",
            featured,
            published: true,
            published_date: date,
            image_url: null,
            excerpt: "Auszug",
            content: "Text",
            author: "Ada",
            read_time: 3,
            locale: "de",
          })
          .execute();
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    it("lists English posts on English pages and German posts at German addresses on German pages", async () => {
      const english = await loadLatestInsights(undefined, "en");
      expect(english.total).toBe(2);
      expect([english.featured?.href, ...english.others.map((post) => post.href)]).toEqual([
        "/resources/blog/english-new",
        "/resources/blog/english-old",
      ]);
      expect(await loadLatestInsights()).toEqual(english);

      const german = await loadLatestInsights(undefined, "de");
      expect(german.total).toBe(2);
      expect([german.featured?.href, ...german.others.map((post) => post.href)]).toEqual([
        "/de/ressourcen/blog/deutsch-alt",
        "/de/ressourcen/blog/deutsch-neu",
      ]);
    });
  });
}
