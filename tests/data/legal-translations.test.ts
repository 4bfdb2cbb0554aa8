import { randomUUID } from "node:crypto";
import { mkdtempSync, mkdirSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { importContent } from "~/features/content/db/content-import.server";
import { findLegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { findLegalDocument, findLegalVersion, listLegalVersions } from "~/features/legal/db/legal.server";
import type { Database } from "~/db/schema";
import {
  createLegalDraft,
  createLegalTranslation,
  draftFieldsOf,
  publishLegalDraft,
  saveLegalDraft,
  type Editor,
} from "~/features/legal/editing.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// Legal documents in more than one language, on both engines: a German version translates one
// English version (same type and number), the content import links it; each language has its own
// version in force and its own history; a translation of a version that is not in force is refused.

const CONTENT_DIR = path.resolve("content");
const editor: Editor = { actor: { id: randomUUID(), email: "lena@quorvant.com" }, ip: "203.0.113.5" };
const TODAY = new Date("2027-03-10T12:00:00.000Z");

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`legal translations on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
      expect((await importContent(db, CONTENT_DIR)).problems).toEqual([]);
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    const legalRows = () => db.selectFrom("legal_documents").selectAll().orderBy("id").execute();
    const actions = async () =>
      (await db.selectFrom("audit_log").select(["action", "details"]).orderBy("created_at").execute()).map((row) => ({
        action: row.action,
        details: typeof row.details === "string" ? JSON.parse(row.details) : row.details,
      }));
    const versions = async (locale: string) =>
      (await listLegalVersions(db, "privacy-policy", locale)).map((entry) => entry.version);

    /** Publishes a new English privacy policy version (2.3), as the back office does. */
    async function publishEnglish23() {
      const created = await createLegalDraft(db, editor, { type: "privacy-policy" }, TODAY);
      if (!created.ok) throw new Error(created.problem);
      const fields = draftFieldsOf((await findLegalVersionRecord(db, created.value.id))!);
      const saved = await saveLegalDraft(db, editor, {
        id: created.value.id,
        revision: 0,
        fields: { ...fields, changeSummary: "Shorter retention of applications." },
      });
      if (!saved.ok) throw new Error(saved.problem);
      const published = await publishLegalDraft(db, editor, { id: created.value.id, revision: 1 }, TODAY);
      if (!published.ok) throw new Error(published.problem);
      return created.value.id;
    }

    it("imports the German files as translations of the English versions with the same type and number", async () => {
      for (const type of ["privacy-policy", "terms-of-use"] as const) {
        const english = (await findLegalDocument(db, type))!;
        const german = (await findLegalDocument(db, type, "de"))!;
        expect(german).toMatchObject({ locale: "de", version: english.version, translation_of: english.id });
        const row = await db.selectFrom("legal_documents").selectAll().where("id", "=", german.id).executeTakeFirstOrThrow();
        const source = await db.selectFrom("legal_documents").selectAll().where("id", "=", english.id).executeTakeFirstOrThrow();
        expect(Number(row.source_revision)).toBe(Number(source.revision));
        expect(english).toMatchObject({ locale: "en", translation_of: null });
      }
      expect((await findLegalDocument(db, "privacy-policy", "de"))?.title).toBe("Datenschutzerklärung");
      // English pages and history see English rows only, as before.
      expect((await findLegalDocument(db, "privacy-policy"))?.title).toBe("Privacy Policy");
      expect(await versions("en")).toEqual(["2.2", "2.1"]);
      expect(await versions("de")).toEqual(["2.2"]);
      // A second import changes nothing.
      const again = await importContent(db, CONTENT_DIR);
      expect(again.changes.filter((change) => change.table === "legal_documents" && change.action !== "unchanged")).toEqual([]);
    });

    it("refuses a German file whose English version does not exist, writing nothing", async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "legal-de-"));
      try {
        mkdirSync(path.join(dir, "legal"));
        copyFileSync(path.join(CONTENT_DIR, "legal/terms-of-use-1.3-de.md"), path.join(dir, "legal/terms-of-use-1.3-de.md"));
        await db.deleteFrom("legal_documents").where("document_type", "=", "terms-of-use").execute();
        const before = await legalRows();
        const report = await importContent(db, dir);
        expect(report.written).toBe(false);
        expect(report.problems).toEqual([
          {
            path: path.relative(process.cwd(), path.join(dir, "legal/terms-of-use-1.3-de.md")),
            field: "version",
            message:
              'translates version "1.3" of terms-of-use, which has no English version (a legal/*.md file with the same document_type and version)',
          },
        ]);
        expect(await legalRows()).toEqual(before);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("keeps the German version in force when a newer English one is published, until its translation is", async () => {
      const german22 = (await findLegalDocument(db, "privacy-policy", "de"))!;
      const english23 = await publishEnglish23();
      // The German page still shows 2.2, which translates an English version no longer in force.
      expect((await findLegalDocument(db, "privacy-policy", "de"))?.id).toBe(german22.id);
      expect((await findLegalDocument(db, "privacy-policy"))?.id).toBe(english23);

      const created = await createLegalTranslation(db, editor, { sourceId: english23, locale: "de" }, TODAY);
      expect(created.ok).toBe(true);
      if (!created.ok) return;
      const draft = (await findLegalVersionRecord(db, created.value.id))!;
      expect(draft).toMatchObject({
        locale: "de",
        translationOf: english23,
        version: "2.3",
        published: false,
        documentType: "privacy-policy",
      });
      expect(draft.sourceRevision).toBe((await findLegalVersionRecord(db, english23))!.revision);
      // One translation per version and language.
      const twice = await createLegalTranslation(db, editor, { sourceId: english23, locale: "de" }, TODAY);
      expect(twice).toMatchObject({ ok: false, status: 409 });

      // The form cannot change a translation's number or date: they stay the English version's.
      const fields = draftFieldsOf(draft);
      const saved = await saveLegalDraft(db, editor, {
        id: draft.id,
        revision: 0,
        fields: {
          ...fields,
          version: "9.9",
          effectiveDate: "2020-01-01",
          title: "Datenschutzerklärung",
          changeSummary: "Kürzere Aufbewahrung von Bewerbungen.",
          sections: [{ title: "Wer wir sind", content: "Quorvant stellt Sentinel bereit." }],
        },
      });
      expect(saved).toMatchObject({ ok: true, value: { changed: true, revision: 1 } });
      const savedRecord = (await findLegalVersionRecord(db, draft.id))!;
      expect(savedRecord).toMatchObject({ version: "2.3", effectiveDate: draft.effectiveDate, title: "Datenschutzerklärung" });

      const published = await publishLegalDraft(db, editor, { id: draft.id, revision: 1 }, TODAY);
      expect(published).toMatchObject({ ok: true, value: { version: "2.3", locale: "de", replaced: "2.2" } });
      expect((await findLegalDocument(db, "privacy-policy", "de"))?.id).toBe(draft.id);
      // Each language lists its own versions.
      expect(await versions("de")).toEqual(["2.3", "2.2"]);
      expect(await versions("en")).toEqual(["2.3", "2.2", "2.1"]);
      expect((await findLegalVersion(db, "privacy-policy", "2.2", "de"))?.id).toBe(german22.id);
      expect(await findLegalVersion(db, "privacy-policy", "2.1", "de")).toBeUndefined();

      const audited = (await actions()).filter((entry) => entry.action.startsWith("legal.translation"));
      expect(audited).toEqual([
        {
          action: "legal.translation-created",
          details: { documentType: "privacy-policy", version: "2.3", locale: "de", translationOf: english23 },
        },
        {
          action: "legal.translation-published",
          details: {
            documentType: "privacy-policy",
            version: "2.3",
            locale: "de",
            translationOf: english23,
            sourceRevision: draft.sourceRevision,
            replaced: "2.2",
          },
        },
      ]);
    });

    it("refuses to publish a translation of a version that is not in force, changing nothing", async () => {
      const english22 = (await findLegalDocument(db, "privacy-policy"))!;
      // Translating 2.2 again is refused (the imported German 2.2 exists); 2.1 is superseded.
      expect(await createLegalTranslation(db, editor, { sourceId: english22.id, locale: "de" }, TODAY)).toMatchObject({
        ok: false,
        status: 409,
      });
      await db.deleteFrom("legal_documents").where("locale", "=", "de").execute();
      const created = await createLegalTranslation(db, editor, { sourceId: english22.id, locale: "de" }, TODAY);
      if (!created.ok) throw new Error(created.problem);
      await publishEnglish23();
      const before = await legalRows();
      const auditBefore = await actions();
      const refused = await publishLegalDraft(db, editor, { id: created.value.id, revision: 0 }, TODAY);
      expect(refused).toMatchObject({ ok: false, status: 409 });
      if (!refused.ok)
        expect(refused.problem).toBe(
          "This Deutsch translation cannot be published: it translates version 2.2, and version 2.3 is in force in English. Nothing was changed. Translate the version in force instead.",
        );
      expect(await legalRows()).toEqual(before);
      expect(await actions()).toEqual(auditBefore);
      expect(await findLegalDocument(db, "privacy-policy", "de")).toBeUndefined();
    });

    it("refuses a translation whose sections fail the schema, and an unknown language or an English draft", async () => {
      await publishEnglish23();
      const english23 = (await findLegalDocument(db, "privacy-policy"))!;
      const created = await createLegalTranslation(db, editor, { sourceId: english23.id, locale: "de" }, TODAY);
      if (!created.ok) throw new Error(created.problem);
      // Written by another tool: a section without its text.
      await db
        .updateTable("legal_documents")
        .set({ content: JSON.stringify({ sections: [{ title: "Wer wir sind" }] }) })
        .where("id", "=", created.value.id)
        .execute();
      const before = await legalRows();
      const refused = await publishLegalDraft(db, editor, { id: created.value.id, revision: 0 }, TODAY);
      expect(refused).toMatchObject({ ok: false, status: 400 });
      expect(await legalRows()).toEqual(before);

      expect(await createLegalTranslation(db, editor, { sourceId: english23.id, locale: "xx" }, TODAY)).toMatchObject({
        ok: false,
        status: 400,
      });
      const draft = await createLegalDraft(db, editor, { type: "privacy-policy" }, TODAY);
      if (!draft.ok) throw new Error(draft.problem);
      expect(await createLegalTranslation(db, editor, { sourceId: draft.value.id, locale: "fr" }, TODAY)).toMatchObject({
        ok: false,
        status: 400,
      });
    });
  });
}
