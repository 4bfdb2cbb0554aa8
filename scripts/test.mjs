// `npm test`: every check, in order, stopping at the first failure.
import { spawnSync } from "node:child_process";

const steps = [
  ["typecheck", "npm run typecheck"],
  ["lint", "npm run lint"],
  ["unit and data tests", "npm run test:unit"],
  ["production build", "npm run build"],
  ["end-to-end tests", "npm run test:e2e"],
];

for (const [name, command] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${command}`);
  const result = spawnSync(command, { stdio: "inherit", shell: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds} s)`);
}
