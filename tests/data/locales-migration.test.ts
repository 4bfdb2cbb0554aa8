import { randomUUID } from "node:crypto";
import { Migrator, sql, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import { LOCALE_TABLES } from "~/db/migrations/0020-locales";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";

// Migration 0020-locales on both engines: every row stored before it is English, and so is a row
// written afterwards without a locale (an operator's tool, an import of the earlier format); a
// row may say another locale, and a translation names its source and the source's revision.
// Migration 0022-invitation-locales: an invitation names the languages it limits its person to,
// none (every language) for every invitation before it.

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the locales migration on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("makes every earlier row and every row written without a locale English; a translation names its source", async () => {
      const opened = await openDatabase(await engine.create());
      const db = opened.db as Kysely<Database>;
      try {
        const migrator = new Migrator({ db, provider: migrationProvider(opened.dialect) });
        expect((await migrator.migrateTo("0019-first-publication")).error).toBeUndefined();
        const before = randomUUID();
        await db.insertInto("demo_requests").values({ id: before, created_at: "2026-03-03T10:00:00.000Z", email: "ada@example.com" }).execute();

        await migrateToLatest(db, opened.dialect);

        // Written as a tool of today would write it: no locale named.
        const after = randomUUID();
        await sql`insert into demo_requests (id, created_at, email) values (${after}, ${"2026-03-04T10:00:00.000Z"}, ${"grace@example.com"})`.execute(db);
        const german = randomUUID();
        await db
          .insertInto("demo_requests")
          .values({ id: german, created_at: "2026-03-05T10:00:00.000Z", email: "hedy@example.de", locale: "de" })
          .execute();
        expect(await db.selectFrom("demo_requests").select(["id", "locale"]).orderBy("created_at").execute()).toEqual([
          { id: before, locale: "en" },
          { id: after, locale: "en" },
          { id: german, locale: "de" },
        ]);

        for (const table of LOCALE_TABLES) {
          const columns = (await db.introspection.getTables()).find((t) => t.name === table)!.columns;
          expect(columns.find((column) => column.name === "locale"), table).toMatchObject({ isNullable: false, hasDefaultValue: true });
        }

        const source = randomUUID();
        const translation = randomUUID();
        const document = (id: string, path: string) => ({
          id,
          type: "page",
          path,
          draft: "{}",
          created_at: "2026-03-01T10:00:00.000Z",
          created_by_email: "editor@quorvant.com",
          updated_at: "2026-03-01T10:00:00.000Z",
          updated_by_email: "editor@quorvant.com",
        });
        await db.insertInto("content_documents").values(document(source, "/products/sentinel")).execute();
        await db
          .insertInto("content_documents")
          .values({ ...document(translation, "/de/produkte/sentinel"), locale: "de", translation_of: source, source_revision: 1 })
          .execute();
        expect(
          await db.selectFrom("content_documents").select(["id", "locale", "translation_of", "source_revision"]).orderBy("path").execute(),
        ).toEqual([
          { id: translation, locale: "de", translation_of: source, source_revision: 1 },
          { id: source, locale: "en", translation_of: null, source_revision: null },
        ]);

        // 0021-translations: posts and legal versions name their source the same way; a person
        // with no language rows may edit every language.
        for (const table of ["blog_posts", "legal_documents"] as const) {
          const columns = (await db.introspection.getTables()).find((t) => t.name === table)!.columns;
          for (const name of ["translation_of", "source_revision"])
            expect(columns.find((column) => column.name === name), `${table}.${name}`).toMatchObject({ isNullable: true });
        }
        const person = randomUUID();
        await db.insertInto("admin_users").values({ id: person, email: "de-editor@quorvant.com", created_at: "2026-03-01T10:00:00.000Z" }).execute();
        await db.insertInto("admin_user_locales").values({ user_id: person, locale: "de" }).execute();
        await expect(db.insertInto("admin_user_locales").values({ user_id: person, locale: "de" }).execute()).rejects.toThrow();
        await db.deleteFrom("admin_users").where("id", "=", person).execute();
        expect(await db.selectFrom("admin_user_locales").selectAll().execute()).toEqual([]);
      } finally {
        await db.destroy();
      }
    });

    it("gives every invitation made before 0022-invitation-locales, and one written without languages, no limit", async () => {
      const opened = await openDatabase(await engine.create());
      const db = opened.db as Kysely<Database>;
      try {
        const migrator = new Migrator({ db, provider: migrationProvider(opened.dialect) });
        expect((await migrator.migrateTo("0021-translations")).error).toBeUndefined();
        const invitation = (email: string) => ({
          id: randomUUID(),
          token_hash: randomUUID(),
          email,
          roles: "editor",
          created_at: "2026-03-01T10:00:00.000Z",
          expires_at: "2026-03-02T10:00:00.000Z",
        });
        await db.insertInto("admin_invitations").values(invitation("before@quorvant.com")).execute();

        await migrateToLatest(db, opened.dialect);

        const after = invitation("after@quorvant.com");
        await sql`insert into admin_invitations (id, token_hash, email, roles, created_at, expires_at)
          values (${after.id}, ${after.token_hash}, ${after.email}, ${after.roles}, ${after.created_at}, ${after.expires_at})`.execute(db);
        await db
          .insertInto("admin_invitations")
          .values({ ...invitation("translator@quorvant.com"), locales: "de" })
          .execute();
        expect(await db.selectFrom("admin_invitations").select(["email", "locales"]).orderBy("email").execute()).toEqual([
          { email: "after@quorvant.com", locales: "" },
          { email: "before@quorvant.com", locales: "" },
          { email: "translator@quorvant.com", locales: "de" },
        ]);
        const columns = (await db.introspection.getTables()).find((t) => t.name === "admin_invitations")!.columns;
        expect(columns.find((column) => column.name === "locales")).toMatchObject({ isNullable: false, hasDefaultValue: true });

        // And back: the column goes, the invitations stay.
        expect((await migrator.migrateTo("0021-translations")).error).toBeUndefined();
        expect(await db.selectFrom("admin_invitations").select("email").orderBy("email").execute()).toHaveLength(3);
      } finally {
        await db.destroy();
      }
    });
  });
}
