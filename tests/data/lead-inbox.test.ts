import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "~/features/auth/db/admin-users.server";
import { type OpenDatabase } from "~/db/connection.server";
import { listDeliveries } from "~/features/leads/db/deliveries.server";
import {
  findLeadRecord,
  listLeadActivity,
  listLeadInbox,
  type LeadCursor,
  type LeadInboxFilter,
} from "~/features/leads/db/lead-inbox.server";
import { toIso } from "~/db/normalize";
import type { Database, LeadTable } from "~/db/schema";
import { leadForms } from "~/features/leads/registry";
import { addNote, assignLead, changeLeadStatus, deliverAgain, type Worker } from "~/features/leads/workspace.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// The lead desks' data on both engines: an inbox pages through every lead exactly once in order
// (ties and microseconds included), its filters and prefix search narrow it, and the workflow's
// changes keep decision and interaction times, activity and the audit log in step.

type LeadValues = {
  created_at: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  company?: string;
  status?: string;
  owner_id?: string | null;
  source_page?: string;
  utm_campaign?: string;
  first_utm_campaign?: string;
};

async function addLead(db: Kysely<Database>, table: LeadTable, values: LeadValues): Promise<string> {
  const id = randomUUID();
  const { company, ...rest } = values;
  await db
    .insertInto(table as "sales_leads")
    .values({ id, first_name: "Someone", last_name: "Else", email: `${id}@example.com`, ...rest, ...(table === "career_applications" ? {} : { company: company ?? "" }) })
    .execute();
  return id;
}

/** The inbox, page by page from the newest, following the Older cursors. */
async function walkOlder(db: Kysely<Database>, table: LeadTable, filter: LeadInboxFilter, limit: number) {
  const pages: string[][] = [];
  let after: LeadCursor | undefined;
  for (let guard = 0; guard < 100; guard += 1) {
    const page = await listLeadInbox(db, table, filter, { after, limit });
    pages.push(page.leads.map((lead) => lead.id));
    if (!page.older) return { pages, last: page };
    after = page.older;
  }
  throw new Error("the pages never ended");
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`lead inbox on ${engine.name}`, () => {
    let opened: OpenDatabase;
    let db: Kysely<Database>;

    beforeEach(async () => {
      opened = await migratedDatabase(engine, 4);
      db = opened.db;
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("pages through every lead exactly once, newest first, both ways", async () => {
      // Same-instant ties (ordered by id) and instants a microsecond apart, as PostgreSQL keeps them.
      const stamps = [
        "2026-03-01T10:00:00.000000Z",
        "2026-03-01T10:00:00.000000Z",
        "2026-03-01T10:00:00.000000Z",
        "2026-03-01T10:00:00.000001Z",
        "2026-03-01T10:00:00.000002Z",
        "2026-03-02T09:30:00.500000Z",
        "2026-03-02T09:30:00.500000Z",
      ];
      const rows: { id: string; at: string }[] = [];
      for (let index = 0; index < 23; index += 1) {
        const at = stamps[index % stamps.length]!.replace("2026-03-0", `2026-0${3 + (index % 3)}-0`);
        rows.push({ id: await addLead(db, "demo_requests", { created_at: at }), at });
      }
      // Another form's leads never show in this inbox.
      await addLead(db, "sales_leads", { created_at: "2026-03-03T00:00:00.000000Z" });
      // By code point, as both engines compare text and UUIDs (localeCompare would skip the dashes).
      const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
      const expected = [...rows].sort((a, b) => descending(a.at, b.at) || descending(a.id, b.id)).map((row) => row.id);

      const { pages, last } = await walkOlder(db, "demo_requests", {}, 5);
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flat()).toEqual(expected);

      // Back up from the last page with the Newer cursors: the same pages, in reverse.
      const back: string[][] = [pages.at(-1)!];
      let newer = last.newer;
      while (newer) {
        const page = await listLeadInbox(db, "demo_requests", {}, { before: newer, limit: 5 });
        back.unshift(page.leads.map((lead) => lead.id));
        newer = page.newer;
      }
      expect(back).toEqual(pages);
      // The newest page has no Newer link; a page reached by Older always has one.
      expect((await listLeadInbox(db, "demo_requests", {}, { limit: 5 })).newer).toBeUndefined();
    });

    it("filters by status, owner, days, form page and the campaign of the visit's first page", async () => {
      const owner = await createUser(db, { email: "seller@quorvant.com", roles: ["sales"] });
      const a = await addLead(db, "sales_leads", {
        created_at: "2026-04-01T08:00:00.000Z",
        status: "contacted",
        owner_id: owner.id,
        source_page: "/contact-sales",
        first_utm_campaign: "spring",
      });
      const b = await addLead(db, "sales_leads", { created_at: "2026-04-02T23:59:59.999Z", source_page: "/pricing", first_utm_campaign: "spring" });
      // Its visit began with another campaign than its form page's address carried.
      const c = await addLead(db, "sales_leads", { created_at: "2026-04-03T00:00:00.000Z", utm_campaign: "spring", first_utm_campaign: "autumn" });
      const ids = async (filter: LeadInboxFilter) =>
        (await listLeadInbox(db, "sales_leads", filter, { limit: 50 })).leads.map((lead) => lead.id);
      expect(await ids({})).toEqual([c, b, a]);
      expect(await ids({ status: "contacted" })).toEqual([a]);
      expect(await ids({ status: "new" })).toEqual([c, b]);
      expect(await ids({ ownerId: owner.id })).toEqual([a]);
      expect(await ids({ ownerId: null })).toEqual([c, b]);
      expect(await ids({ from: "2026-04-02T00:00:00.000Z", until: "2026-04-03T00:00:00.000Z" })).toEqual([b]);
      expect(await ids({ sourcePage: "/pricing" })).toEqual([b]);
      expect(await ids({ campaign: "spring" })).toEqual([b, a]);
      expect(await ids({ campaign: "spring", status: "new" })).toEqual([b]);
      expect(await ids({ campaign: "autumn" })).toEqual([c]);
      const [newest] = (await listLeadInbox(db, "sales_leads", {}, { limit: 1 })).leads;
      expect(newest).toMatchObject({ id: c, campaign: "spring", firstCampaign: "autumn" });
      const [first] = (await listLeadInbox(db, "sales_leads", { ownerId: owner.id }, { limit: 50 })).leads;
      expect(first?.ownerEmail).toBe("seller@quorvant.com");
    });

    it("searches names, emails and companies by prefix, whatever the case", async () => {
      const ada = await addLead(db, "sales_leads", {
        created_at: "2026-05-01T00:00:00.000Z",
        first_name: "Ada",
        last_name: "Lovelace",
        email: "Ada.Lovelace@Engines.example",
        company: "Analytical Engines",
      });
      const grace = await addLead(db, "sales_leads", {
        created_at: "2026-05-02T00:00:00.000Z",
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace@navy.example",
        company: "100%_Cobol",
      });
      const search = async (text: string, table: LeadTable = "sales_leads") =>
        (await listLeadInbox(db, table, { search: text }, { limit: 50 })).leads.map((lead) => lead.id);
      expect(await search("ADA")).toEqual([ada]);
      expect(await search("lovel")).toEqual([ada]);
      expect(await search("ada.LOVELACE@eng")).toEqual([ada]);
      expect(await search("analytical eng")).toEqual([ada]);
      expect(await search("ada love")).toEqual([ada]);
      expect(await search("grace hop")).toEqual([grace]);
      expect(await search("g")).toEqual([grace]);
      // A prefix, not a substring; LIKE's wildcards are plain characters.
      expect(await search("velace")).toEqual([]);
      expect(await search("100%_")).toEqual([grace]);
      expect(await search("1%")).toEqual([]);
      expect(await search("_")).toEqual([]);
      // Applications have no company, and search the same way.
      const applicant = await addLead(db, "career_applications", {
        created_at: "2026-05-03T00:00:00.000Z",
        first_name: "Alan",
        last_name: "Turing",
        email: "alan@bletchley.example",
      });
      expect(await search("TUR", "career_applications")).toEqual([applicant]);
      expect(await search("alan@", "career_applications")).toEqual([applicant]);
    });

    it("changes status, owner and notes with activity, times and audit entries", async () => {
      const seller = await createUser(db, { email: "seller@quorvant.com", roles: ["sales"] });
      const recruiter = await createUser(db, { email: "recruiter@quorvant.com", roles: ["recruiter"] });
      const worker: Worker = { actor: { id: seller.id, email: seller.email }, ip: "203.0.113.7" };
      const form = leadForms["request-demo"];
      const id = await addLead(db, "demo_requests", { created_at: "2026-06-01T00:00:00.000Z", first_name: "Ada" });
      const record = async () => (await findLeadRecord(db, "demo_requests", id))!;
      expect((await record()).lastInteractionAt).toBeNull();

      expect(await changeLeadStatus(db, worker, form, id, "hired")).toMatchObject({ ok: false, status: 400, field: "status" });
      expect(await changeLeadStatus(db, worker, form, id, "qualified")).toMatchObject({ ok: true });
      let lead = await record();
      expect(lead.status).toBe("qualified");
      expect(lead.decidedAt).toBeNull();
      expect(lead.lastInteractionAt).not.toBeNull();

      const before = Date.now();
      expect(await changeLeadStatus(db, worker, form, id, "won")).toMatchObject({ ok: true });
      lead = await record();
      expect(Date.parse(lead.decidedAt!)).toBeGreaterThanOrEqual(before - 1000);
      expect(lead.lastInteractionAt).toBe(lead.decidedAt);

      // Leaving a final status clears the decision.
      expect(await changeLeadStatus(db, worker, form, id, "contacted")).toMatchObject({ ok: true });
      lead = await record();
      expect(lead.decidedAt).toBeNull();

      // Owners: people of the form's role (or owners) only.
      expect(await assignLead(db, worker, form, id, recruiter.id)).toMatchObject({ ok: false, field: "owner" });
      expect(await assignLead(db, worker, form, id, seller.id)).toMatchObject({ ok: true });
      expect((await record()).ownerId).toBe(seller.id);
      expect(await assignLead(db, worker, form, id, null)).toMatchObject({ ok: true });
      expect((await record()).ownerId).toBeNull();

      expect(await addNote(db, worker, form, id, "note", "   ")).toMatchObject({ ok: false, field: "note" });
      expect(await addNote(db, worker, form, id, "note", "Called, no answer.")).toMatchObject({ ok: true });
      expect(await addNote(db, worker, form, id, "reply", "Sent the pricing sheet.")).toMatchObject({ ok: true });
      expect(await addNote(db, worker, form, randomUUID(), "note", "Lost")).toMatchObject({ ok: false, status: 404 });

      const activity = await listLeadActivity(db, "demo_requests", id);
      expect(activity.map((entry) => [entry.kind, entry.fromValue, entry.toValue, entry.body])).toEqual([
        ["reply", "", "", "Sent the pricing sheet."],
        ["note", "", "", "Called, no answer."],
        ["owner", seller.id, "", ""],
        ["owner", "", seller.id, ""],
        ["status", "won", "contacted", ""],
        ["status", "qualified", "won", ""],
        ["status", "new", "qualified", ""],
      ]);
      expect(activity.every((entry) => entry.actorEmail === "seller@quorvant.com")).toBe(true);
      expect(toIso((await record()).lastInteractionAt!)).toBe(activity[0]!.createdAt);

      const audit = await db.selectFrom("audit_log").select(["action", "target_id", "details"]).execute();
      // Entries of one millisecond have no order between them: compare the counts.
      expect(audit.map((entry) => entry.action).sort()).toEqual([
        "lead.note",
        "lead.owner",
        "lead.owner",
        "lead.reply",
        "lead.status",
        "lead.status",
        "lead.status",
      ]);
      for (const entry of audit) {
        expect(entry.target_id).toBe(id);
        const details = typeof entry.details === "string" ? entry.details : JSON.stringify(entry.details);
        expect(details).toContain('"form":"request-demo"');
        // The audit log never holds what the person wrote or what the lead sent.
        expect(details).not.toMatch(/Called|pricing|Ada/);
      }
    });

    it("queues a failed delivery again, and only a failed one of this lead", async () => {
      const seller = await createUser(db, { email: "seller@quorvant.com", roles: ["sales"] });
      const worker: Worker = { actor: { id: seller.id, email: seller.email }, ip: "203.0.113.7" };
      const form = leadForms["contact-sales"];
      const id = await addLead(db, "sales_leads", { created_at: "2026-06-01T00:00:00.000Z" });
      const delivery = (status: "dead" | "sent" | "pending", lastError: string | null) => ({
        id: randomUUID(),
        lead_table: "sales_leads" as const,
        lead_id: id,
        destination: "webhook" as const,
        status,
        attempts: 40,
        next_attempt_at: "2026-06-02T00:00:00.000Z",
        last_error: lastError,
        created_at: "2026-06-01T00:00:00.000Z",
        updated_at: "2026-06-02T00:00:00.000Z",
      });
      const dead = delivery("dead", "HTTP 500");
      const sent = delivery("sent", null);
      await db.insertInto("lead_deliveries").values([dead, sent]).execute();

      expect(await deliverAgain(db, worker, form, id, sent.id)).toMatchObject({ ok: false, status: 409 });
      expect(await deliverAgain(db, worker, leadForms["request-demo"], id, dead.id)).toMatchObject({ ok: false, status: 404 });
      expect(await deliverAgain(db, worker, form, id, dead.id)).toMatchObject({ ok: true });
      const after = (await listDeliveries(db)).find((entry) => entry.id === dead.id)!;
      expect([after.status, after.attempts]).toEqual(["pending", 0]);
      const [entry] = await listLeadActivity(db, "sales_leads", id);
      expect([entry?.kind, entry?.fromValue, entry?.toValue]).toEqual(["delivery", "dead", "webhook"]);
      // Putting a delivery back is not an interaction with the person.
      expect((await findLeadRecord(db, "sales_leads", id))!.lastInteractionAt).toBeNull();
      const actions = await db.selectFrom("audit_log").select("action").execute();
      expect(actions.map((row) => row.action)).toEqual(["lead.redeliver"]);
    });
  });
}
