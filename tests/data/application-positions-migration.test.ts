import { randomUUID } from "node:crypto";
import { Migrator, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";

const OPEN_APPLICATION = { position_id: null, position_title: null, position_requested: null };

// Migration 0018-application-positions on both engines: applications stored before it (every one
// an open application) keep every value and read as open applications (no position, nothing asked for).

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the application positions migration on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("keeps every earlier application, each as an open application", async () => {
      const opened = await openDatabase(await engine.create());
      const db = opened.db as Kysely<Database>;
      try {
        const migrator = new Migrator({ db, provider: migrationProvider(opened.dialect) });
        const { error } = await migrator.migrateTo("0017-redirects");
        expect(error).toBeUndefined();
        const earlier = [
          { id: randomUUID(), created_at: "2026-03-03T10:00:00.000Z", email: "grace@example.com", first_name: "Grace", status: "interview" },
          { id: randomUUID(), created_at: "2026-03-04T10:00:00.000Z", email: "ada@example.com", years_experience: 12, status: "new" },
        ];
        for (const row of earlier) await db.insertInto("career_applications").values(row).execute();

        await migrateToLatest(db, opened.dialect);

        const rows = await db
          .selectFrom("career_applications")
          .select(["id", "email", "status", "years_experience", "position_id", "position_title", "position_requested"])
          .orderBy("created_at")
          .execute();
        expect(rows.map((row) => ({ ...row, years_experience: row.years_experience == null ? null : Number(row.years_experience) }))).toEqual([
          { id: earlier[0]!.id, email: "grace@example.com", status: "interview", years_experience: null, ...OPEN_APPLICATION },
          { id: earlier[1]!.id, email: "ada@example.com", status: "new", years_experience: 12, ...OPEN_APPLICATION },
        ]);
      } finally {
        await db.destroy();
      }
    });
  });
}
