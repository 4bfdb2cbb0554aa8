// `npm test`: every check, in order, stopping at the first failure, then one summary line.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const steps = [
  ["typecheck", "npm run typecheck"],
  ["lint", "npm run lint"],
  ["unit and data tests", "npm run test:unit"],
  ["production build", "npm run build"],
  ["end-to-end tests", "npm run test:e2e"],
];
const reports = { unit: ".test-reports/unit.json", e2e: ".test-reports/e2e.json" };
for (const file of Object.values(reports)) rmSync(file, { force: true });

for (const [name, command] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${command}`);
  const result = spawnSync(command, { stdio: "inherit", shell: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds} s`);
    summarise();
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds} s)`);
}
summarise();

/** Totals from Vitest's and Playwright's JSON reports, as "N passed, N failed". */
function summarise() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(reports.unit)) {
    const unit = JSON.parse(readFileSync(reports.unit, "utf8"));
    passed += unit.numPassedTests;
    failed += unit.numFailedTests;
    skipped += unit.numPendingTests + unit.numTodoTests;
  }
  if (existsSync(reports.e2e)) {
    const { stats } = JSON.parse(readFileSync(reports.e2e, "utf8"));
    // A test that passed on retry counts as passed (and is listed as flaky above).
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
  }
  console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
