import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findLead, insertLead, type CareerApplicationInput } from "~/features/leads/db/leads.server";
import {
  OPEN_APPLICATION,
  resolveApplicationPosition,
  UNCHECKED_POSITION,
  type ResolvedPosition,
} from "~/features/leads/forms/application-position.server";
import { replayLeadSpool } from "~/features/leads/spool-replay.server";
import { openLeadSpool, type SpoolEntry } from "~/features/leads/spool.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addPosition } from "./support/position-rows";

// What an application stores for the position it names, on both engines: an open position's id and
// title; for a closed, draft or unknown one (or an id that is not one), an open application naming
// what was asked for, and the visitor is to be told it is not open.

const NOW = new Date("2026-06-01T12:00:00.000Z");

const application: CareerApplicationInput = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "",
  linkedin_profile: "",
  years_experience: 7,
  current_position: "",
  why_quorvant: "Engines.",
  biggest_achievement: "",
  work_style: "",
  resume_url: "",
  source_page: "/company/careers",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
};

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`an application's position on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("files an application under an open position and keeps one for any other as an open application naming it", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const open = await addPosition(db, { title: "Account Executive" });
        const closed = await addPosition(db, { title: "Security Researcher", closesAt: "2026-05-01T00:00:00.000Z" });
        const draft = await addPosition(db, { title: "Designer", state: "draft" });
        const unknown = "7b0e6f5e-0000-4000-8000-000000000000";

        const cases: [string | undefined, ResolvedPosition][] = [
          [undefined, { columns: OPEN_APPLICATION, notOpen: false }],
          [open, { columns: { position_id: open, position_title: "Account Executive", position_requested: null }, notOpen: false }],
          [closed, { columns: { ...OPEN_APPLICATION, position_requested: `${closed} (Security Researcher)` }, notOpen: true }],
          [draft, { columns: { ...OPEN_APPLICATION, position_requested: `${draft} (Designer)` }, notOpen: true }],
          [unknown, { columns: { ...OPEN_APPLICATION, position_requested: `${unknown} (unknown)` }, notOpen: true }],
          ["senior-wizard", { columns: { ...OPEN_APPLICATION, position_requested: "senior-wizard (unknown)" }, notOpen: true }],
        ];
        for (const [requested, expected] of cases) {
          const resolved = await resolveApplicationPosition(db, requested, NOW);
          expect(resolved, requested).toEqual(expected);
          const id = await insertLead(db, "career-application", { ...application, ...resolved.columns });
          const stored = await findLead(db, "career_applications", id);
          expect(stored, requested).toMatchObject({ email: "ada@example.com", ...expected.columns });
          // The position columns come after every earlier column, so exports keep their order; the
          // locale, added later still (0020-locales), after them.
          expect(Object.keys(stored!).slice(-4)).toEqual(["position_id", "position_title", "position_requested", "locale"]);
        }
      } finally {
        await db.destroy();
      }
    });

    it("looks up, when it stores a spooled application, the position it could not look up when it was posted", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const open = await addPosition(db, { title: "Account Executive", closesAt: "2026-06-01T13:00:00.000Z" });
        const spool = openLeadSpool({ dir: mkdtempSync(path.join(os.tmpdir(), "quorvant-spool-positions-")), maxBytes: 1_000_000 });
        const posted = NOW.toISOString();
        const unchecked = (email: string, requested: string): SpoolEntry => ({
          id: randomUUID(),
          form: "career-application",
          createdAt: posted,
          lead: {
            ...application,
            email,
            ...OPEN_APPLICATION,
            position_requested: `${requested} (unknown)`,
            [UNCHECKED_POSITION]: requested,
          },
        });
        const entries = [unchecked("filed@example.com", open), unchecked("kept@example.com", "senior-wizard")];
        for (const entry of entries) await spool.write(entry);
        // Replayed after the position closed: it was open when the application was posted.
        expect(await replayLeadSpool(spool, db, () => [])).toMatchObject({ stored: 2 });
        expect(await findLead(db, "career_applications", entries[0]!.id)).toMatchObject({
          position_id: open,
          position_title: "Account Executive",
          position_requested: null,
        });
        expect(await findLead(db, "career_applications", entries[1]!.id)).toMatchObject({
          position_id: null,
          position_title: null,
          position_requested: "senior-wizard (unknown)",
        });
        rmSync(spool.dir, { recursive: true, force: true });
      } finally {
        await db.destroy();
      }
    });
  });
}
