import { randomUUID } from "node:crypto";
import { Migrator, sql, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { findRevision, listRevisions } from "~/features/content/revisions.server";
import { appendAuditEntry } from "~/features/audit/db/audit-log.server";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import { toIso } from "~/db/normalize";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";

// Migration 0015-content-core on both engines, on a database filled as the site stood before it:
// posts with revisions, slug redirects, legal versions and drafts, and audit entries naming
// revisions. Every row is carried over: post revisions keep their numbers (so the audit entries
// still point at them), the old table's name still reads them, legal drafts start their history.

type Filled = {
  postIds: string[];
  revisions: { post_id: string; number: number; snapshot: string; summary: string; author_email: string; created_at: string }[];
  draftId: string;
  publishedLegalId: string;
};

async function fillAsBefore(db: Kysely<Database>, authorId: string): Promise<Filled> {
  const postIds = [randomUUID(), randomUUID()];
  const revisions: Filled["revisions"] = [];
  for (const [index, id] of postIds.entries()) {
    await db
      .insertInto("blog_posts")
      .values({
        id,
        slug: `post-${index}`,
        title: `Post ${index}`,
        excerpt: "Excerpt",
        content: "Body",
        category: "Research",
        author: "Ada",
        published_date: "2026-01-01T00:00:00.000Z",
        read_time: 1,
        image_url: null,
        featured: false,
        published: index === 0,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-02T00:00:00.000Z",
        unpublished_at: null,
      })
      .execute();
    for (let number = 1; number <= 3; number += 1) {
      const revision = {
        post_id: id,
        number,
        snapshot: JSON.stringify({ title: `Post ${index} take ${number}`, slug: `post-${index}`, content: `Body ${number}` }),
        summary: number === 1 ? "As it was before its first edit here" : "Saved",
        author_email: number === 1 ? "" : "alice@quorvant.com",
        created_at: `2026-01-0${number}T10:00:00.000Z`,
      };
      revisions.push(revision);
      await db
        .insertInto("blog_post_revisions")
        .values({ ...revision, author_id: number === 1 ? null : authorId })
        .execute();
      await appendAuditEntry(db, {
        actorId: authorId,
        actorEmail: "alice@quorvant.com",
        action: "post.saved",
        targetType: "post",
        targetId: id,
        details: { revision: number, title: `Post ${index} take ${number}` },
        ip: "127.0.0.1",
      });
    }
  }
  await db.insertInto("blog_slug_redirects").values({ slug: "old-post-0", post_id: postIds[0]!, created_at: "2026-01-03T00:00:00.000Z" }).execute();

  const publishedLegalId = randomUUID();
  const draftId = randomUUID();
  const legal = (id: string, published: boolean, version: string, revision: number) =>
    db
      .insertInto("legal_documents")
      .values({
        id,
        document_type: "privacy-policy",
        title: "Privacy Policy",
        content: JSON.stringify({ sections: [{ title: "Scope", content: `Version ${version}` }] }),
        last_updated: "2026-02-01T00:00:00.000Z",
        version,
        published,
        created_at: "2026-02-01T00:00:00.000Z",
        change_summary: published ? "" : "Clearer scope",
        author_email: published ? "" : "bob@quorvant.com",
        edited_at: published ? null : "2026-02-03T00:00:00.000Z",
        revision,
      })
      .execute();
  await legal(publishedLegalId, true, "1.0", 0);
  await legal(draftId, false, "1.1", 2);
  await appendAuditEntry(db, {
    actorId: authorId,
    actorEmail: "bob@quorvant.com",
    action: "legal.draft-saved",
    targetType: "legal_document",
    targetId: draftId,
    details: { documentType: "privacy-policy", version: "1.1", revision: 2 },
    ip: "127.0.0.1",
  });
  return { postIds, revisions, draftId, publishedLegalId };
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the content core migration on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("carries every post revision, redirect, legal version and audit reference over", async () => {
      const opened = await openDatabase(await engine.create());
      const db = opened.db;
      try {
        const { error } = await new Migrator({ db, provider: migrationProvider(opened.dialect) }).migrateTo("0014-erasure");
        expect(error).toBeUndefined();
        const authorId = randomUUID();
        await db.insertInto("admin_users").values({ id: authorId, email: "alice@quorvant.com", created_at: new Date().toISOString() }).execute();
        const filled = await fillAsBefore(db, authorId);
        const postsBefore = await db.selectFrom("blog_posts").selectAll().orderBy("id").execute();
        const legalBefore = await db.selectFrom("legal_documents").selectAll().orderBy("id").execute();
        const auditBefore = await db.selectFrom("audit_log").selectAll().orderBy("seq").execute();

        await migrateToLatest(db, opened.dialect);

        // The tables the public site and outside tools read are untouched, but for the language
        // every row has since (0020-locales): English, as every row before it, and a source of no
        // translation (0021-translations).
        const english = <Row,>(rows: Row[]) => rows.map((row) => ({ ...row, locale: "en", translation_of: null, source_revision: null }));
        expect(await db.selectFrom("blog_posts").selectAll().orderBy("id").execute()).toEqual(english(postsBefore));
        expect(await db.selectFrom("legal_documents").selectAll().orderBy("id").execute()).toEqual(english(legalBefore));
        expect(await db.selectFrom("audit_log").selectAll().orderBy("seq").execute()).toEqual(auditBefore);
        expect(await db.selectFrom("blog_slug_redirects").select(["slug", "post_id"]).execute()).toEqual([
          { slug: "old-post-0", post_id: filled.postIds[0] },
        ]);

        // Every post revision, same number, snapshot, summary, author and time.
        for (const before of filled.revisions) {
          const after = await findRevision(db, "post", before.post_id, before.number);
          expect(after).toEqual({
            number: before.number,
            summary: before.summary,
            authorEmail: before.author_email,
            createdAt: before.created_at,
            snapshot: JSON.parse(before.snapshot),
          });
        }
        const stored = await db.selectFrom("content_revisions").select(["type", "author_id"]).execute();
        expect(stored.filter((row) => row.type === "post")).toHaveLength(filled.revisions.length);
        expect(stored.filter((row) => row.author_id === authorId)).toHaveLength(4);

        // Each audit entry that names a revision finds it.
        for (const entry of auditBefore.filter((row) => row.target_type === "post")) {
          const details = (typeof entry.details === "string" ? JSON.parse(entry.details) : entry.details) as { revision: number };
          expect(await findRevision(db, "post", entry.target_id, details.revision)).toBeDefined();
        }

        // The old table's name still reads (and corrects) the posts' revisions.
        const view = await db
          .selectFrom("blog_post_revisions")
          .select(["post_id", "number", "summary"])
          .orderBy("post_id")
          .orderBy("number")
          .execute();
        expect(view).toHaveLength(filled.revisions.length);
        await db.updateTable("blog_post_revisions").set({ summary: "Corrected" }).where("post_id", "=", filled.postIds[1]!).where("number", "=", 2).execute();
        expect((await findRevision(db, "post", filled.postIds[1]!, 2))?.summary).toBe("Corrected");
        const tables = (await db.introspection.getTables()).map((table) => table.name);
        expect(tables).toEqual(expect.arrayContaining(["blog_post_revisions", "content_revisions", "content_documents"]));

        // The open legal draft starts its history as it stands, after its save counter; the
        // published version has none (it never changes).
        expect(await listRevisions(db, "legal", filled.publishedLegalId)).toEqual([]);
        const legalHistory = await findRevision(db, "legal", filled.draftId, 3);
        expect(legalHistory).toMatchObject({
          number: 3,
          authorEmail: "bob@quorvant.com",
          createdAt: "2026-02-03T00:00:00.000Z",
          snapshot: {
            document_type: "privacy-policy",
            title: "Privacy Policy",
            version: "1.1",
            effective_date: "2026-02-01T00:00:00.000Z",
            change_summary: "Clearer scope",
            sections: [{ title: "Scope", content: "Version 1.1" }],
          },
        });

        // Migrating again is a no-op; the migrations table lists this one.
        await migrateToLatest(db, opened.dialect);
        const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
        expect(names.rows.map((row) => row.name)).toContain("0015-content-core");
        expect(toIso((await findRevision(db, "post", filled.postIds[0]!, 1))!.createdAt)).toBe("2026-01-01T10:00:00.000Z");
      } finally {
        await opened.db.destroy();
      }
    });
  });
}
