// Makes sure Prometheus and promtool exist for the metrics tests (the alert rules checked and
// unit-tested by promtool, a real Prometheus scraping the topology): PROMETHEUS_PATH (promtool
// beside it), else /usr/bin/prometheus and /usr/bin/promtool. As root on Debian it installs the
// `prometheus` package; otherwise it says exactly what to install and exits 1.
// `--which` only looks: it prints the two paths, one a line (prometheus, then promtool), or the hint.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const onlyLook = process.argv.includes("--which");

/** Prometheus and promtool, or undefined when either is missing. */
function findPrometheus() {
  const prometheus = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus";
  const promtool = path.join(path.dirname(prometheus), "promtool");
  return existsSync(prometheus) && existsSync(promtool) ? { prometheus, promtool } : undefined;
}

function found(binaries) {
  if (onlyLook) console.log(`${binaries.prometheus}\n${binaries.promtool}`);
  process.exit(0);
}

let binaries = findPrometheus();
if (binaries) found(binaries);

if (process.env.PROMETHEUS_PATH) {
  console.error(
    `PROMETHEUS_PATH=${process.env.PROMETHEUS_PATH} (with promtool beside it) does not exist. Point it at a prometheus binary or unset it.`,
  );
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const isDebian = existsSync("/etc/debian_version");
if (!onlyLook && isRoot && isDebian) {
  console.log("prometheus not found: installing Debian's prometheus package for the metrics tests...");
  // The tests start their own Prometheus with their own configuration and storage; the package's
  // service, started where systemd runs, is never used by them.
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus", {
    stdio: "inherit",
  });
  binaries = findPrometheus();
  if (binaries) found(binaries);
}
console.error(
  "The metrics tests need Prometheus and promtool (2.x). Install them with `sudo apt-get install -y prometheus` (Debian/Ubuntu), " +
    "run `node scripts/ensure-prometheus.mjs` as root on Debian, or set PROMETHEUS_PATH to a prometheus binary with promtool beside it.",
);
process.exit(1);
