import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseError, migrateToLatest } from "~/db/connection.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// During a rolling deploy the previous release's servers start on a database the next release has
// migrated: they must run on it, not refuse it. A database from another line of releases is refused.

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`a database a newer release migrated (${engine.name})`, () => {
    afterAll(() => engine.cleanup());

    it("is used as it is when every migration this release knows is applied", async () => {
      const { db, dialect } = await migratedDatabase(engine, 1);
      try {
        await sql`insert into kysely_migration (name, timestamp) values ('9999-next-release', '2030-01-01T00:00:00.000Z')`.execute(db);
        await expect(migrateToLatest(db, dialect)).resolves.toBeUndefined();
        const names = await sql<{ name: string }>`select name from kysely_migration where name = '9999-next-release'`.execute(db);
        expect(names.rows).toHaveLength(1);
      } finally {
        await db.destroy();
      }
    });

    it("is refused, naming what it lacks, when one of this release's migrations is missing", async () => {
      const { db, dialect } = await migratedDatabase(engine, 1);
      try {
        await sql`delete from kysely_migration where name = '0022-invitation-locales'`.execute(db);
        await sql`insert into kysely_migration (name, timestamp) values ('9999-other-line', '2030-01-01T00:00:00.000Z')`.execute(db);
        const refusal = migrateToLatest(db, dialect);
        await expect(refusal).rejects.toBeInstanceOf(DatabaseError);
        await expect(refusal).rejects.toThrow(/lacks 0022-invitation-locales/);
      } finally {
        await db.destroy();
      }
    });
  });
}
