import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import { insertLead } from "~/features/leads/db/leads.server";
import { findExpiredLeads, monthsBefore, purgeExpiredLeads } from "~/features/leads/db/retention.server";
import type { Database, LeadTable } from "~/db/schema";
import type { LeadFormId } from "~/features/leads/registry";
import { runRetentionIfDue } from "~/features/leads/retention-job.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { demo } from "./support/fixtures";

// Retention on both engines: exactly the leads the rules name go, with their deliveries and
// activity; won leads and undecided applications stay; two servers running the daily job at the
// same moment delete once and write one audit entry.

const NOW = new Date("2026-06-15T12:00:00.000Z");
const months = { RETENTION_SALES_MONTHS: 24, RETENTION_APPLICATIONS_MONTHS: 12 };
const SALES_CUTOFF = "2024-06-15T12:00:00.000Z";
const APPLICATIONS_CUTOFF = "2025-06-15T12:00:00.000Z";
const JUST_BEFORE = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

const tracking = { source_page: "/", utm_source: "", utm_medium: "", utm_campaign: "" };
const sales = {
  first_name: "Sam",
  last_name: "Sales",
  email: "sam@example.com",
  company: "Acme",
  phone: "",
  message: "",
  product_name: "General",
  ...tracking,
};
const career = {
  first_name: "Cara",
  last_name: "Candidate",
  email: "cara@example.com",
  phone: "",
  linkedin_profile: "",
  years_experience: 3,
  current_position: "",
  why_quorvant: "Because.",
  biggest_achievement: "",
  work_style: "",
  resume_url: "",
  ...tracking,
};

type Dates = { created_at: string; last_interaction_at?: string | null; decided_at?: string | null; status?: string };

describe("monthsBefore", () => {
  it("steps back calendar months in UTC, the 31st of a shorter month becoming its last day", () => {
    expect(monthsBefore(NOW, 24).toISOString()).toBe(SALES_CUTOFF);
    expect(monthsBefore(new Date("2026-03-31T08:00:00.000Z"), 1).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(monthsBefore(new Date("2024-03-31T08:00:00.000Z"), 1).toISOString()).toBe("2024-02-29T08:00:00.000Z");
    expect(monthsBefore(new Date("2026-01-15T00:00:00.000Z"), 13).toISOString()).toBe("2024-12-15T00:00:00.000Z");
  });
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`lead retention on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 6));
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    const tables: Record<LeadFormId, LeadTable> = {
      "contact-sales": "sales_leads",
      "request-demo": "demo_requests",
      "career-application": "career_applications",
    };

    /** A lead with its dates set as if it had lived that long, two deliveries and one activity entry. */
    async function lead(form: LeadFormId, dates: Dates): Promise<string> {
      const values = form === "contact-sales" ? sales : form === "request-demo" ? demo : career;
      const id = await insertLead(db, form, values as never, ["email", "webhook"]);
      await db
        .updateTable(tables[form])
        .set({ status: "new", ...dates })
        .where("id", "=", id)
        .execute();
      await db
        .insertInto("lead_activity")
        .values({ id: randomUUID(), lead_table: tables[form], lead_id: id, kind: "note", body: "Called them." })
        .execute();
      return id;
    }

    async function ids(table: LeadTable) {
      return (await db.selectFrom(table).select("id").execute()).map((row) => String(row.id)).sort();
    }

    async function seed() {
      return {
        // Contact and demo requests: from the last interaction, or the submission when none; won stays.
        untouchedOld: await lead("contact-sales", { created_at: JUST_BEFORE(SALES_CUTOFF) }),
        untouchedAtCutoff: await lead("contact-sales", { created_at: SALES_CUTOFF }),
        recentInteraction: await lead("contact-sales", { created_at: "2020-01-01T00:00:00.000Z", last_interaction_at: "2025-01-01T00:00:00.000Z", status: "contacted" }),
        oldInteraction: await lead("contact-sales", { created_at: "2020-01-01T00:00:00.000Z", last_interaction_at: JUST_BEFORE(SALES_CUTOFF), status: "contacted" }),
        interactionAtCutoff: await lead("contact-sales", { created_at: "2020-01-01T00:00:00.000Z", last_interaction_at: SALES_CUTOFF, status: "qualified" }),
        won: await lead("contact-sales", { created_at: "2019-01-01T00:00:00.000Z", last_interaction_at: "2019-02-01T00:00:00.000Z", decided_at: "2019-02-01T00:00:00.000Z", status: "won" }),
        lostDemo: await lead("request-demo", { created_at: "2020-01-01T00:00:00.000Z", last_interaction_at: "2020-02-01T00:00:00.000Z", decided_at: "2020-02-01T00:00:00.000Z", status: "lost" }),
        wonDemo: await lead("request-demo", { created_at: "2020-01-01T00:00:00.000Z", status: "won" }),
        newDemo: await lead("request-demo", { created_at: "2026-06-01T00:00:00.000Z" }),
        // Applications: from the decision (hired or rejected); undecided ones stay however old.
        hiredOld: await lead("career-application", { created_at: "2024-01-01T00:00:00.000Z", decided_at: JUST_BEFORE(APPLICATIONS_CUTOFF), status: "hired" }),
        rejectedAtCutoff: await lead("career-application", { created_at: "2024-01-01T00:00:00.000Z", decided_at: APPLICATIONS_CUTOFF, status: "rejected" }),
        rejectedRecent: await lead("career-application", { created_at: "2024-01-01T00:00:00.000Z", decided_at: "2026-01-01T00:00:00.000Z", status: "rejected" }),
        undecidedAncient: await lead("career-application", { created_at: "2010-01-01T00:00:00.000Z", status: "interview" }),
        // Moved back from a decision without the date being cleared: not decided, so it stays.
        reopened: await lead("career-application", { created_at: "2010-01-01T00:00:00.000Z", decided_at: "2011-01-01T00:00:00.000Z", status: "offer" }),
      };
    }

    it("deletes exactly what the rules name, with their deliveries and activity, and audits the counts", async () => {
      const seeded = await seed();
      const gone = [seeded.untouchedOld, seeded.oldInteraction, seeded.lostDemo, seeded.hiredOld];

      const expired = await findExpiredLeads(db, months, NOW);
      expect(expired.map((lead) => [lead.table, lead.id])).toEqual([
        ["sales_leads", seeded.oldInteraction],
        ["sales_leads", seeded.untouchedOld],
        ["demo_requests", seeded.lostDemo],
        ["career_applications", seeded.hiredOld],
      ]);
      expect(expired[0]).toEqual({
        table: "sales_leads",
        id: seeded.oldInteraction,
        createdAt: "2020-01-01T00:00:00.000Z",
        lastInteractionAt: JUST_BEFORE(SALES_CUTOFF),
        decidedAt: null,
        status: "contacted",
      });
      // Listing deletes nothing.
      expect(await ids("sales_leads")).toHaveLength(6);

      const counts = await purgeExpiredLeads(db, months, { actor: "system", ip: "background job", now: NOW });
      expect(counts).toEqual({
        sales_leads: 2,
        demo_requests: 1,
        career_applications: 1,
        lead_deliveries: 8,
        lead_activity: 4,
      });
      expect(await ids("sales_leads")).toEqual(
        [seeded.untouchedAtCutoff, seeded.recentInteraction, seeded.interactionAtCutoff, seeded.won].sort(),
      );
      expect(await ids("demo_requests")).toEqual([seeded.wonDemo, seeded.newDemo].sort());
      expect(await ids("career_applications")).toEqual(
        [seeded.rejectedAtCutoff, seeded.rejectedRecent, seeded.undecidedAncient, seeded.reopened].sort(),
      );
      const deliveries = await listDeliveries(db);
      expect(deliveries).toHaveLength(20);
      expect(deliveries.filter((delivery) => gone.includes(delivery.lead_id))).toEqual([]);
      const activity = await db.selectFrom("lead_activity").select("lead_id").execute();
      expect(activity).toHaveLength(10);
      expect(activity.filter((entry) => gone.includes(String(entry.lead_id)))).toEqual([]);

      const { entries } = await listAuditEntries(db, { action: "leads.purged" }, { limit: 10 });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actorId: null, actorEmail: "system", details: { counts, months } });
      expect(JSON.stringify(entries[0])).not.toMatch(/example\.com|Sam|Cara|Ada|Lovelace|Called/);

      // A second purge finds nothing more, and says so.
      expect(await purgeExpiredLeads(db, months, { actor: null, ip: "command line", now: NOW })).toMatchObject({
        sales_leads: 0,
        demo_requests: 0,
        career_applications: 0,
      });
    });

    it("runs the daily job once when two servers start it at the same moment", async () => {
      await seed();
      const runs = await Promise.all([runRetentionIfDue(db, { months, now: NOW }), runRetentionIfDue(db, { months, now: NOW })]);
      const done = runs.filter((counts) => counts !== undefined);
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ sales_leads: 2, demo_requests: 1, career_applications: 1 });
      const { entries } = await listAuditEntries(db, { action: "leads.purged" }, { limit: 10 });
      expect(entries).toHaveLength(1);
      expect(entries[0]!.details).toMatchObject({ counts: done[0] });

      // Ran today: not due again until a day later.
      expect(await runRetentionIfDue(db, { months, now: new Date(NOW.getTime() + 60 * 60 * 1000) })).toBeUndefined();
      // A day later it runs again, and the leads that sat exactly on yesterday's cutoffs go.
      const nextDay = await runRetentionIfDue(db, { months, now: new Date(NOW.getTime() + 24 * 60 * 60 * 1000) });
      expect(nextDay).toMatchObject({ sales_leads: 2, demo_requests: 0, career_applications: 1 });
      expect((await listAuditEntries(db, { action: "leads.purged" }, { limit: 10 })).entries).toHaveLength(2);
    });
  });
}
