import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { savePost } from "~/features/blog/post-editor.server";
import { listPurges, pendingCdnPurges } from "~/features/cdn/db/purges.server";
import { deliverDuePurges, purgeConfigFrom, type PurgeConfig } from "~/features/cdn/purge-job.server";
import { publishDocument, saveDocument, unpublishDocument } from "~/features/content/core.server";
import { createLegalDraft, draftFieldsOf, publishLegalDraft, saveLegalDraft } from "~/features/legal/editing.server";
import { findLegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { changeAlt } from "~/features/media/media.server";
import { defaultDraft, saveMenu } from "~/features/navigation/navigation.server";
import { saveRedirect } from "~/features/redirects/redirects.server";
import { loadEnv } from "~/env.server";
import { engines } from "./support/engines";
import { withSeedPages } from "./support/migrated-database";
import { addLegal, postFields } from "./support/fixtures";
import { ok, samplePage } from "./support/sample-page";
import { samplePosition } from "./support/sample-position";

// The CDN purge outbox on both engines: which keys each kind of publish writes (in its own
// transaction; a scheduled one due at its moment), and the job delivering them to a real HTTP
// receiver on loopback in Fastly's and Cloudflare's shapes; a receiver that is down or answers 5xx
// gets them again later, none lost.

const TOKEN = "purge-token-0123456789";
/** Purging is on for this file: the outbox is written only when CDN_PURGE_URL is set. */
process.env.CDN_PURGE_URL = "http://127.0.0.1:9/purge";
process.env.CDN_PURGE_TOKEN = TOKEN;

const editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };

/** A purge receiver on loopback: records each request; `status` is what it answers. */
type Received = { headers: IncomingHttpHeaders; body: string; url: string };
async function startReceiver(port = 0) {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), url: req.url ?? "" });
      res.writeHead(state.status, { "Content-Type": "application/json" }).end('{"status":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { received, state, port: (server.address() as AddressInfo).port, close };
}

const configFor = (port: number, style: PurgeConfig["style"]): PurgeConfig => ({
  ...purgeConfigFrom(loadEnv({ ...process.env, CDN_PURGE_URL: `http://127.0.0.1:${port}/service/svc/purge`, CDN_PURGE_STYLE: style }))!,
  timeoutMs: 2_000,
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`cdn purges on ${engine.name}`, () => {
    let db: Kysely<Database>;
    beforeAll(() => {
      editor.actor.id = randomUUID();
    });
    beforeEach(async () => {
      const started = Date.now();
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      await db.insertInto("admin_users").values({ id: editor.actor.id, email: editor.actor.email, created_at: new Date().toISOString() }).execute();
      console.log(`cdn-purge: database on ${engine.name} in ${Date.now() - started} ms`);
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    /** The keys of the outbox rows written since `from` rows, each row's keys sorted, and their due times. */
    const rowsAfter = async (from: number) =>
      (await listPurges(db)).slice(from).map((row) => ({ keys: [...row.keys].sort(), dueAt: row.dueAt }));
    const count = async () => (await listPurges(db)).length;

    it("writes the keys each kind of publish touched, a scheduled one due at its moment", async () => {
      // The menus link to the site's pages: a fresh site has the seed's.
      await withSeedPages(db);
      await db.deleteFrom("cdn_purges").execute();
      // A post published now: its own key, the lists and feeds that name it, the sitemap.
      const post = await savePost({ id: undefined, baseRevision: 0, fields: postFields(), intent: "publish", actor: editor.actor, ip: editor.ip });
      if (!post.ok) throw new Error(JSON.stringify(post));
      const afterPost = await rowsAfter(0);
      expect(afterPost.map((row) => row.keys)).toEqual([["feeds", `post:${post.id}`, "posts", "sitemap"]]);
      expect(Date.parse(afterPost[0]!.dueAt)).toBeLessThanOrEqual(Date.now());

      // A draft saved (never public) purges nothing.
      let seen = await count();
      const draft = await savePost({ id: undefined, baseRevision: 0, fields: postFields({ slug: "a-draft", published: false }), intent: "save", actor: editor.actor, ip: editor.ip });
      expect(draft.ok).toBe(true);
      expect(await count()).toBe(seen);

      // Scheduled: the row waits for the publication time; its slug renamed also purges redirects.
      const at = new Date(Date.now() + 3_600_000).toISOString();
      const scheduled = await savePost({ id: undefined, baseRevision: 0, fields: postFields({ slug: "later", published_date: at }), intent: "publish", actor: editor.actor, ip: editor.ip });
      if (!scheduled.ok) throw new Error(JSON.stringify(scheduled));
      const later = await rowsAfter(seen);
      expect(later).toEqual([{ keys: ["feeds", `post:${scheduled.id}`, "posts", "sitemap"], dueAt: at }]);
      expect(await pendingCdnPurges(db)).toMatchObject({ pending: 2, due: 1 });
      seen = await count();
      const renamed = await savePost({ id: post.id, baseRevision: 1, fields: postFields({ slug: "renamed" }), intent: "publish", actor: editor.actor, ip: editor.ip });
      expect(renamed.ok).toBe(true);
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([["feeds", `post:${post.id}`, "posts", "redirects", "sitemap"]]);

      // A page: its key and the sitemap; unpublishing it the same.
      seen = await count();
      const page = ok(await saveDocument(db, editor, { type: "page", baseRevision: 0, fields: samplePage() }));
      expect(await count()).toBe(seen);
      ok(await publishDocument(db, editor, { type: "page", id: page.id, baseRevision: page.revision }));
      ok(await unpublishDocument(db, editor, { type: "page", id: page.id }));
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([
        [`page:${page.id}`, "sitemap"],
        [`page:${page.id}`, "sitemap"],
      ]);

      // A position scheduled: its key and the lists of positions, due at its moment.
      seen = await count();
      const position = ok(await saveDocument(db, editor, { type: "position", baseRevision: 0, fields: samplePosition() }));
      ok(await publishDocument(db, editor, { type: "position", id: position.id, baseRevision: position.revision, at }));
      expect(await rowsAfter(seen)).toEqual([{ keys: [`position:${position.id}`, "positions", "sitemap"], dueAt: at }]);

      // The navigation: every page drawing the menus.
      seen = await count();
      const footer = defaultDraft("footer");
      footer[0]!.links[0] = { ...footer[0]!.links[0]!, label: "Renamed" };
      const menu = await saveMenu(db, editor, { menu: "footer", revision: 0, draft: footer });
      expect(menu.ok).toBe(true);
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([["nav"]]);

      // A redirect saved.
      seen = await count();
      const redirect = await saveRedirect(db, { from: "/old-place", kind: "permanent", target: "/company/about" }, { ...editor.actor, ip: editor.ip });
      expect(redirect.ok).toBe(true);
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([["redirects"]]);

      // An image's alt text: the image and every post drawing it, and the lists of their cards.
      seen = await count();
      const mediaId = randomUUID();
      await db
        .insertInto("media")
        .values({ id: mediaId, file_name: "bay", original_name: "bay.png", content_type: "image/png", width: 1, height: 1, has_alpha: 0 as never, bytes: 1, sha256: "x", alt: "A bay", data: Buffer.from([0]), created_by: null, created_at: new Date().toISOString() })
        .execute();
      const uses = await savePost({ id: undefined, baseRevision: 0, fields: postFields({ slug: "with-image", content: `![A bay](/media/${mediaId}/bay.png)` }), intent: "publish", actor: editor.actor, ip: editor.ip });
      if (!uses.ok) throw new Error(JSON.stringify(uses));
      seen = await count();
      expect(await changeAlt(db, mediaId, "A bay at dusk", { ...editor.actor, ip: editor.ip })).toEqual({ ok: true });
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([[`media:${mediaId}`, `post:${uses.id}`, "posts"].sort()]);
    });

    it("writes a legal version's keys (its type's pages in every language, the sitemap)", async () => {
      const now = new Date("2027-03-10T12:00:00.000Z");
      await addLegal(db, { document_type: "privacy-policy", last_updated: "2026-01-01T00:00:00.000Z", published: true, version: "1.0" });
      const created = await createLegalDraft(db, editor, { type: "privacy-policy" }, now);
      if (!created.ok) throw new Error(created.problem);
      const record = (await findLegalVersionRecord(db, created.value.id))!;
      const saved = await saveLegalDraft(db, editor, { id: record.id, revision: 0, fields: { ...draftFieldsOf(record), changeSummary: "Shorter retention." } }, now);
      if (!saved.ok) throw new Error(JSON.stringify(saved));
      const seen = await count();
      const published = await publishLegalDraft(db, editor, { id: record.id, revision: 1 }, now);
      if (!published.ok) throw new Error(JSON.stringify(published));
      expect((await rowsAfter(seen)).map((row) => row.keys)).toEqual([["legal:privacy-policy", "sitemap"]]);
    });

    it("delivers to a real receiver in Fastly's and Cloudflare's shapes, coalesced and batched", async () => {
      const receiver = await startReceiver();
      try {
        // Two changes touching the same list: one request, each key once.
        const { insertPurge } = await import("~/features/cdn/db/purges.server");
        await insertPurge(db, ["post:1", "posts", "feeds"]);
        await insertPurge(db, ["post:2", "posts"]);
        expect(await deliverDuePurges(db, configFor(receiver.port, "fastly"))).toEqual({ claimed: 2, sent: true });
        expect(receiver.received).toHaveLength(1);
        const [fastly] = receiver.received;
        expect(fastly!.url).toBe("/service/svc/purge");
        expect(fastly!.headers).toMatchObject({ "fastly-key": TOKEN, "surrogate-key": "post:1 posts feeds post:2", "content-type": "application/json" });
        expect(JSON.parse(fastly!.body)).toEqual({ surrogate_keys: ["post:1", "posts", "feeds", "post:2"] });
        expect(await count()).toBe(0);

        // Cloudflare: a bearer token, tags, at most 30 a request.
        const many = Array.from({ length: 35 }, (_, index) => `post:${index}`);
        await insertPurge(db, many);
        expect(await deliverDuePurges(db, configFor(receiver.port, "cloudflare"))).toEqual({ claimed: 1, sent: true });
        const cloudflare = receiver.received.slice(1);
        expect(cloudflare).toHaveLength(2);
        expect(cloudflare[0]!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, "content-type": "application/json" });
        expect(cloudflare[0]!.headers["fastly-key"]).toBeUndefined();
        expect(cloudflare.map((request) => JSON.parse(request.body))).toEqual([{ tags: many.slice(0, 30) }, { tags: many.slice(30) }]);
        expect(await count()).toBe(0);

        // A scheduled purge is not sent before its moment.
        const at = new Date(Date.now() + 60_000).toISOString();
        await insertPurge(db, ["page:later"], at);
        expect(await deliverDuePurges(db, configFor(receiver.port, "fastly"))).toEqual({ claimed: 0, sent: false });
        expect(await deliverDuePurges(db, configFor(receiver.port, "fastly"), { now: new Date(Date.parse(at) + 1) })).toEqual({ claimed: 1, sent: true });
        expect(receiver.received.at(-1)!.headers["surrogate-key"]).toBe("page:later");
      } finally {
        await receiver.close();
      }
    });

    it("keeps a purge the CDN did not take (down, or 5xx) and sends it when it is back, none lost", async () => {
      const { insertPurge } = await import("~/features/cdn/db/purges.server");
      // A closed port: nothing listens there.
      const probe = await startReceiver();
      const port = probe.port;
      await probe.close();
      const config = { ...configFor(port, "fastly"), retryBaseMs: 30_000 };
      await insertPurge(db, ["post:down"]);
      const start = new Date();
      expect(await deliverDuePurges(db, config, { now: start })).toEqual({ claimed: 1, sent: false });
      const [kept] = await listPurges(db);
      expect(kept).toMatchObject({ keys: ["post:down"], attempts: 1 });
      // Not due again at once: retried after the backoff.
      expect(Date.parse(kept!.dueAt) - start.getTime()).toBeGreaterThanOrEqual(24_000);
      expect(await deliverDuePurges(db, config, { now: new Date(start.getTime() + 1_000) })).toEqual({ claimed: 0, sent: false });

      // Back, but failing (503): kept again, the wait doubled.
      const receiver = await startReceiver(port);
      try {
        receiver.state.status = 503;
        const second = new Date(Date.parse(kept!.dueAt) + 1);
        expect(await deliverDuePurges(db, config, { now: second })).toEqual({ claimed: 1, sent: false });
        const [again] = await listPurges(db);
        expect(again).toMatchObject({ keys: ["post:down"], attempts: 2 });
        expect(Date.parse(again!.dueAt) - second.getTime()).toBeGreaterThanOrEqual(48_000);
        expect(receiver.received).toHaveLength(1);

        // Healthy: delivered, the row gone.
        receiver.state.status = 200;
        expect(await deliverDuePurges(db, config, { now: new Date(Date.parse(again!.dueAt) + 1) })).toEqual({ claimed: 1, sent: true });
        expect(receiver.received).toHaveLength(2);
        expect(receiver.received[1]!.headers["surrogate-key"]).toBe("post:down");
        expect(await pendingCdnPurges(db)).toMatchObject({ pending: 0, due: 0 });
      } finally {
        await receiver.close();
      }
    });
  });
}
