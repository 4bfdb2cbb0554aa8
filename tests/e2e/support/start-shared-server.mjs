// The production server on a fresh SQLite database, shared by the tests that only read.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

const dir = path.resolve(process.env.E2E_DIR ?? ".e2e");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const child = spawn(process.execPath, ["server.js"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: process.env.E2E_PORT ?? "3210",
    SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? "3210"}`,
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(dir, "shared.db")}`,
    LEAD_SPOOL_DIR: path.join(dir, "lead-spool"),
    SEED: "auto",
    LOG_LEVEL: "warn",
    FORM_RATE_LIMIT: "0",
    // Tests assert exact answers on a busy machine: load shedding is tested on its own.
    LOAD_SHED_DELAY_MS: "0",
  },
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill("SIGTERM"));
child.on("exit", (code) => process.exit(code ?? 0));
