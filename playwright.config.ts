import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./scripts/lib/chromium";
import { SHARED_SERVER } from "./tests/e2e/support/server";

export default defineConfig({
  // Side-by-side runs (E2E_DIR) keep their artifacts apart.
  outputDir: process.env.E2E_DIR ? `${process.env.E2E_DIR}/test-results` : "test-results",
  fullyParallel: true,
  workers: 2,
  // No retries: a test that needs one is a bug to fix, in the test or in the site.
  retries: 0,
  // A test's whole budget: two Chromium workers, their servers and accessibility scans share two
  // cores, where one scan can take ten seconds. A wait for one thing stays bounded by expect's 10 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report feeds the one-line summary that `npm test` prints at the end.
  reporter: [["list"], ["json", { outputFile: `${process.env.E2E_DIR ?? ".test-reports"}/e2e.json` }]],
  use: {
    baseURL: SHARED_SERVER.url,
    locale: "en-US",
    timezoneId: "UTC",
    colorScheme: "light",
    // A failed test keeps its trace: actions, DOM snapshots, network and console. Not the
    // screencast: recording its frames costs every test about a tenth of its time on two cores.
    trace: { mode: "retain-on-failure", screenshots: false },
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    // The site against one built server on a port (started below, shared by every spec).
    { name: "site", testDir: "tests/e2e" },
    // The deployed shape: nginx terminating TLS (a throwaway certificate) in front of two built
    // servers on one PostgreSQL database; every spec starts what it needs.
    { name: "topology", testDir: "tests/topology", use: { baseURL: undefined, ignoreHTTPSErrors: true } },
  ],
  webServer: {
    command: "node tests/e2e/support/start-shared-server.mjs",
    url: `${SHARED_SERVER.url}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
