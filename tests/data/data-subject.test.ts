import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import {
  correctSubjectField,
  eraseSubject,
  exportSubjectData,
  findSubjectData,
  lookUpSubject,
  subjectHash,
} from "~/features/privacy/db/data-subject.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import { insertLead } from "~/features/leads/db/leads.server";
import type { Database, LeadTable } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { demo } from "./support/fixtures";

// Privacy requests on both engines: everything held about an address (any case) across every
// lead table with its deliveries and activity; a correction validated by the form's own rule; an
// erasure of all of it, audited with a hash of the address and never the address.

const tracking = { source_page: "/", utm_source: "", utm_medium: "", utm_campaign: "" };
const ADDRESS = "Jo.Subject@Example.com";
const by = { actor: null, ip: "command line" };

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`privacy requests on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    async function note(table: LeadTable, id: string, body: string) {
      await db.insertInto("lead_activity").values({ id: randomUUID(), lead_table: table, lead_id: id, kind: "note", body }).execute();
    }

    async function seed() {
      const sales = await insertLead(
        db,
        "contact-sales",
        { first_name: "Jo", last_name: "Subject", email: "jo.subject@example.com", company: "Acme", phone: "+1 555 0100", message: "Hello", product_name: "General", ...tracking },
        ["email"],
      );
      const demoId = await insertLead(db, "request-demo", { ...demo, first_name: "Jo", email: "JO.SUBJECT@EXAMPLE.COM" }, ["email", "webhook"]);
      const other = await insertLead(db, "request-demo", demo, ["webhook"]);
      const otherCareer = await insertLead(db, "career-application", {
        first_name: "Al",
        last_name: "Other",
        email: "al@example.com",
        phone: "",
        linkedin_profile: "",
        years_experience: null,
        current_position: "",
        why_quorvant: "x",
        biggest_achievement: "",
        work_style: "",
        resume_url: "",
        ...tracking,
      });
      await note("sales_leads", sales, "Called Jo.");
      await note("demo_requests", other, "Someone else's note.");
      return { sales, demoId, other, otherCareer };
    }

    it("finds everything held about an address, whatever its case, and exports it as one JSON document", async () => {
      const { sales, demoId } = await seed();
      const data = await findSubjectData(db, "  jo.SUBJECT@example.COM ");
      expect(data.email).toBe("jo.subject@example.com");
      expect(data.leads.map((lead) => [lead.table, lead.id, lead.deliveries.length, lead.activity.length])).toEqual([
        ["sales_leads", sales, 1, 1],
        ["demo_requests", demoId, 2, 0],
      ]);
      const salesLead = data.leads[0]!;
      expect(salesLead.form).toBe("contact-sales");
      expect(salesLead.lead).toMatchObject({ id: sales, first_name: "Jo", company: "Acme", status: "new", decided_at: null });
      expect(Object.keys(salesLead.lead).slice(0, 3)).toEqual(["id", "created_at", "first_name"]);
      expect(salesLead.activity[0]).toMatchObject({ kind: "note", body: "Called Jo." });
      expect(salesLead.deliveries[0]).toMatchObject({ destination: "email", status: "pending", attempts: 0 });

      const exported = JSON.parse(await exportSubjectData(db, ADDRESS, by));
      expect(exported.email).toBe("jo.subject@example.com");
      expect(exported.leads).toHaveLength(2);
      expect(exported.leads[1].lead.email).toBe("JO.SUBJECT@EXAMPLE.COM");
      expect(await findSubjectData(db, "nobody@example.com")).toEqual({ email: "nobody@example.com", leads: [] });

      await lookUpSubject(db, ADDRESS, by);
      const { entries } = await listAuditEntries(db, {}, { limit: 10 });
      const hash = createHash("sha256").update("jo.subject@example.com").digest("hex");
      expect(subjectHash(ADDRESS)).toBe(hash);
      expect(entries.map((entry) => [entry.action, entry.targetId]).sort()).toEqual([
        ["privacy.exported", hash],
        ["privacy.looked-up", hash],
      ]);
      expect(entries.find((entry) => entry.action === "privacy.exported")!.details).toMatchObject({ counts: { sales_leads: 1, demo_requests: 1, lead_deliveries: 3, lead_activity: 1 } });
      expect(JSON.stringify(entries).toLowerCase()).not.toContain("jo.subject");
    });

    it("corrects one field with the form's own rule, records which field and never the values", async () => {
      const { sales, demoId, other } = await seed();
      expect(await correctSubjectField(db, { email: ADDRESS, table: "sales_leads", id: sales, field: "company", value: "Acme Ltd" }, by)).toEqual({
        ok: true,
      });
      // The form's rule: one line, trimmed.
      await correctSubjectField(db, { email: ADDRESS, table: "sales_leads", id: sales, field: "last_name", value: " Sub\r\nject " }, by);
      const lead = (await findSubjectData(db, ADDRESS)).leads[0]!;
      expect(lead.lead).toMatchObject({ company: "Acme Ltd", last_name: "Sub ject" });
      expect(lead.activity.map((entry) => [entry.kind, entry.from_value, entry.to_value]).sort()).toEqual([
        ["correction", "company", ""],
        ["correction", "last_name", ""],
        ["note", "", ""],
      ]);

      // Refused, changing nothing: a bad value, a field the form does not have, a lead of someone else.
      const refusals = [
        await correctSubjectField(db, { email: ADDRESS, table: "demo_requests", id: demoId, field: "email", value: "not an address" }, by),
        await correctSubjectField(db, { email: ADDRESS, table: "demo_requests", id: demoId, field: "company_size", value: "huge" }, by),
        await correctSubjectField(db, { email: ADDRESS, table: "demo_requests", id: demoId, field: "status", value: "won" }, by),
        await correctSubjectField(db, { email: ADDRESS, table: "demo_requests", id: other, field: "company", value: "Mine now" }, by),
        await correctSubjectField(db, { email: ADDRESS, table: "blog_posts", id: demoId, field: "title", value: "x" }, by),
      ];
      expect(refusals.map((result) => !result.ok && result.field)).toEqual(["value", "value", "field", "lead", "lead"]);
      const demoRow = await db.selectFrom("demo_requests").selectAll().where("id", "=", other).executeTakeFirstOrThrow();
      expect(demoRow.company).toBe(demo.company);

      const { entries } = await listAuditEntries(db, { action: "privacy.corrected" }, { limit: 10 });
      expect(entries.map((entry) => String(entry.details.field)).sort()).toEqual(["company", "last_name"]);
      expect(JSON.stringify(entries)).not.toMatch(/Acme Ltd|Sub ject|jo\.subject/i);
    });

    it("erases every lead, delivery and activity held about the address in one go, audited with its hash only", async () => {
      const { other, otherCareer } = await seed();
      const counts = await eraseSubject(db, ADDRESS, { actor: null, ip: "command line" });
      expect(counts).toEqual({ sales_leads: 1, demo_requests: 1, career_applications: 0, lead_deliveries: 3, lead_activity: 1 });
      expect(await findSubjectData(db, ADDRESS)).toEqual({ email: "jo.subject@example.com", leads: [] });
      for (const table of ["sales_leads", "demo_requests", "career_applications"] as const) {
        const rows = await db
          .selectFrom(table)
          .select("email")
          .where((eb) => eb(eb.fn("lower", ["email"]), "=", "jo.subject@example.com"))
          .execute();
        expect(rows).toEqual([]);
      }
      // Everyone else's leads, deliveries and activity stay.
      expect((await listDeliveries(db)).map((delivery) => delivery.lead_id)).toEqual([other]);
      expect((await db.selectFrom("lead_activity").select("lead_id").execute()).map((row) => String(row.lead_id))).toEqual([other]);
      expect((await db.selectFrom("career_applications").select("id").execute()).map((row) => String(row.id))).toEqual([otherCareer]);

      const { entries } = await listAuditEntries(db, { action: "privacy.erased" }, { limit: 10 });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ targetType: "data-subject", targetId: subjectHash(ADDRESS), details: { counts } });
      expect(JSON.stringify(entries[0]).toLowerCase()).not.toContain("jo.subject");
      // Nothing left: a second erasure deletes nothing and still leaves its entry.
      expect(await eraseSubject(db, ADDRESS, by)).toMatchObject({ sales_leads: 0, demo_requests: 0, lead_deliveries: 0 });
    });
  });
}
