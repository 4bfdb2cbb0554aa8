import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatProblem } from "~/features/content/content-files.server";
import { importContent } from "~/features/content/db/content-import.server";
import { findLegalDocument, findLegalVersion, listLegalVersions } from "~/features/legal/db/legal.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addLegal } from "./support/fixtures";

// The legal version history on both engines: which versions are listed, which one a version page
// finds, and the importer refusing two files that claim one version.

const day = (date: string) => `${date}T00:00:00.000Z`;

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`legal version history on ${engine.name}`, () => {
    let db: Kysely<Database>;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 2));
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    it("lists a type's published versions newest first, each once, with only version and date", async () => {
      expect(await listLegalVersions(db, "privacy-policy")).toEqual([]);
      await addLegal(db, { document_type: "privacy-policy", version: "1.0", last_updated: day("2024-01-10"), published: true });
      await addLegal(db, { document_type: "privacy-policy", version: "2.0", last_updated: day("2025-03-01"), published: true });
      // A second row of 2.0, newer: it stands for 2.0 (versions are told apart by version).
      await addLegal(db, { document_type: "privacy-policy", version: "2.0", last_updated: day("2025-04-01"), published: true });
      // Same day as 2.0's newest row: the higher version comes first.
      await addLegal(db, { document_type: "privacy-policy", version: "2.1", last_updated: day("2025-04-01"), published: true });
      await addLegal(db, { document_type: "privacy-policy", version: "3.0", last_updated: day("2026-01-01"), published: false });
      await addLegal(db, { document_type: "terms-of-use", version: "9.0", last_updated: day("2026-01-01"), published: true });

      const versions = await listLegalVersions(db, "privacy-policy");
      expect(versions).toEqual([
        { version: "2.1", last_updated: day("2025-04-01") },
        { version: "2.0", last_updated: day("2025-04-01") },
        { version: "1.0", last_updated: day("2024-01-10") },
      ]);
      expect(Object.keys(versions[0]!).sort()).toEqual(["last_updated", "version"]);
      // The current page's document is the first listed version.
      expect((await findLegalDocument(db, "privacy-policy"))?.version).toBe("2.1");
      expect(await listLegalVersions(db, "terms-of-use")).toEqual([{ version: "9.0", last_updated: day("2026-01-01") }]);
    });

    it("finds one published version (its newest row), never an unpublished or unknown one", async () => {
      await addLegal(db, { document_type: "privacy-policy", version: "1.0", last_updated: day("2024-01-10"), published: true, title: "Old" });
      await addLegal(db, { document_type: "privacy-policy", version: "1.0", last_updated: day("2024-02-10"), published: true, title: "Old, fixed" });
      await addLegal(db, { document_type: "privacy-policy", version: "1.5", last_updated: day("2024-06-01"), published: false });
      await addLegal(db, { document_type: "terms-of-use", version: "2.0", last_updated: day("2024-06-01"), published: true });

      const found = await findLegalVersion(db, "privacy-policy", "1.0");
      expect(found).toMatchObject({ title: "Old, fixed", version: "1.0", last_updated: day("2024-02-10"), published: true });
      expect(found?.content).toEqual({ sections: [{ title: "One", content: "Text" }] });
      expect(await findLegalVersion(db, "privacy-policy", "1.5")).toBeUndefined();
      expect(await findLegalVersion(db, "privacy-policy", "2.0")).toBeUndefined();
      expect(await findLegalVersion(db, "privacy-policy", "9.9")).toBeUndefined();
    });

    it("treats a row without a version as version 1.0, as the page shows it", async () => {
      await addLegal(db, { document_type: "terms-of-use", version: "", last_updated: day("2024-01-10"), published: true });
      expect(await listLegalVersions(db, "terms-of-use")).toEqual([{ version: "1.0", last_updated: day("2024-01-10") }]);
      expect((await findLegalVersion(db, "terms-of-use", "1.0"))?.last_updated).toBe(day("2024-01-10"));
    });

    describe("the importer", () => {
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-legal-history-"));
        mkdirSync(path.join(dir, "legal"));
      });
      afterEach(() => rmSync(dir, { recursive: true, force: true }));

      const legal = (file: string, version: string, lastUpdated: string) =>
        writeFileSync(
          path.join(dir, "legal", file),
          `---\ndocument_type: privacy-policy\ntitle: Privacy\nversion: "${version}"\nlast_updated: ${lastUpdated}\npublished: true\n---\n## A\nText of ${file}\n`,
        );

      it("refuses two documents of one type with the same version, naming both files, writing nothing", async () => {
        await addLegal(db, { document_type: "privacy-policy", version: "0.9", last_updated: day("2023-01-01"), published: true });
        const before = await db.selectFrom("legal_documents").selectAll().orderBy("id").execute();
        legal("a.md", "1.0", "2024-01-01");
        legal("b.md", "1.0", "2025-01-01");
        legal("c.md", "2.0", "2025-06-01");

        const report = await importContent(db, dir);
        const shown = (file: string) => path.relative(process.cwd(), path.join(dir, "legal", file));
        expect(report.problems.map(formatProblem)).toEqual([
          `${shown("b.md")}: version: "1.0" of privacy-policy is also defined by ${shown("a.md")} (each version of a document needs its own version string)`,
        ]);
        expect(report.written).toBe(false);
        expect(await db.selectFrom("legal_documents").selectAll().orderBy("id").execute()).toEqual(before);
      });

      it("imports several versions of one type side by side", async () => {
        legal("a.md", "1.0", "2024-01-01");
        legal("b.md", "2.0", "2025-01-01");
        const report = await importContent(db, dir);
        expect(report.problems).toEqual([]);
        expect((await listLegalVersions(db, "privacy-policy")).map((row) => row.version)).toEqual(["2.0", "1.0"]);
      });
    });
  });
}
