import path from "node:path";
import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import type { Engine } from "./engines";

/** A new database on `engine` with every migration applied, where each data test starts. */
export async function migratedDatabase(engine: Engine, poolSize?: number): Promise<OpenDatabase & { url: string }> {
  const url = await engine.create();
  const opened = await openDatabase(url, poolSize);
  await migrateToLatest(opened.db, opened.dialect);
  return { ...opened, url };
}

/** The seed's marketing pages, published, as a fresh site has them (`content/pages`). */
export async function withSeedPages(db: OpenDatabase["db"]): Promise<void> {
  const { importPages, readPageFiles } = await import("~/features/pages/page-documents.server");
  const { problems } = await importPages(db, readPageFiles(path.resolve("content/pages")).files);
  if (problems.length) throw new Error(`the seed pages do not load: ${JSON.stringify(problems)}`);
}
