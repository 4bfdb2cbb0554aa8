import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PageSnapshot } from "~/features/content/content-types";
import { parseYaml, stringifyYaml } from "~/features/content/content-yaml.server";
import { seedContent } from "~/features/content/db/content-import.server";
import { parseSnapshot } from "~/features/content/revisions.server";
import type { Database } from "~/db/schema";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// A database seeded before open positions were content: its careers page holds the sample's
// "Open roles" grid. Its next start seeds the sample positions, and the grid goes, unless an
// editor changed it; on both engines.

const SAMPLE_GRID = {
  type: "item-grid",
  title: "Open roles",
  intro: "Don't see your role? Apply anyway and tell us how you would help.",
  columns: 2,
  items: [
    { title: "Senior Backend Engineer, Detection Platform", meta: "Engineering · Remote (EU)", text: "Scale the pipeline." },
    { title: "Security Researcher, AI Threats", meta: "Research · Remote (EU or US)", text: "Find new techniques." },
    { title: "Enterprise Account Executive", meta: "Sales · London or New York", text: "Help enterprises adopt AI." },
    { title: "Compliance Program Manager", meta: "Governance · Remote (EU)", text: "Own our audits." },
  ],
};

/** The sample content as it was before positions: no positions, and `grid` after the careers page's blocks. */
function contentBeforePositions(grid: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-old-careers-"));
  cpSync(path.resolve("content"), dir, { recursive: true });
  rmSync(path.join(dir, "positions"), { recursive: true });
  const file = path.join(dir, "pages", "careers.yaml");
  const page = parseYaml(readFileSync(file, "utf8")) as { blocks: unknown[] };
  page.blocks.push(grid);
  writeFileSync(file, stringifyYaml(page));
  return dir;
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the sample's Open roles grid on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let dir = "";

    beforeEach(async () => {
      db = (await migratedDatabase(engine)).db;
    });
    afterEach(async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    });
    afterAll(() => engine.cleanup());

    const careers = () =>
      db.selectFrom("content_documents").selectAll().where("path", "=", "/company/careers").executeTakeFirstOrThrow();
    const titles = (snapshot: unknown) => parseSnapshot<PageSnapshot>(snapshot).blocks.map((block) => block.title);

    it("goes from the careers page when the sample positions arrive, as a revision by the content import", async () => {
      dir = contentBeforePositions(SAMPLE_GRID);
      await seedContent(db, dir);
      const before = await careers();
      expect(titles(before.published)).toContain("Open roles");

      await seedContent(db, path.resolve("content"));
      const after = await careers();
      expect(titles(after.draft)).not.toContain("Open roles");
      expect(titles(after.published)).not.toContain("Open roles");
      expect(titles(after.published)).toContain("Benefits");
      expect(Number(after.revision)).toBe(Number(before.revision) + 1);
      const revision = await db
        .selectFrom("content_revisions")
        .select(["summary", "author_email"])
        .where("document_id", "=", after.id)
        .orderBy("number", "desc")
        .executeTakeFirstOrThrow();
      expect(revision.summary).toMatch(/^The sample's Open roles grid removed/);
      // The four sample positions and the German translation of one.
      expect(await db.selectFrom("content_documents").select("id").where("type", "=", "position").execute()).toHaveLength(5);

      // Started again: nothing more happens.
      await seedContent(db, path.resolve("content"));
      expect(Number((await careers()).revision)).toBe(Number(after.revision));
    });

    it("stays when an editor changed it", async () => {
      const edited = { ...SAMPLE_GRID, items: SAMPLE_GRID.items.map((item, index) => (index ? item : { ...item, title: "Staff Engineer" })) };
      dir = contentBeforePositions(edited);
      await seedContent(db, dir);
      const before = await careers();
      await seedContent(db, path.resolve("content"));
      const after = await careers();
      expect(titles(after.published)).toContain("Open roles");
      expect(after.revision).toEqual(before.revision);
    });
  });
}
