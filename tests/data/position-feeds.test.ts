import { randomUUID } from "node:crypto";
import { parseFeed } from "@rowanmanning/feed-parser";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PositionSnapshot } from "~/features/content/content-types";
import { publishPosition, savePosition, unpublishPosition } from "~/features/careers/position-documents.server";
import { loadPositionFeed, positionsAtom, positionsJsonFeed } from "~/features/careers/position-feeds.server";
import { findPublicPosition, forgetHeldPositions } from "~/features/careers/positions.server";
import type { Database } from "~/db/schema";
import { atomProblems, atomTree, childrenNamed } from "../e2e/support/atom";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { samplePosition } from "./support/sample-position";
import { addPosition } from "./support/position-rows";
import { ok } from "./support/sample-page";

// The open positions' feeds on both engines: every open position with its fields, newest first;
// drafts, positions taken off the site, scheduled ones before their time and closed ones absent,
// by the clock alone; the Atom document valid by RFC 4287 and the JSON a JSON Feed 1.1.

const SITE = "https://www.quorvant.test";
const HOUR = 3_600_000;


type JsonFeedDocument = {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  items: { id: string; url: string; title: string; summary: string; content_html: string; date_published: string }[];
};

/** The JSON Feed as a reader receives it: the document the route sends, through JSON. */
const asJson = (feed: Awaited<ReturnType<typeof loadPositionFeed>>) =>
  JSON.parse(JSON.stringify(positionsJsonFeed(feed))) as JsonFeedDocument;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the open positions' feeds on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };

    beforeEach(async () => {
      // Each test has a database of its own: what a server holds of the last one is dropped.
      forgetHeldPositions();
      db = (await migratedDatabase(engine)).db;
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
    });
    afterEach(() => db.destroy());
    afterAll(() => engine.cleanup());

    /** Saves a position and publishes it (at `at` when given); returns its id. */
    async function published(position: PositionSnapshot, at?: Date): Promise<string> {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1, at: at?.toISOString() }));
      return id;
    }

    it("carries the open positions, newest first, with their fields, and none of the others", async () => {
      const now = new Date();
      const closes = new Date(now.getTime() + HOUR);
      const researcher = await published(samplePosition({ closesAt: closes.toISOString() }));
      // Open for days, listed first by team and title, but older.
      const older = await addPosition(db, {
        slug: "account-executive",
        title: "Account Executive",
        publishedAt: new Date(now.getTime() - 72 * HOUR).toISOString(),
      });
      // A draft, a position taken off the site, one scheduled for tomorrow, one closed an hour ago.
      ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ slug: "draft-role", title: "Draft role" }) }));
      ok(await unpublishPosition(db, alice, await published(samplePosition({ slug: "unpublished-role", title: "Unpublished role" }))));
      await published(samplePosition({ slug: "scheduled-role", title: "Scheduled role" }), new Date(now.getTime() + 24 * HOUR));
      const closedAt = new Date(now.getTime() - HOUR);
      await addPosition(db, {
        slug: "closed-role",
        title: "Closed role",
        closesAt: closedAt.toISOString(),
        publishedAt: new Date(now.getTime() - 48 * HOUR).toISOString(),
      });

      const feed = await loadPositionFeed(db, SITE, now);
      const postedAt = (await findPublicPosition(db, "security-researcher", now))!.position.postedAt;
      expect(feed.entries.map((entry) => entry.title)).toEqual(["Security Researcher, AI Threats", "Account Executive"]);
      expect(feed.updated.toISOString()).toBe(postedAt);
      const [entry, olderEntry] = feed.entries;
      expect(entry).toMatchObject({
        id: `urn:uuid:${researcher}`,
        url: `${SITE}/company/careers/security-researcher`,
        summary: "Research · Remote (European Union or United States) · €70,000–€90,000 a year",
        team: "Research",
      });
      expect(entry!.postedAt.toISOString()).toBe(postedAt);
      expect(entry!.contentHtml).toContain("<p>Find new prompt-injection techniques before attackers do.</p>");
      expect(entry!.contentHtml).toContain("You will <strong>break</strong> our detectors");
      expect(entry!.contentHtml).toContain("<h3>What you will do</h3><ul><li>Research new attacks</li></ul>");
      expect(entry!.contentHtml).toContain("<h3>What you bring</h3><ul><li>Three years of security research</li></ul>");
      // No pay given: none named.
      expect(olderEntry).toMatchObject({ id: `urn:uuid:${older}`, summary: "Research · Berlin (hybrid)" });

      const atom = positionsAtom(feed);
      const json = positionsJsonFeed(feed);
      for (const text of [atom, JSON.stringify(json)]) {
        for (const absent of ["Draft role", "Unpublished role", "Scheduled role", "Closed role", "research-hiring@quorvant.com"])
          expect(text).not.toContain(absent);
      }

      // Atom: well-formed, RFC 4287's rules kept, and a feed reader's parser reads the same entries.
      const tree = atomTree(atom);
      expect(atomProblems(tree)).toEqual([]);
      expect(childrenNamed(tree, "title")[0]!.text).toBe("Open positions at Quorvant");
      expect(childrenNamed(tree, "link").map((link) => [link.attributes.rel, link.attributes.href])).toEqual([
        ["alternate", `${SITE}/company/careers`],
        ["self", `${SITE}/company/careers/atom.xml`],
      ]);
      const entries = childrenNamed(tree, "entry");
      expect(entries.map((node) => childrenNamed(node, "id")[0]!.text)).toEqual([`urn:uuid:${researcher}`, `urn:uuid:${older}`]);
      expect(childrenNamed(entries[0]!, "updated")[0]!.text).toBe(postedAt);
      expect(childrenNamed(entries[0]!, "content")[0]!.attributes.type).toBe("html");
      const parsed = parseFeed(atom);
      expect(parsed.meta.type).toBe("atom");
      expect(parsed.items.map((item) => [item.url, item.title, item.description])).toEqual([
        [entry!.url, entry!.title, entry!.summary],
        [olderEntry!.url, "Account Executive", olderEntry!.summary],
      ]);
      expect(parsed.items[0]!.content).toBe(entry!.contentHtml);

      // JSON Feed 1.1: its version URL, and each item's id, address, title, content and date.
      const document = asJson(feed);
      expect(document).toMatchObject({
        version: "https://jsonfeed.org/version/1.1",
        title: "Open positions at Quorvant",
        home_page_url: `${SITE}/company/careers`,
        feed_url: `${SITE}/company/careers/feed.json`,
      });
      expect(document.items).toEqual([
        expect.objectContaining({
          id: `urn:uuid:${researcher}`,
          url: entry!.url,
          title: entry!.title,
          summary: entry!.summary,
          content_html: entry!.contentHtml,
          date_published: postedAt,
        }),
        expect.objectContaining({ id: `urn:uuid:${older}`, url: olderEntry!.url, title: "Account Executive" }),
      ]);
      for (const item of document.items) expect(new Date(item.date_published).toISOString()).toBe(item.date_published);
    });

    it("drops a position at its closing date and adds a scheduled one at its time, by the clock alone", async () => {
      const now = new Date();
      const closes = new Date(now.getTime() + HOUR);
      const opens = new Date(now.getTime() + 2 * HOUR);
      await published(samplePosition({ closesAt: closes.toISOString() }));
      await published(samplePosition({ slug: "scheduled-role", title: "Scheduled role" }), opens);
      const titles = async (at: Date) => (await loadPositionFeed(db, SITE, at)).entries.map((entry) => entry.title);

      expect(await titles(now)).toEqual(["Security Researcher, AI Threats"]);
      expect(await titles(new Date(closes.getTime() - 1))).toEqual(["Security Researcher, AI Threats"]);
      const closed = await loadPositionFeed(db, SITE, closes);
      expect(closed.entries).toEqual([]);
      // The feed changed when the position closed.
      expect(closed.updated).toEqual(closes);
      expect(await titles(opens)).toEqual(["Scheduled role"]);
    });

    it("is a valid empty feed while no position is open", async () => {
      const feed = await loadPositionFeed(db, SITE);
      expect(feed.entries).toEqual([]);
      const tree = atomTree(positionsAtom(feed));
      expect(atomProblems(tree)).toEqual([]);
      expect(childrenNamed(tree, "entry")).toEqual([]);
      expect(asJson(feed)).toMatchObject({ version: "https://jsonfeed.org/version/1.1", items: [] });
    });

    it("keeps a title with markup, quotes and forbidden characters as written, and the Atom well-formed", async () => {
      const title = 'Lead <b>"Red Team"</b> & ]]> \u0001engineer';
      await addPosition(db, { slug: "red-team", title });
      const feed = await loadPositionFeed(db, SITE);
      const atom = positionsAtom(feed);
      const tree = atomTree(atom);
      expect(atomProblems(tree)).toEqual([]);
      expect(parseFeed(atom).items[0]!.title).toBe('Lead <b>"Red Team"</b> & ]]> engineer');
      expect(asJson(feed).items[0]!.title).toBe(title);
    });
  });
}
