import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishPage, savePage } from "~/features/pages/page-documents.server";
import { forgetHeldPages } from "~/features/pages/published-pages.server";
import { forgetHeldPositions } from "~/features/careers/positions.server";
import { alternatesOf } from "~/features/i18n/alternates.server";
import { sitemapXml } from "~/features/site/sitemap.server";
import { atomFeed, jsonFeed, rssFeed } from "~/features/blog/feeds.server";
import { parseSiteLocales, type SiteLocale } from "~/features/i18n/site-locales";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { samplePage, ok } from "./support/sample-page";
import { addLegal, addPost } from "./support/fixtures";

// Each page names its versions in the site's other languages, on both engines: a page of blocks
// and its translation name each other (and no one else), as do a post and its translation, the
// forms and the blog list everywhere, a legal document where its language has a published
// version; the sitemap says the same of every page; each language has its own feeds.

const SITE = "https://www.quorvant.test";
const locales = (text: string): SiteLocale[] => {
  const read = parseSiteLocales(text);
  if (!read.ok) throw new Error(read.problem);
  return read.locales;
};
const EN_DE = locales("en,de");
const EN = locales("en");

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`a page's languages on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };

    beforeEach(async () => {
      forgetHeldPages();
      forgetHeldPositions();
      db = (await migratedDatabase(engine)).db;
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(() => db.destroy());
    afterAll(() => engine.cleanup());

    async function publishedPage(path: string, translationOf?: string): Promise<string> {
      const { id } = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path }) }));
      ok(await publishPage(db, alice, { id, baseRevision: 1 }));
      if (translationOf)
        await db.updateTable("content_documents").set({ translation_of: translationOf, locale: "de", source_revision: 1 }).where("id", "=", id).execute();
      forgetHeldPages();
      return id;
    }

    it("a page and its translation name each other, the default language's as x-default; a page alone names none", async () => {
      const source = await publishedPage("/solutions/banks");
      await publishedPage("/de/loesungen/banken", source);
      await publishedPage("/solutions/insurers");
      const pair = [
        { tag: "en", path: "/solutions/banks" },
        { tag: "de", path: "/de/loesungen/banken" },
      ];
      expect(await alternatesOf(db, "/solutions/banks", EN_DE)).toEqual(pair);
      expect(await alternatesOf(db, "/de/loesungen/banken", EN_DE)).toEqual(pair);
      expect(await alternatesOf(db, "/solutions/insurers", EN_DE)).toEqual([]);
      expect(await alternatesOf(db, "/no/such/page", EN_DE)).toEqual([]);
      // A site in English alone names no alternates.
      expect(await alternatesOf(db, "/solutions/banks", EN)).toEqual([]);
    });

    it("posts name their translations; the forms and the blog exist in every language; legal documents where published", async () => {
      const post = await addPost(db, { slug: "ai-act", title: "The AI Act", published_date: "2026-01-10T10:00:00.000Z" });
      const german = await addPost(db, { slug: "ki-verordnung", title: "Die KI-Verordnung", published_date: "2026-01-11T10:00:00.000Z" });
      await db.updateTable("blog_posts").set({ locale: "de", translation_of: post.id }).where("id", "=", german.id).execute();
      const posts = [
        { tag: "en", path: "/resources/blog/ai-act" },
        { tag: "de", path: "/de/ressourcen/blog/ki-verordnung" },
      ];
      expect(await alternatesOf(db, "/resources/blog/ai-act", EN_DE)).toEqual(posts);
      expect(await alternatesOf(db, "/de/ressourcen/blog/ki-verordnung", EN_DE)).toEqual(posts);
      // A German slug is no English post's address.
      expect(await alternatesOf(db, "/resources/blog/ki-verordnung", EN_DE)).toEqual([]);

      expect(await alternatesOf(db, "/de/demo-anfordern", EN_DE)).toEqual([
        { tag: "en", path: "/request-demo" },
        { tag: "de", path: "/de/demo-anfordern" },
      ]);
      expect(await alternatesOf(db, "/resources/blog", EN_DE)).toEqual([
        { tag: "en", path: "/resources/blog" },
        { tag: "de", path: "/de/ressourcen/blog" },
      ]);

      await addLegal(db, { document_type: "privacy-policy", last_updated: "2026-01-01", published: true, version: "1.0" });
      expect(await alternatesOf(db, "/terms/privacy-policy", EN_DE)).toEqual([]);
      const translation = await addLegal(db, { document_type: "privacy-policy", last_updated: "2026-01-01", published: true, version: "1.0" });
      await db.updateTable("legal_documents").set({ locale: "de" }).where("id", "=", translation).execute();
      expect(await alternatesOf(db, "/de/rechtliches/datenschutzerklaerung", EN_DE)).toEqual([
        { tag: "en", path: "/terms/privacy-policy" },
        { tag: "de", path: "/de/rechtliches/datenschutzerklaerung" },
      ]);
    });

    it("the sitemap lists every language's pages, each naming its translation group; in English alone it is as before", async () => {
      const source = await publishedPage("/solutions/banks");
      await publishedPage("/de/loesungen/banken", source);
      const post = await addPost(db, { slug: "ai-act", published_date: "2026-01-10T10:00:00.000Z" });
      const german = await addPost(db, { slug: "ki-verordnung", published_date: "2026-01-11T10:00:00.000Z" });
      await db.updateTable("blog_posts").set({ locale: "de", translation_of: post.id }).where("id", "=", german.id).execute();

      const english = await sitemapXml(db, SITE, EN);
      expect(english).not.toContain("xhtml");
      expect(english).not.toContain("/de/");
      expect(english).toContain(`<url><loc>${SITE}/solutions/banks</loc></url>`);
      expect(english).toContain(`<url><loc>${SITE}/resources/blog/ai-act</loc><lastmod>`);

      const both = await sitemapXml(db, SITE, EN_DE);
      expect(both).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
      const urlOf = (path: string) => both.split("\n").find((line) => line.startsWith(`  <url><loc>${SITE}${path}</loc>`));
      const pagePair =
        `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/solutions/banks"/>` +
        `<xhtml:link rel="alternate" hreflang="de" href="${SITE}/de/loesungen/banken"/>` +
        `<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/solutions/banks"/>`;
      expect(urlOf("/solutions/banks")).toContain(pagePair);
      expect(urlOf("/de/loesungen/banken")).toContain(pagePair);
      const postPair =
        `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/resources/blog/ai-act"/>` +
        `<xhtml:link rel="alternate" hreflang="de" href="${SITE}/de/ressourcen/blog/ki-verordnung"/>`;
      expect(urlOf("/resources/blog/ai-act")).toContain(postPair);
      expect(urlOf("/de/ressourcen/blog/ki-verordnung")).toContain(postPair);
      expect(urlOf("/de/demo-anfordern")).toContain(`hreflang="en" href="${SITE}/request-demo"`);
      expect(urlOf("/request-demo")).toContain(`hreflang="de" href="${SITE}/de/demo-anfordern"`);
      // No German legal version yet: no German legal address.
      expect(urlOf("/de/rechtliches/datenschutzerklaerung")).toBeUndefined();
    });

    it("each language has its own feeds of its own posts; a language the site is not in has none", async () => {
      const post = await addPost(db, { slug: "ai-act", title: "The AI Act", published_date: "2026-01-10T10:00:00.000Z" });
      const german = await addPost(db, { slug: "ki-verordnung", title: "Die KI-Verordnung", published_date: "2026-01-11T10:00:00.000Z" });
      await db.updateTable("blog_posts").set({ locale: "de", translation_of: post.id }).where("id", "=", german.id).execute();
      const source = { db, siteUrl: SITE, locales: EN_DE };

      const englishRss = await (await rssFeed(new Request(`${SITE}/rss.xml`), source)).text();
      expect(englishRss).toContain("<language>en-us</language>");
      expect(englishRss).toContain("<title>The AI Act</title>");
      expect(englishRss).not.toContain("KI-Verordnung");

      const germanRss = await (await rssFeed(new Request(`${SITE}/de/rss.xml`), source)).text();
      expect(germanRss).toContain("<language>de</language>");
      expect(germanRss).toContain("<description>Einblicke von Quorvant zu KI-Sicherheit, Compliance und Governance.</description>");
      expect(germanRss).toContain(`<link>${SITE}/de/ressourcen/blog/ki-verordnung</link>`);
      expect(germanRss).toContain(`<atom:link href="${SITE}/de/rss.xml" rel="self"`);
      expect(germanRss).not.toContain("The AI Act");

      const germanAtom = await (await atomFeed(new Request(`${SITE}/de/atom.xml`), source)).text();
      expect(germanAtom).toContain(`${SITE}/de/ressourcen/blog/ki-verordnung`);
      const germanJson = (await (await jsonFeed(new Request(`${SITE}/de/feed.json`), source)).json()) as {
        language: string;
        feed_url: string;
        home_page_url: string;
        items: { url: string }[];
      };
      expect(germanJson).toMatchObject({ language: "de", feed_url: `${SITE}/de/feed.json`, home_page_url: `${SITE}/de/ressourcen/blog` });
      expect(germanJson.items.map((item) => item.url)).toEqual([`${SITE}/de/ressourcen/blog/ki-verordnung`]);

      // German feeds on a site in English alone, and a language the site has no catalog for: 404.
      await expect(rssFeed(new Request(`${SITE}/de/rss.xml`), { ...source, locales: EN })).rejects.toMatchObject({ init: { status: 404 } });
      await expect(rssFeed(new Request(`${SITE}/fr/rss.xml`), source)).rejects.toMatchObject({ init: { status: 404 } });
    });
  });
}
