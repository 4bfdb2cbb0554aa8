import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { listLeadInbox, listPositionPipelines } from "~/features/leads/db/lead-inbox.server";
import { leadDesks } from "~/features/leads/desks";
import { readInboxQuery } from "~/features/leads/inbox-query.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// The recruiting desk by position, on both engines: the inbox filtered to one position or to the
// open applications, and each position's pipeline (applications per status of the workflow).

const RESEARCHER = "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1";
const EXECUTIVE = "5a1c9e0b-7d3e-4f8a-9b2c-3e4d5f6a7b8c";

type Application = { created_at: string; status?: string; position_id?: string | null; position_title?: string | null; position_requested?: string | null };

async function addApplication(db: Kysely<Database>, values: Application): Promise<string> {
  const id = randomUUID();
  await db.insertInto("career_applications").values({ id, email: `${id}@example.com`, ...values }).execute();
  return id;
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the applications desk by position on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("filters by position and counts each position's applications per status", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const researcherNew = await addApplication(db, { created_at: "2026-03-01T10:00:00.000Z", position_id: RESEARCHER, position_title: "Researcher" });
        // Renamed since: the pipeline names it by its newest application's title.
        const researcherInterview = await addApplication(db, {
          created_at: "2026-03-05T10:00:00.000Z",
          status: "interview",
          position_id: RESEARCHER,
          position_title: "Security Researcher",
        });
        const researcherHired = await addApplication(db, {
          created_at: "2026-03-03T10:00:00.000Z",
          status: "hired",
          position_id: RESEARCHER,
          position_title: "Researcher",
        });
        const executive = await addApplication(db, { created_at: "2026-03-02T10:00:00.000Z", position_id: EXECUTIVE, position_title: "Account Executive" });
        const older = await addApplication(db, { created_at: "2026-02-01T10:00:00.000Z", status: "screening" });
        const keptForClosed = await addApplication(db, {
          created_at: "2026-03-04T10:00:00.000Z",
          position_requested: `${EXECUTIVE} (Account Executive)`,
        });

        const ids = async (positionId: string | null | undefined) =>
          (await listLeadInbox(db, "career_applications", { positionId }, { limit: 50 })).leads.map((lead) => lead.id);
        expect(await ids(RESEARCHER)).toEqual([researcherInterview, researcherHired, researcherNew]);
        expect(await ids(EXECUTIVE)).toEqual([executive]);
        expect(await ids(null)).toEqual([keptForClosed, older]);
        expect(await ids(undefined)).toHaveLength(6);
        const [kept] = (await listLeadInbox(db, "career_applications", { positionId: null }, { limit: 1 })).leads;
        expect(kept).toMatchObject({ positionId: null, positionTitle: null, positionRequested: `${EXECUTIVE} (Account Executive)` });
        const [filed] = (await listLeadInbox(db, "career_applications", { positionId: EXECUTIVE }, { limit: 1 })).leads;
        expect(filed).toMatchObject({ positionId: EXECUTIVE, positionTitle: "Account Executive", positionRequested: null });
        // Other forms have no position: the filter is no part of their query.
        expect((await listLeadInbox(db, "demo_requests", { positionId: null }, { limit: 1 })).leads).toEqual([]);

        expect(await listPositionPipelines(db)).toEqual([
          { positionId: null, title: "", counts: { new: 1, screening: 1 }, total: 2 },
          { positionId: RESEARCHER, title: "Security Researcher", counts: { new: 1, interview: 1, hired: 1 }, total: 3 },
          { positionId: EXECUTIVE, title: "Account Executive", counts: { new: 1 }, total: 1 },
        ]);
        // A position's page in the back office reads its own pipeline only.
        expect(await listPositionPipelines(db, { positionId: RESEARCHER })).toEqual([
          { positionId: RESEARCHER, title: "Security Researcher", counts: { new: 1, interview: 1, hired: 1 }, total: 3 },
        ]);
      } finally {
        await db.destroy();
      }
    });
  });
}

describe("the position filter's query string", () => {
  const query = (search: string) => readInboxQuery(leadDesks.applications, new URL(`https://x.example/admin/applications?${search}`));

  it("takes a position's id or the open applications, and names anything else as a problem beside the field", () => {
    expect(query(`position=${RESEARCHER.toUpperCase()}`)).toMatchObject({ filter: { positionId: RESEARCHER }, values: { position: RESEARCHER } });
    expect(query("position=open")).toMatchObject({ filter: { positionId: null }, values: { position: "open" } });
    expect(query("").filter.positionId).toBeUndefined();
    for (const bad of ["security-researcher", "1 or 1=1", "open%00"]) {
      const read = query(`position=${bad}`);
      expect(read.problems.position, bad).toBe("Choose a position from the list.");
      expect(read.filter.positionId, bad).toBeUndefined();
      expect(read.values.position, bad).toBe("");
    }
    const sales = readInboxQuery(leadDesks.leads, new URL("https://x.example/admin/leads?form=request-demo&position=open"));
    expect(sales.problems.position).toBe("Demo requests are not for a position.");
    expect(sales.filter.positionId).toBeUndefined();
  });
});
