import { mkdirSync, mkdtempSync } from "node:fs";
import path from "node:path";
import { startBuiltServer, type BuiltServer } from "../../../scripts/lib/built-server";

const sharedPort = Number(process.env.E2E_PORT ?? 3210);

/** The server that playwright.config.ts starts once for the whole run. */
const e2eDir = path.resolve(process.env.E2E_DIR ?? ".e2e");

export const SHARED_SERVER = {
  url: `http://127.0.0.1:${sharedPort}`,
  databasePath: path.join(e2eDir, "shared.db"),
};

export type RunningServer = BuiltServer & { databasePath: string };

/**
 * A private production server with its own SQLite file (and lead spool), for tests that break or rewrite the
 * database (renamed tables, exact post counts) without disturbing the others.
 */
export async function startPrivateServer(
  env: Record<string, string> = {},
  options: { host?: string } = {},
): Promise<RunningServer> {
  mkdirSync(e2eDir, { recursive: true });
  const dir = mkdtempSync(path.join(e2eDir, "private-"));
  const databasePath = path.join(dir, "site.db");
  const server = await startBuiltServer(
    { DATABASE_URL: `file:${databasePath}`, LEAD_SPOOL_DIR: path.join(dir, "lead-spool"), LOG_LEVEL: "info", ...env },
    options,
  );
  return { ...server, databasePath };
}
