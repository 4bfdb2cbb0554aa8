import { migrateToLatest, openDatabase, type OpenDatabase } from "~/db/connection.server";
import type { Engine } from "./engines";

/** A new database on `engine` with every migration applied, where each data test starts. */
export async function migratedDatabase(engine: Engine, poolSize?: number): Promise<OpenDatabase & { url: string }> {
  const url = await engine.create();
  const opened = await openDatabase(url, poolSize);
  await migrateToLatest(opened.db, opened.dialect);
  return { ...opened, url };
}
