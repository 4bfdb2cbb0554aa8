import { afterAll, describe, expect, it } from "vitest";
import { findPositionForApplication } from "~/features/careers/positions.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addPosition } from "./support/position-rows";

// The position an application names, as the application's submit sees it, on both engines: open
// while its closing date is ahead (or it has none), closed from then on, a draft while nothing of it
// is published, unknown when no position has that id or the id is not one.

const NOW = new Date("2026-06-01T12:00:00.000Z");

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`findPositionForApplication on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("tells open, closed, draft and unknown positions apart by the clock", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const open = await addPosition(db, { title: "Account Executive", hiringContacts: ["lena@quorvant.example"] });
        const closing = await addPosition(db, { title: "Platform Engineer", closesAt: "2026-06-01T12:00:01.000Z" });
        const closed = await addPosition(db, { title: "Security Researcher", closesAt: "2026-05-31T00:00:00.000Z", hiringContacts: ["x@quorvant.example"] });
        const draft = await addPosition(db, { title: "Designer", state: "draft" });
        const unpublished = await addPosition(db, { title: "Support Lead", state: "unpublished" });
        const page = await addPosition(db, { title: "Not a position" });
        await db.updateTable("content_documents").set({ type: "page" }).where("id", "=", page).execute();

        expect(await findPositionForApplication(db, open, NOW)).toEqual({
          id: open,
          title: "Account Executive",
          state: "open",
          hiringContacts: ["lena@quorvant.example"],
        });
        expect(await findPositionForApplication(db, closing, NOW)).toMatchObject({ state: "open", title: "Platform Engineer" });
        expect(await findPositionForApplication(db, closing, new Date("2026-06-01T12:00:01.000Z"))).toMatchObject({ state: "closed" });
        expect(await findPositionForApplication(db, closed, NOW)).toMatchObject({ id: closed, state: "closed", title: "Security Researcher" });
        expect(await findPositionForApplication(db, draft, NOW)).toEqual({ id: draft, title: "Designer", state: "draft", hiringContacts: [] });
        expect(await findPositionForApplication(db, unpublished, NOW)).toMatchObject({ state: "draft", title: "Support Lead" });
        expect(await findPositionForApplication(db, open.toUpperCase(), NOW)).toMatchObject({ id: open, state: "open" });
        for (const id of [page, "7b0e6f5e-0000-4000-8000-000000000000", "not-a-uuid", "", "1; drop table x"])
          expect(await findPositionForApplication(db, id, NOW), id).toEqual({ id, title: "", state: "unknown", hiringContacts: [] });
      } finally {
        await db.destroy();
      }
    });

    it("a position scheduled for later is not open until its time", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const id = await addPosition(db, { title: "Data Engineer", state: "draft" });
        const snapshot = (await db.selectFrom("content_documents").select("draft").where("id", "=", id).executeTakeFirstOrThrow()).draft;
        await db
          .updateTable("content_documents")
          .set({
            state: "published",
            scheduled: typeof snapshot === "string" ? snapshot : JSON.stringify(snapshot),
            scheduled_path: `/company/careers/data-engineer`,
            publish_at: "2026-06-02T00:00:00.000Z",
          })
          .where("id", "=", id)
          .execute();
        expect(await findPositionForApplication(db, id, NOW)).toMatchObject({ state: "draft", title: "Data Engineer" });
        expect(await findPositionForApplication(db, id, new Date("2026-06-02T00:00:00.000Z"))).toMatchObject({ state: "open" });
      } finally {
        await db.destroy();
      }
    });
  });
}
