import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const sharedPort = Number(process.env.E2E_PORT ?? 3210);

/** The server that playwright.config.ts starts once for the whole run. */
const e2eDir = path.resolve(process.env.E2E_DIR ?? ".e2e");

export const SHARED_SERVER = {
  url: `http://127.0.0.1:${sharedPort}`,
  databasePath: path.join(e2eDir, "shared.db"),
};

export type RunningServer = {
  url: string;
  databasePath: string;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * A private production server with its own SQLite file, for tests that break or rewrite the
 * database (renamed tables, exact post counts) without disturbing the others.
 */
export async function startPrivateServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  mkdirSync(e2eDir, { recursive: true });
  const dir = mkdtempSync(path.join(e2eDir, "private-"));
  const databasePath = path.join(dir, "site.db");
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${databasePath}`,
      SEED: "auto",
      LOG_LEVEL: "info",
      FORM_RATE_LIMIT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(url, child, () => output);
  return {
    url,
    databasePath,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function waitForHealthy(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy in 30 s:\n${output()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
