import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// A published post whose published_date is ahead stays hidden everywhere until that moment, then
// appears by itself: real clock, real server, nothing restarted or run in between.

test("a post scheduled 2 seconds ahead appears in the list, post page, chips, feed and sitemap at that moment, not before", async ({
  request,
}) => {
  const server = await startPrivateServer();
  const slug = `launch-${Date.now()}`;
  const title = "Sentinel 3.0 is here";
  const category = "Launches";
  try {
    // Rendered once beforehand, so the look before the moment is quick on a busy machine.
    for (const path of ["/resources/blog", `/resources/blog?category=${category}`, "/rss.xml", "/sitemap.xml"])
      await request.get(`${server.url}${path}`);
    const at = new Date(Date.now() + 2_000);
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, image_url, featured, published, created_at, updated_at)
           VALUES (?, ?, ?, 'Our biggest release yet.', 'Body.', ?, 'Ada Lovelace', ?, 3, NULL, 0, 1, ?, ?)`,
        )
        .run(randomUUID(), slug, title, category, at.toISOString(), new Date().toISOString(), new Date().toISOString()),
    );

    const look = async () => {
      const [list, post, feed, sitemap] = await Promise.all([
        request.get(`${server.url}/resources/blog?page=1&category=${category}`),
        request.get(`${server.url}/resources/blog/${slug}`),
        request.get(`${server.url}/rss.xml`),
        request.get(`${server.url}/sitemap.xml`),
      ]);
      const all = await (await request.get(`${server.url}/resources/blog`)).text();
      return {
        list: (await list.text()).includes(title),
        chip: all.includes(`?category=${category}`),
        post: post.status(),
        feed: (await feed.text()).includes(`<title>${title}</title>`),
        sitemap: (await sitemap.text()).includes(`/resources/blog/${slug}</loc>`),
        at: Date.now(),
      };
    };

    const before = await look();
    expect(before.at).toBeLessThan(at.getTime());
    expect(before).toMatchObject({ list: false, chip: false, post: 404, feed: false, sitemap: false });

    // After the moment (plus the one-second freshness of cached pages) everything shows it.
    await expect
      .poll(look, { timeout: 15_000, intervals: [250] })
      .toMatchObject({ list: true, chip: true, post: 200, feed: true, sitemap: true });

    // The editors' command lists what is still ahead, with its time; the post now live is gone from it.
    const later = new Date(Date.now() + 3 * 24 * 3_600_000);
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          `INSERT INTO blog_posts (id, slug, title, excerpt, content, category, author, published_date, read_time, published)
           VALUES (?, 'next-launch', 'Next launch', 'Soon.', 'Body.', 'Launches', 'Ada Lovelace', ?, 3, 1)`,
        )
        .run(randomUUID(), later.toISOString()),
    );
    const status = spawnSync(process.execPath, ["--import", "tsx", "scripts/content.ts", "status"], {
      env: { ...process.env, DATABASE_URL: `file:${server.databasePath}`, LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain("1 scheduled post(s)");
    expect(status.stdout).toContain(`${later.toISOString()}  (in 3 days)  next-launch  Next launch`);
    expect(status.stdout).not.toContain(slug);
  } finally {
    await server.stop();
  }
});
