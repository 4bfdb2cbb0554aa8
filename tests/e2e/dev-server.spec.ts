import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./support/fixtures";
import { freePort } from "../../scripts/lib/built-server";

// `npm run dev` is the production server with Vite compiling the source: the database is
// initialised and the same headers and limits apply.

test("`npm run dev` serves a database page with the production headers", async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  const dir = mkdtempSync(path.join(path.resolve(process.env.E2E_DIR ?? ".e2e"), "dev-"));
  let output = "";
  const child = spawn("npm", ["run", "dev"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dir, "site.db")}`,
      LOG_LEVEL: "warn",
      NODE_ENV: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  try {
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 60_000, message: output })
      .toBe(200);
    const response = await fetch(`${base}/terms/privacy-policy`);
    expect(response.status, output).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Privacy Policy<\/h1>/);
    expect(html).toContain("Version ");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // The same body limit as production.
    const tooLarge = await fetch(`${base}/contact-sales`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `message=${"x".repeat(70 * 1024)}`,
    });
    expect(tooLarge.status).toBe(413);
  } finally {
    // npm starts node as a child: stop the whole group.
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  }
});
