import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { insertLead, type CareerApplicationInput } from "~/features/leads/db/leads.server";
import { purgeExpiredLeads } from "~/features/leads/db/retention.server";
import { eraseSubject, exportSubjectData, findSubjectData } from "~/features/privacy/db/data-subject.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// An application's position in the privacy requests and retention, on both engines: the export
// holds it, erasure and the retention purge take the whole application, position included.

const POSITION = "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1";
const by = { actor: null, ip: "command line" };

const application = (email: string, position: Partial<CareerApplicationInput>): CareerApplicationInput => ({
  first_name: "Ada",
  last_name: "Lovelace",
  email,
  phone: "",
  linkedin_profile: "",
  years_experience: null,
  current_position: "",
  why_quorvant: "Engines.",
  biggest_achievement: "",
  work_style: "",
  resume_url: "",
  source_page: "/company/careers",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
  ...position,
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`an application's position in privacy requests and retention on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("exports an application with its position and erases it whole", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        // Their own times: two rows written in the same millisecond would come out in the order of their random ids.
        const at = (createdAt: string) => ({ id: randomUUID(), createdAt });
        await insertLead(db, "career-application", application("ada@example.com", { position_id: POSITION, position_title: "Security Researcher" }), [], at("2026-03-01T10:00:00.000Z"));
        await insertLead(db, "career-application", application("ada@example.com", { position_requested: "senior-wizard (unknown)" }), [], at("2026-03-02T10:00:00.000Z"));
        const exported = JSON.parse(await exportSubjectData(db, "ADA@example.com", by)) as { leads: { lead: Record<string, unknown> }[] };
        expect(exported.leads.map((lead) => lead.lead)).toEqual([
          expect.objectContaining({ position_id: POSITION, position_title: "Security Researcher", position_requested: null }),
          expect.objectContaining({ position_id: null, position_title: null, position_requested: "senior-wizard (unknown)" }),
        ]);
        expect(await eraseSubject(db, "ada@example.com", by)).toMatchObject({ career_applications: 2 });
        expect((await findSubjectData(db, "ada@example.com")).leads).toEqual([]);
        expect(await db.selectFrom("career_applications").select("id").execute()).toEqual([]);
      } finally {
        await db.destroy();
      }
    });

    it("purges a decided application under a position as it does an open one", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const decided = { status: "rejected", decided_at: "2025-01-01T00:00:00.000Z" };
        const underPosition = await insertLead(db, "career-application", application("grace@example.com", { position_id: POSITION, position_title: "Security Researcher" }));
        const open = await insertLead(db, "career-application", application("grace@example.com", {}));
        const undecided = await insertLead(db, "career-application", application("hedy@example.com", { position_id: POSITION, position_title: "Security Researcher" }));
        await db.updateTable("career_applications").set(decided).where("id", "in", [underPosition, open]).execute();
        const counts = await purgeExpiredLeads(db, { RETENTION_SALES_MONTHS: 24, RETENTION_APPLICATIONS_MONTHS: 12 }, {
          actor: "system",
          ip: "background job",
          now: new Date("2026-06-15T12:00:00.000Z"),
        });
        expect(counts).toMatchObject({ career_applications: 2 });
        expect((await db.selectFrom("career_applications").select("id").execute()).map((row) => row.id)).toEqual([undecided]);
      } finally {
        await db.destroy();
      }
    });
  });
}
