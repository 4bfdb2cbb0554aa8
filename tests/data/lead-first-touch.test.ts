import { randomUUID } from "node:crypto";
import { Migrator, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import { migrationProvider } from "~/db/migrations";
import type { Database, LeadTable } from "~/db/schema";
import { TRACKING_COLUMNS } from "~/features/leads/registry.server";
import { campaignReport } from "~/features/visits/campaign-report.server";
import { engines } from "./support/engines";

// Migration 0012-lead-first-touch on both engines: a lead stored before it (its utm_* columns
// holding the visit's first page's campaign, as the forms wrote them then) keeps those values and
// gets them in its first-touch columns too, from which the sales report counts it.

const TABLES: LeadTable[] = ["sales_leads", "demo_requests", "career_applications"];

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the first-touch migration on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("carries an older lead's campaign into its first-touch columns and leaves its utm_* columns as they were", async () => {
      const opened = await openDatabase(await engine.create());
      const db = opened.db as Kysely<Database>;
      try {
        const migrator = new Migrator({ db, provider: migrationProvider(opened.dialect) });
        const { error } = await migrator.migrateTo("0010-page-views");
        expect(error).toBeUndefined();
        // A lead as the forms stored it then: the visit began on the home page with a newsletter link.
        const stored = {
          created_at: "2026-03-03T10:00:00.000Z",
          email: "grace@example.com",
          source_page: "/contact-sales",
          landing_page: "/",
          referrer_host: "mail.example",
          utm_source: "newsletter",
          utm_medium: "email",
          utm_campaign: "spring",
          utm_term: "ai governance",
          utm_content: "footer",
        };
        for (const table of TABLES) {
          await db
            .insertInto(table as "sales_leads")
            .values({ id: randomUUID(), ...stored, status: table === "demo_requests" ? "won" : "new" })
            .execute();
        }

        await migrateToLatest(db, opened.dialect);

        for (const table of TABLES) {
          const row = await db
            .selectFrom(table as "sales_leads")
            .select([...TRACKING_COLUMNS])
            .executeTakeFirstOrThrow();
          expect(row, table).toEqual({
            source_page: "/contact-sales",
            landing_page: "/",
            referrer_host: "mail.example",
            utm_source: "newsletter",
            utm_medium: "email",
            utm_campaign: "spring",
            utm_term: "ai governance",
            utm_content: "footer",
            first_utm_source: "newsletter",
            first_utm_medium: "email",
            first_utm_campaign: "spring",
            first_utm_term: "ai governance",
            first_utm_content: "footer",
          });
        }

        // A lead stored now, whose form page carried its own campaign: the report counts it under
        // its first touch, beside the older ones.
        await db
          .insertInto("demo_requests")
          .values({
            id: randomUUID(),
            created_at: "2026-03-04T10:00:00.000Z",
            email: "ada@example.com",
            utm_source: "ad",
            utm_campaign: "form-page",
            first_utm_source: "newsletter",
            first_utm_campaign: "spring",
          })
          .execute();
        const report = await campaignReport(db, { from: "2026-03-02", to: "2026-03-08" }, "www.quorvant.example");
        expect(report.campaigns).toEqual([{ source: "newsletter", campaign: "spring", visits: 0, leads: 3, won: 1 }]);

      } finally {
        await db.destroy();
      }
    });
  });
}
