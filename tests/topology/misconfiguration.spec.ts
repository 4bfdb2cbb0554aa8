import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/built-server";

// A production server that is not told where it lives (or is told something unusable) must not
// come up describing itself wrongly: it exits 1 at start with a line naming the variable.

type Exit = { code: number | null; stdout: string; stderr: string };

/** `node server.js` in production with `env` (undefined = unset); killed if still running after 20 s. */
async function runServer(env: Record<string, string | undefined>): Promise<Exit> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-misconfig-"));
  try {
    const merged: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      DATABASE_URL: `file:${path.join(dir, "site.db")}`,
      LOG_LEVEL: "info",
      ...env,
    };
    for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
    const child = spawn(process.execPath, ["server.js"], { env: merged, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once("close", (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    return { code, stdout, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases: { title: string; env: Record<string, string | undefined>; names: string }[] = [
  { title: "without SITE_URL", env: { SITE_URL: undefined }, names: "SITE_URL" },
  { title: "with a SITE_URL that is not an absolute URL", env: { SITE_URL: "quorvant.com" }, names: "SITE_URL" },
  {
    title: "with a TRUST_PROXY that is neither a hop count nor addresses",
    env: { SITE_URL: "https://localhost:8443", TRUST_PROXY: "everyone" },
    names: "TRUST_PROXY",
  },
  {
    title: "with a SITE_LOCALES prefix the site already answers",
    env: { SITE_URL: "https://localhost:8443", SITE_LOCALES: "en,terms" },
    names: "SITE_LOCALES",
  },
  {
    title: "with a SITE_LOCALES language that has no message catalog",
    env: { SITE_URL: "https://localhost:8443", SITE_LOCALES: "en,de,fr" },
    names: "SITE_LOCALES",
  },
];

for (const { title, env, names } of cases) {
  test(`a production server ${title} exits 1 with a line naming ${names}`, async () => {
    const { code, stdout, stderr } = await runServer(env);
    expect(code, `stdout:\n${stdout}\nstderr:\n${stderr}`).toBe(1);
    expect(
      stderr.split("\n").filter((line) => line.includes(names)),
      stderr,
    ).toHaveLength(1);
    expect(stdout, "it never listened").not.toContain("server listening");
  });
}
