import { randomUUID } from "node:crypto";
import { SaxesParser } from "saxes";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// /rss.xml, /atom.xml and /sitemap.xml carry database text; whatever an editor's tool wrote, they must stay
// well-formed XML 1.0, or feed readers and crawlers reject the whole document.

/** Well-formedness errors (namespaces included) found by a strict XML 1.0 parser; none for a good document. */
function xmlErrors(xml: string): string[] {
  const errors: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (error) => errors.push(error.message));
  parser.write(xml).close();
  return errors;
}

test("a post whose text holds characters XML forbids still gives a well-formed feed and sitemap", async ({ request }) => {
  const server = await startPrivateServer();
  try {
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 5, NULL, 0, 1, ?, ?)`,
        )
        .run(
          randomUUID(),
          "control-characters",
          "Control\u0001 characters\u0008",
          "A bell\u0007 and\uFFFE a\uFFFF non-character",
          "Body.",
          "Security\u001F",
          "Ada\u0001 Lovelace",
          new Date().toISOString(),
          new Date().toISOString(),
          new Date().toISOString(),
        ),
    );

    const feed = await request.get(`${server.url}/rss.xml`);
    expect(feed.status()).toBe(200);
    const feedXml = await feed.text();
    expect(xmlErrors(feedXml)).toEqual([]);
    expect(feedXml).toContain("<title>Control characters</title>");
    expect(feedXml).toContain("<dc:creator>Ada Lovelace</dc:creator>");
    expect(feedXml).toContain("<category>Security</category>");
    expect(feedXml).toContain("<description>A bell and a non-character</description>");

    const atom = await request.get(`${server.url}/atom.xml`);
    expect(atom.status()).toBe(200);
    const atomXml = await atom.text();
    expect(xmlErrors(atomXml)).toEqual([]);
    expect(atomXml).toContain("<name>Ada Lovelace</name>");

    const sitemap = await request.get(`${server.url}/sitemap.xml`);
    expect(sitemap.status()).toBe(200);
    const sitemapXml = await sitemap.text();
    expect(xmlErrors(sitemapXml)).toEqual([]);
    expect(sitemapXml).toContain(`<loc>${server.url}/resources/blog/control-characters</loc>`);
  } finally {
    await server.stop();
  }
});
