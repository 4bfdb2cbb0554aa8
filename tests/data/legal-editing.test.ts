import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { importContent } from "~/features/content/db/content-import.server";
import { findLegalVersionRecord, listLegalVersionRecords } from "~/features/legal/db/legal-editing.server";
import { findLegalDocument, listLegalVersions } from "~/features/legal/db/legal.server";
import type { Database } from "~/db/schema";
import type { DraftFields } from "~/features/legal/drafts";
import {
  createLegalDraft,
  discardLegalDraft,
  draftFieldsOf,
  publishLegalDraft,
  saveLegalDraft,
  type Editor,
} from "~/features/legal/editing.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addLegal } from "./support/fixtures";

// Legal documents edited in the back office, on both engines: drafts are created, saved, published
// and discarded through the same functions the pages call; every refusal changes nothing (rows and
// audit log alike), every write leaves exactly one audit entry, and publishing stays one-at-a-time
// when two servers share the database.

const CONTENT_DIR = path.resolve("content");
const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };
/** The sample privacy policy in force is version 2.2, effective 2026-11-26. */
const TODAY = new Date("2027-03-10T12:00:00.000Z");

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`legal editing on ${engine.name}`, () => {
    let url: string;
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ url, db } = await migratedDatabase(engine, 4));
      expect((await importContent(db, CONTENT_DIR)).problems).toEqual([]);
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    const legalRows = () => db.selectFrom("legal_documents").selectAll().orderBy("id").execute();
    const audit = async () =>
      (
        await db
          .selectFrom("audit_log")
          .select(["action", "actor_email", "target_id", "details", "ip"])
          .orderBy("created_at")
          .execute()
      ).map((row) => ({ ...row, details: typeof row.details === "string" ? JSON.parse(row.details) : row.details }));
    /** The entries of one action (entries written within one millisecond have no order between them). */
    const audited = async (action: string) => (await audit()).filter((entry) => entry.action === action);

    async function newDraft(fromId?: string) {
      const created = await createLegalDraft(db, editor, { type: "privacy-policy", fromId }, TODAY);
      if (!created.ok) throw new Error(created.problem);
      const record = (await findLegalVersionRecord(db, created.value.id))!;
      return { id: record.id, record, fields: draftFieldsOf(record) };
    }

    function edited(fields: DraftFields, change: Partial<DraftFields> = {}): DraftFields {
      return {
        ...fields,
        changeSummary: "Retention of job applications shortened to six months.",
        sections: fields.sections.map((section) =>
          section.title === "Retention"
            ? { ...section, content: section.content.replace("kept for 12 months", "kept for 6 months") }
            : section,
        ),
        ...change,
      };
    }

    it("starts a draft from the version in force with the next free number and today's date, and audits it", async () => {
      const inForce = (await findLegalDocument(db, "privacy-policy"))!;
      const { record, fields } = await newDraft();
      expect(record).toMatchObject({
        documentType: "privacy-policy",
        title: inForce.title,
        version: "2.3",
        effectiveDate: "2027-03-10T00:00:00.000Z",
        published: false,
        changeSummary: "",
        authorEmail: "lena@quorvant.com",
        revision: 0,
      });
      expect(record.content).toEqual(inForce.content);
      expect(fields.sections.length).toBeGreaterThanOrEqual(6);
      // A second draft does not take 2.3 again; the public page still shows 2.2.
      expect((await newDraft()).record.version).toBe("2.4");
      expect((await findLegalDocument(db, "privacy-policy"))?.version).toBe("2.2");
      const entries = await audit();
      expect(entries.map((entry) => entry.action)).toEqual(["legal.draft-created", "legal.draft-created"]);
      expect(entries.map((entry) => [entry.actor_email, entry.details]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
        ["lena@quorvant.com", { documentType: "privacy-policy", version: "2.3", from: "2.2" }],
        ["lena@quorvant.com", { documentType: "privacy-policy", version: "2.4", from: "2.2" }],
      ]);
    });

    it("saves a draft, refusing bad fields, a taken number and a stale form with nothing changed", async () => {
      const { id, fields } = await newDraft();
      const before = await legalRows();
      const auditBefore = await audit();

      const bad = await saveLegalDraft(db, editor, {
        id,
        revision: 0,
        fields: {
          ...fields,
          title: " ",
          version: "two",
          effectiveDate: "2026-02-30",
          changeSummary: "",
          sections: [
            { title: "Fine", content: "Text" },
            { title: "Line\nbreak", content: "" },
            { title: "Heading inside", content: "First line\n## Looks like a section" },
          ],
        },
      });
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      expect(bad.status).toBe(400);
      expect(bad.errors).toEqual({
        title: "Enter the document's title.",
        version: "Enter a version number such as 2.2: digits separated by dots.",
        effectiveDate: "Enter the date this version takes effect, such as 2025-06-01.",
        changeSummary: "Say what changed in this version; the history and the audit log show it.",
        section: {
          1: { title: "Use one line of plain text.", content: "Enter the section's text." },
          2: {
            content: 'No line may start with "## " (content files read that as a new section): add a section instead.',
          },
        },
      });
      const noSections = await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields, { sections: [] }) });
      expect(!noSections.ok && noSections.errors).toEqual({ sections: "A document needs at least one section." });

      // 2.2 is published: a draft cannot take its number, nor that of another draft.
      const taken = await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields, { version: "2.2" }) });
      expect(!taken.ok && taken.errors?.version).toMatch(/^Version 2\.2 of the Privacy Policy is already published \(effective November 26, 2026\)/);
      const other = await newDraft();
      const takenByDraft = await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields, { version: "2.4" }) });
      expect(!takenByDraft.ok && takenByDraft.errors?.version).toBe("Another draft of the Privacy Policy already has version 2.4.");
      await discardLegalDraft(db, editor, { id: other.id, revision: 0 });
      expect(await legalRows()).toEqual(before);
      expect((await audit()).slice(auditBefore.length).map((entry) => entry.action).sort()).toEqual([
        "legal.draft-created",
        "legal.draft-discarded",
      ]);

      const saved = await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields) }, new Date("2027-03-10T13:00:00.000Z"));
      expect(saved).toEqual({ ok: true, value: { changed: true, revision: 1 } });
      const record = (await findLegalVersionRecord(db, id))!;
      expect(record).toMatchObject({
        revision: 1,
        changeSummary: "Retention of job applications shortened to six months.",
        editedAt: "2027-03-10T13:00:00.000Z",
        published: false,
      });
      expect(JSON.stringify(record.content)).toContain("kept for 6 months");

      // The same form again (revision 0) is stale: someone saved since. Nothing changes.
      const stale = await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields, { title: "Other" }) });
      expect(stale).toMatchObject({ ok: false, status: 409 });
      expect((await findLegalVersionRecord(db, id))?.title).toBe(record.title);
      // Saving what is already stored writes nothing and audits nothing.
      const auditCount = (await audit()).length;
      expect(await saveLegalDraft(db, editor, { id, revision: 1, fields: edited(fields) })).toEqual({
        ok: true,
        value: { changed: false, revision: 1 },
      });
      expect(await audit()).toHaveLength(auditCount);
      expect(await audited("legal.draft-saved")).toHaveLength(1);
      expect((await audited("legal.draft-saved"))[0]).toMatchObject({
        target_id: id,
        ip: "203.0.113.5",
        details: { documentType: "privacy-policy", version: "2.3", revision: 1 },
      });
    });

    it("publishes a checked draft atomically: the page shows it, the old version moves to the history, never to change again", async () => {
      const { id, fields } = await newDraft();
      await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields) });
      const published = await publishLegalDraft(db, editor, { id, revision: 1 }, TODAY);
      expect(published).toEqual({ ok: true, value: { version: "2.3", type: "privacy-policy", replaced: "2.2" } });

      const page = (await findLegalDocument(db, "privacy-policy"))!;
      expect(page).toMatchObject({ id, version: "2.3", last_updated: "2027-03-10T00:00:00.000Z" });
      expect(JSON.stringify(page.content)).toContain("kept for 6 months");
      expect((await listLegalVersions(db, "privacy-policy")).map((entry) => entry.version)).toEqual(["2.3", "2.2", "2.1"]);
      expect(await findLegalVersionRecord(db, id)).toMatchObject({
        published: true,
        publishedAt: TODAY.toISOString(),
        publishedByEmail: "lena@quorvant.com",
      });
      expect(await audited("legal.published")).toHaveLength(1);
      expect((await audited("legal.published"))[0]).toMatchObject({
        target_id: id,
        details: {
          documentType: "privacy-policy",
          version: "2.3",
          effectiveDate: "2027-03-10",
          changeSummary: "Retention of job applications shortened to six months.",
          replaced: "2.2",
        },
      });

      // Published: no save, no second publish, no discard, and nothing written by trying.
      const rows = await legalRows();
      const auditCount = (await audit()).length;
      for (const attempt of [
        saveLegalDraft(db, editor, { id, revision: 1, fields: edited(fields, { title: "Changed" }) }),
        publishLegalDraft(db, editor, { id, revision: 1 }, TODAY),
        discardLegalDraft(db, editor, { id, revision: 1 }),
      ]) {
        expect(await attempt).toMatchObject({ ok: false, status: 409 });
      }
      expect(await legalRows()).toEqual(rows);
      expect(await audit()).toHaveLength(auditCount);
    });

    it("refuses to publish content the public page would refuse, and every other unfinished draft, changing nothing", async () => {
      const inForce = (await findLegalDocument(db, "privacy-policy"))!;
      // Drafts written by other tools: broken JSON structure, and a valid one without a change summary.
      const broken = await addLegal(db, {
        document_type: "privacy-policy",
        version: "3.0",
        last_updated: "2027-01-01T00:00:00.000Z",
        published: false,
        content: JSON.stringify({ sections: [{ title: "Only a title" }] }),
      });
      const unexplained = await addLegal(db, {
        document_type: "privacy-policy",
        version: "3.1",
        last_updated: "2027-01-01T00:00:00.000Z",
        published: false,
      });
      const rows = await legalRows();
      const auditCount = (await audit()).length;

      const refusedBroken = await publishLegalDraft(db, editor, { id: broken, revision: 0 }, TODAY);
      expect(refusedBroken).toMatchObject({ ok: false, status: 400 });
      expect(!refusedBroken.ok && refusedBroken.problem).toMatch(/^Invalid document content structure: this draft cannot be published/);
      const refusedSummary = await publishLegalDraft(db, editor, { id: unexplained, revision: 0 }, TODAY);
      expect(!refusedSummary.ok && refusedSummary.errors).toEqual({
        changeSummary: "Say what changed in this version; the history and the audit log show it.",
      });

      // Dates: not ahead of today, not before the version in force.
      const { id, fields } = await newDraft();
      await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields, { effectiveDate: "2027-04-01" }) });
      const future = await publishLegalDraft(db, editor, { id, revision: 1 }, TODAY);
      expect(!future.ok && future.errors?.effectiveDate).toBe(
        "It takes effect on April 1, 2027: publish it on or after that day, or change the date.",
      );
      await saveLegalDraft(db, editor, { id, revision: 1, fields: edited(fields, { effectiveDate: "2025-05-01" }) });
      const older = await publishLegalDraft(db, editor, { id, revision: 2 }, TODAY);
      expect(!older.ok && older.errors?.effectiveDate).toBe(
        "Must be on or after November 26, 2026, the effective date of version 2.2 (in force now).",
      );
      // Same day as 2.2 but a number that sorts before it: the page would keep 2.2, so it is refused.
      await saveLegalDraft(db, editor, { id, revision: 2, fields: edited(fields, { effectiveDate: "2026-11-26", version: "10.0" }) });
      const hidden = await publishLegalDraft(db, editor, { id, revision: 3 }, TODAY);
      expect(!hidden.ok && hidden.errors?.effectiveDate).toBe(
        "Version 2.2 has the same effective date and a higher number: give this version a later date.",
      );
      // A form made before the last save publishes nothing either.
      expect(await publishLegalDraft(db, editor, { id, revision: 2 }, TODAY)).toMatchObject({ ok: false, status: 409 });

      expect((await findLegalDocument(db, "privacy-policy"))?.id).toBe(inForce.id);
      // Nothing new went live: the sample's two published versions are all there are.
      expect((await listLegalVersionRecords(db, "privacy-policy")).filter((row) => row.published)).toHaveLength(2);
      expect((await legalRows()).filter((row) => ![id].includes(row.id))).toEqual(rows);
      expect((await audit()).slice(auditCount).map((entry) => entry.action).sort()).toEqual([
        "legal.draft-created",
        "legal.draft-saved",
        "legal.draft-saved",
        "legal.draft-saved",
      ]);
    });

    it("discards a draft (audited with what it held) and never a published version", async () => {
      const { id, fields } = await newDraft();
      await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields) });
      expect(await discardLegalDraft(db, editor, { id, revision: 0 })).toMatchObject({ ok: false, status: 409 });
      expect(await discardLegalDraft(db, editor, { id, revision: 1 })).toEqual({
        ok: true,
        value: { version: "2.3", type: "privacy-policy" },
      });
      expect(await findLegalVersionRecord(db, id)).toBeUndefined();
      expect(await audited("legal.draft-discarded")).toHaveLength(1);
      expect((await audited("legal.draft-discarded"))[0]).toMatchObject({
        details: { version: "2.3", changeSummary: "Retention of job applications shortened to six months." },
      });
      const inForce = (await findLegalDocument(db, "privacy-policy"))!;
      const record = (await findLegalVersionRecord(db, inForce.id))!;
      expect(await discardLegalDraft(db, editor, { id: inForce.id, revision: record.revision })).toMatchObject({
        ok: false,
        status: 409,
      });
      expect(await discardLegalDraft(db, editor, { id: randomUUID(), revision: 0 })).toMatchObject({ ok: false, status: 404 });
      expect(await findLegalVersionRecord(db, inForce.id)).toBeDefined();
    });

    it("publishes once when two servers publish the same draft at the same moment", async () => {
      const { id, fields } = await newDraft();
      await saveLegalDraft(db, editor, { id, revision: 0, fields: edited(fields) });
      // A second server: its own connection pool on the same PostgreSQL database. SQLite serves one
      // server (its one connection runs one transaction at a time): both calls share it there.
      const other = engine.name === "postgres" ? (await openDatabase(url, 4)).db : db;
      try {
        const results = await Promise.all([
          publishLegalDraft(db, editor, { id, revision: 1 }, TODAY),
          publishLegalDraft(other, { ...editor, ip: "203.0.113.6" }, { id, revision: 1 }, TODAY),
          // And another draft started meanwhile: it gets its own number.
          createLegalDraft(other, editor, { type: "privacy-policy" }, TODAY),
        ]);
        expect(results.slice(0, 2).filter((result) => result.ok)).toHaveLength(1);
        expect(results.slice(0, 2).find((result) => !result.ok)).toMatchObject({ status: 409 });
        expect(results[2]).toMatchObject({ ok: true });
      } finally {
        if (other !== db) await other.destroy();
      }
      expect(await audited("legal.published")).toHaveLength(1);
      const versions = (await listLegalVersionRecords(db, "privacy-policy")).map((row) => row.version);
      expect(new Set(versions).size).toBe(versions.length);
      expect((await findLegalDocument(db, "privacy-policy"))?.id).toBe(id);
    });
  });
}
