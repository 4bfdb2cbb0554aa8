import { spawn } from "node:child_process";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";
import { freePort } from "../../scripts/lib/built-server";
import { countRows } from "./forms-support";

// Production configuration cannot be half-right: a bad value stops the server with one line,
// and a site behind a TLS-terminating proxy accepts its forms with SITE_URL alone.

type Exit = { code: number | null; stderr: string };

/** Runs `node server.js` with exactly `env` on top of PATH; kills it after `lifeMs` if it is still up. */
function runServer(env: Record<string, string>, lifeMs = 15_000): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.js"], {
      env: {
        PATH: process.env.PATH ?? "",
        BUILD_DIR: process.env.BUILD_DIR ?? "build",
        HOST: "127.0.0.1",
        PORT: "0",
        LOG_LEVEL: "warn",
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), lifeMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test.describe("a production start with bad configuration exits 1 with one line", () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ["no SITE_URL", {}, /^Invalid configuration: SITE_URL is required when NODE_ENV=production: set it to the public origin/],
    [
      "a SITE_URL without a scheme",
      { SITE_URL: "quorvant.com" },
      /^Invalid configuration: SITE_URL must be an absolute http\(s\) origin/,
    ],
    [
      "a SITE_URL with a path",
      { SITE_URL: "https://quorvant.com/blog" },
      /^Invalid configuration: SITE_URL must be an origin without a path/,
    ],
    [
      "TRUST_PROXY=true (trust everything)",
      { SITE_URL: "https://quorvant.com", TRUST_PROXY: "true" },
      /^Invalid configuration: TRUST_PROXY must be a hop count .* not "true"$/,
    ],
    [
      "a TRUST_PROXY address that is not one",
      { SITE_URL: "https://quorvant.com", TRUST_PROXY: "loopback, 10.0.0.300/8" },
      /^Invalid configuration: TRUST_PROXY .* not "10\.0\.0\.300\/8"$/,
    ],
    [
      "a headers timeout above the request timeout",
      { SITE_URL: "https://quorvant.com", HTTP_HEADERS_TIMEOUT_MS: "60000" },
      /^Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS$/,
    ],
  ];
  for (const [name, env, line] of cases) {
    test(name, async () => {
      const { code, stderr } = await runServer({
        NODE_ENV: "production",
        DATABASE_URL: "file:/nonexistent/never-opened.db",
        ...env,
      });
      expect(code).toBe(1);
      const lines = stderr.split("\n").filter(Boolean);
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    });
  }
});

test("`npm start` without NODE_ENV is a local run: it starts and describes itself as localhost", async () => {
  const server = await startPrivateServer({ NODE_ENV: "", SITE_URL: "" });
  try {
    const html = await (await fetch(`${server.url}/company/about`)).text();
    const port = new URL(server.url).port;
    expect(html).toContain(`<link rel="canonical" href="http://localhost:${port}/company/about"/>`);
    expect(server.output()).toContain(`SITE_URL is not set: this local run uses http://localhost:${port}`);
  } finally {
    await server.stop();
  }
});

test.describe("behind a TLS-terminating proxy", () => {
  test("a form posted from SITE_URL's origin is stored with SITE_URL alone; a wrong SITE_URL is refused with a log line", async () => {
    const publicPort = await freePort();
    const siteUrl = `https://localhost:${publicPort}`;
    const server = await startPrivateServer({ SITE_URL: siteUrl });
    // What nginx forwards: plain http, the visitor's Host, the browser's Origin.
    const post = (path: string, origin: string, form: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          Host: `localhost:${publicPort}`,
          Origin: origin,
          "Sec-Fetch-Site": "same-origin",
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: form,
        redirect: "manual",
      });
    try {
      const stored = await post("/contact-sales?utm_source=proxy", siteUrl, "first_name=Ada&email=ada%40example.com");
      expect(stored.status).toBe(200);
      // The router's data request (JavaScript on) goes through the same check.
      const data = await post("/contact-sales.data?utm_source=proxy", siteUrl, "first_name=Grace&email=grace%40example.com");
      expect(data.status).toBe(200);
      expect(countRows(server.databasePath, "sales_leads")).toBe(2);

      const refused = await post("/contact-sales", "https://www.quorvant.example", "first_name=Eve");
      expect(refused.status).toBe(403);
      expect(countRows(server.databasePath, "sales_leads")).toBe(2);
      await expect
        .poll(() => server.output())
        .toContain(`form post refused: its Origin https://www.quorvant.example is not SITE_URL (${siteUrl})`);
    } finally {
      await server.stop();
    }
  });
});
