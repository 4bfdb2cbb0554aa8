import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { setContentChangeListener, type ContentChange } from "~/features/content/publish-hook.server";
import {
  checkPositionFiles,
  listPositionsForEditors,
  readPositionFiles,
  writePositions,
  publishPosition,
  savePosition,
  unpublishPosition,
} from "~/features/careers/position-documents.server";
import { findPositionForApplication, findPublicPosition, listOpenPositions, listOpenPositionsIn, forgetHeldPositions, publishedPositionsWatchJob } from "~/features/careers/positions.server";
import { savePage } from "~/features/pages/page-documents.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { ok, samplePage } from "./support/sample-page";
import { migratedDatabase } from "./support/migrated-database";
import { samplePosition } from "./support/sample-position";

// Open positions, a type of the content core, on both engines: saved as drafts, published or
// scheduled, open until their closing date and closed from then on by the clock alone, and their
// bad fields refused next to the field with nothing saved.


for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`open positions on ${engine.name}`, () => {
    let db: Kysely<Database>;
    const alice = { actor: { id: "", email: "alice@quorvant.com" }, ip: "127.0.0.1" };
    const changes: ContentChange[] = [];

    beforeEach(async () => {
      // Each test has a database of its own: what a server holds of the last one is dropped.
      forgetHeldPositions();
      db = (await migratedDatabase(engine)).db;
      alice.actor.id = randomUUID();
      await db.insertInto("admin_users").values({ id: alice.actor.id, email: alice.actor.email, created_at: new Date().toISOString() }).execute();
      changes.length = 0;
      setContentChangeListener((change) => changes.push(change));
    });
    afterEach(async () => {
      setContentChangeListener(undefined);
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("keeps a saved position a draft until it is published, then lists it as open", async () => {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition() }));
      expect(await findPublicPosition(db, "security-researcher")).toBeUndefined();
      expect(await listOpenPositions(db)).toEqual([]);
      expect(await findPositionForApplication(db, id)).toEqual({
        id,
        title: "Security Researcher, AI Threats",
        state: "draft",
        hiringContacts: [],
      });

      const published = ok(await publishPosition(db, alice, { id, baseRevision: 1 }));
      expect(published.path).toBe("/company/careers/security-researcher");
      expect(changes.at(-1)!.paths).toEqual([
        "/company/careers/security-researcher",
        "/company/careers/*",
        "/sitemap.xml",
      ]);
      expect(await findPublicPosition(db, "security-researcher")).toMatchObject({ open: true, position: { id, team: "Research" } });
      expect((await listOpenPositions(db)).map((position) => position.path)).toEqual(["/company/careers/security-researcher"]);
      expect(await findPositionForApplication(db, id)).toEqual({
        id,
        title: "Security Researcher, AI Threats",
        state: "open",
        hiringContacts: ["research-hiring@quorvant.com"],
      });
      expect(await findPositionForApplication(db, randomUUID())).toMatchObject({ state: "unknown" });
      expect(await findPositionForApplication(db, "not-a-uuid")).toMatchObject({ state: "unknown" });

      const audit = await db.selectFrom("audit_log").select(["action", "target_type"]).orderBy("seq").execute();
      expect(audit).toEqual([
        { action: "position.created", target_type: "position" },
        { action: "position.published", target_type: "position" },
      ]);

      ok(await unpublishPosition(db, alice, id));
      expect(await findPublicPosition(db, "security-researcher")).toBeUndefined();
      expect((await findPositionForApplication(db, id)).state).toBe("draft");
      expect((await listPositionsForEditors(db)).map((position) => position.state)).toEqual(["unpublished"]);
    });

    it("keeps the date a position was posted through corrections; taken off and published again, it is posted anew", async () => {
      const opens = new Date(Date.now() + 60_000);
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition() }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1, at: opens.toISOString() }));
      // Its scheduled first version is posted at its time, before any write settles it.
      expect((await findPublicPosition(db, "security-researcher", opens))?.position.postedAt).toBe(opens.toISOString());

      const { id: other } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ slug: "other" }) }));
      const first = ok(await publishPosition(db, alice, { id: other, baseRevision: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 5));
      ok(await savePosition(db, alice, { id: other, baseRevision: 1, position: samplePosition({ slug: "other", summary: "Fixed." }) }));
      ok(await publishPosition(db, alice, { id: other, baseRevision: 2 }));
      const corrected = await findPublicPosition(db, "other");
      expect(corrected).toMatchObject({ position: { summary: "Fixed.", postedAt: first.at } });
      expect((await listOpenPositions(db)).find((position) => position.id === other)?.postedAt).toBe(first.at);

      ok(await unpublishPosition(db, alice, other));
      const again = ok(await publishPosition(db, alice, { id: other, baseRevision: 2 }));
      expect(again.at > first.at).toBe(true);
      expect((await findPublicPosition(db, "other"))?.position.postedAt).toBe(again.at);
    });

    it("holds the published positions: no query while the copy is fresh; another server's closing read by the watch", async () => {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition() }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1 }));
      let queries = 0;
      const counted = db.withPlugin({
        transformQuery: (args) => {
          queries += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      expect(await listOpenPositions(counted)).toHaveLength(1);
      const afterFirst = queries;
      expect(await listOpenPositions(counted)).toHaveLength(1);
      expect(await findPublicPosition(counted, "security-researcher")).toMatchObject({ open: true });
      expect(queries).toBe(afterFirst);

      // Another server closes it (straight in the table, as its own write would): the watch reads it.
      const job = publishedPositionsWatchJob.start({ getDb: () => db } as Parameters<typeof publishedPositionsWatchJob.start>[0]);
      try {
        // The watch's reads that find nothing changed keep the list (the careers page drew it once).
        const list = await listOpenPositions(db);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(await listOpenPositions(db)).toBe(list);
        const closed = JSON.stringify({ ...samplePosition(), closesAt: new Date(Date.now() - 1_000).toISOString() });
        await db
          .updateTable("content_documents")
          .set({ published: closed, updated_at: new Date().toISOString() })
          .where("id", "=", id)
          .execute();
        await expect.poll(async () => (await listOpenPositions(db)).length, { timeout: 3_000 }).toBe(0);
        expect(changes.some((change) => change.type === "position" && change.paths.includes("/company/careers/security-researcher"))).toBe(true);
      } finally {
        await job?.stop();
      }
    });

    it("opens a scheduled position at its time, and closes it by the clock at its closing date", async () => {
      const opens = new Date(Date.now() + 60_000);
      const closes = new Date(opens.getTime() + 3_600_000);
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ closesAt: closes.toISOString() }) }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1, at: opens.toISOString() }));
      const before = new Date(opens.getTime() - 1);
      expect(await findPublicPosition(db, "security-researcher", before)).toBeUndefined();
      expect((await findPositionForApplication(db, id, before)).state).toBe("draft");
      expect(await findPublicPosition(db, "security-researcher", opens)).toMatchObject({ open: true });
      const openList = await listOpenPositions(db, opens);
      expect(openList).toHaveLength(1);
      // Drawn once while nothing changes (the careers page derives from the same array)…
      expect(await listOpenPositions(db, new Date(closes.getTime() - 1))).toBe(openList);
      // …and again when asked of a moment before it, or once the closing date has passed.
      expect(await listOpenPositions(db, before)).toEqual([]);

      expect(await findPublicPosition(db, "security-researcher", closes)).toMatchObject({ open: false });
      expect(await listOpenPositions(db, closes)).toEqual([]);
      expect((await findPositionForApplication(db, id, closes)).state).toBe("closed");
    });

    it("closes an open position now by publishing it with its closing date now", async () => {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition() }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1 }));
      const now = new Date().toISOString();
      ok(await savePosition(db, alice, { id, baseRevision: 1, position: samplePosition({ closesAt: now }) }));
      ok(await publishPosition(db, alice, { id, baseRevision: 2 }));
      expect(await findPublicPosition(db, "security-researcher")).toMatchObject({ open: false });
      expect((await findPositionForApplication(db, id)).state).toBe("closed");
      // A closed position is still edited and published (its closing date, now past, is kept).
      const closedAt = new Date(Date.parse(now) - 30_000).toISOString();
      ok(await savePosition(db, alice, { id, baseRevision: 2, position: samplePosition({ closesAt: closedAt, summary: "Filled." }) }));
      ok(await publishPosition(db, alice, { id, baseRevision: 3 }));
      expect(await findPublicPosition(db, "security-researcher")).toMatchObject({ open: false, position: { summary: "Filled." } });
    });

    it("refuses bad fields next to the field, saving nothing", async () => {
      const refused = await savePosition(db, alice, {
        baseRevision: 0,
        position: { ...samplePosition(), title: " ", team: "", locations: [] },
      });
      expect(refused).toEqual({
        ok: false,
        errors: {
          title: "Title must not be empty.",
          team: "Team must not be empty.",
          locations: "Locations must name at least one location.",
        },
      });
      expect(
        await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ pay: { min: 90_000, max: 70_000, currency: "EUR", period: "year" } }) }),
      ).toEqual({ ok: false, errors: { "pay.min": "Pay (minimum) must not be above the maximum." } });
      const { currency: _currency, ...withoutCurrency } = samplePosition().pay!;
      expect(await savePosition(db, alice, { baseRevision: 0, position: { ...samplePosition(), pay: withoutCurrency } })).toEqual({
        ok: false,
        errors: { "pay.currency": "Pay (currency) is required: a three-letter currency code such as EUR." },
      });
      expect(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ description: "<div>Hi</div>" }) })).toEqual({
        ok: false,
        errors: { description: "Description line 1: HTML is not part of the post markup: it shows as text." },
      });
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      expect(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ closesAt: yesterday }) })).toMatchObject({
        ok: false,
        errors: { closesAt: expect.stringMatching(/^Closing date must not be before the position opens/) },
      });
      expect(await listPositionsForEditors(db)).toEqual([]);
      expect(await db.selectFrom("content_revisions").select("number").execute()).toEqual([]);
    });

    it("refuses a closing date before a scheduled opening when publishing", async () => {
      const closes = new Date(Date.now() + 60_000);
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ closesAt: closes.toISOString() }) }));
      const refused = await publishPosition(db, alice, { id, baseRevision: 1, at: new Date(closes.getTime() + 60_000).toISOString() });
      expect(refused).toMatchObject({ ok: false, errors: { closesAt: expect.stringMatching(/^Closing date must not be before/) } });
      expect(await findPublicPosition(db, "security-researcher", new Date(closes.getTime() + 120_000))).toBeUndefined();
      expect((await listPositionsForEditors(db))[0]!.state).toBe("draft");
    });

    it("gives a slug to one position only, and never an address a page holds", async () => {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition() }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1 }));
      expect(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ title: "Another" }) })).toEqual({
        ok: false,
        errors: { slug: "Slug /company/careers/security-researcher is already used by another position." },
      });
      ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path: "/company/careers/benefits" }) }));
      expect(await savePosition(db, alice, { baseRevision: 0, position: samplePosition({ slug: "benefits" }) })).toEqual({
        ok: false,
        errors: { slug: "Slug /company/careers/benefits is already used by another page." },
      });
      expect(await listPositionsForEditors(db)).toHaveLength(1);
    });

    it("seeds the sample positions once, published, and imports a changed file as a new revision", async () => {
      const read = readPositionFiles(path.resolve("content/positions"), path.resolve("."));
      expect(read.problems).toEqual([]);
      const checked = checkPositionFiles(read.files);
      expect(checked.problems).toEqual([]);
      const seeded = (await db.transaction().execute((trx) => writePositions(trx, checked.positions, { onlyIntoEmpty: true }))).changes;
      // The four English positions, then the German translation of one (content/positions/de).
      expect(seeded.map((change) => change.action)).toEqual(["create", "create", "create", "create", "create"]);
      expect((await listOpenPositionsIn(db, "en")).map((position) => position.title)).toEqual([
        "Senior Backend Engineer, Detection Platform",
        "Compliance Program Manager",
        "Security Researcher, AI Threats",
        "Enterprise Account Executive",
      ]);
      expect((await listOpenPositionsIn(db, "de")).map((position) => [position.title, position.path])).toEqual([
        ["Enterprise Account Executive (m/w/d)", "/de/unternehmen/karriere/enterprise-account-executive"],
      ]);
      expect(await db.transaction().execute((trx) => writePositions(trx, checked.positions, { onlyIntoEmpty: true }))).toEqual({
        changes: [],
        problems: [],
      });
      const [first, ...rest] = checked.positions;
      const changed = [{ ...first!, position: { ...first!.position, title: "Staff Backend Engineer" } }, ...rest];
      const again = (await db.transaction().execute((trx) => writePositions(trx, changed))).changes;
      expect(again.map((change) => change.action)).toEqual(["update", "unchanged", "unchanged", "unchanged", "unchanged"]);
      // The import tells no server: a server's watch sees it; here, what this process held is dropped.
      forgetHeldPositions();
      expect((await findPublicPosition(db, first!.position.slug))!.position.title).toBe("Staff Backend Engineer");
      expect(checkPositionFiles([{ path: "positions/bad.yaml", value: { ...first!.position, team: "" } }]).problems).toEqual([
        { path: "positions/bad.yaml", field: "team", message: "must not be empty" },
      ]);
    });
  });
}
