// `npm test`: every check, stopping at the first stage that fails, then one summary line. The
// checks that only read the source (types, lint) and the production build share the first stage:
// each is mostly one thread, so on two cores they take about half as long side by side. The tests
// then run alone, so that their timing-sensitive cases do not compete with a compiler.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const stages = [
  [
    // The programs the tests start (Chromium, nginx, Varnish, Prometheus), installed as root on
    // Debian when missing: mostly waiting on the network, so beside the compilers.
    ["test tools", "node scripts/ensure-chromium.mjs && node scripts/ensure-tools.mjs"],
    ["typecheck", "npm run typecheck"],
    ["lint", "npm run lint"],
    ["production build", "npm run build"],
  ],
  [["unit and data tests", "npm run test:unit"]],
  [["end-to-end tests", "npm run test:e2e"]],
];
const reports = { unit: ".test-reports/unit.json", e2e: ".test-reports/e2e.json" };
for (const file of Object.values(reports)) rmSync(file, { force: true });

const started = Date.now();
for (const stage of stages) {
  const results = await Promise.all(stage.map(([name, command]) => run(name, command, stage.length > 1)));
  const failed = results.filter((result) => !result.ok);
  if (failed.length) {
    for (const { name, seconds } of failed) console.error(`\n✗ ${name} failed after ${seconds} s`);
    summarise();
    process.exit(1);
  }
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
summarise();

/**
 * Runs one check. Alone, its output streams as it comes; beside others, it is held and printed
 * whole when the check ends, so that the outputs do not interleave.
 */
function run(name, command, buffered) {
  const began = Date.now();
  console.log(`\n▶ ${name}: ${command}${buffered ? " (beside the others of its stage; output when it ends)" : ""}`);
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit" });
    const chunks = [];
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    child.on("close", (code) => {
      const seconds = ((Date.now() - began) / 1000).toFixed(1);
      if (buffered) {
        console.log(`\n── ${name} ──`);
        process.stdout.write(Buffer.concat(chunks));
      }
      if (code === 0) console.log(`✓ ${name} (${seconds} s)`);
      resolve({ name, seconds, ok: code === 0 });
    });
  });
}

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
    const report = JSON.parse(readFileSync(reports.e2e, "utf8"));
    const { stats } = report;
    // A test that passed on retry counts as passed (and is listed as flaky above).
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
    printSlowestFiles(report);
  }
  console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}

/** The end-to-end files that took longest (their tests' time, hooks not included), so growth is seen. */
function printSlowestFiles(report) {
  const seconds = new Map();
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results) seconds.set(spec.file, (seconds.get(spec.file) ?? 0) + result.duration / 1000);
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 10);
  const total = [...seconds.values()].reduce((sum, value) => sum + value, 0);
  console.log(`\nSlowest end-to-end files (of ${total.toFixed(0)} s of tests on ${seconds.size} files, two at a time):`);
  for (const [file, time] of slowest) console.log(`  ${time.toFixed(1).padStart(6)} s  ${file}`);
}
