// Makes sure a program the topology tests start exists: `node scripts/ensure-debian-tool.mjs
// <program> <Debian package> [--which]`. Looks on the PATH and in /usr/sbin; as root on Debian it
// installs the package; otherwise it says exactly what to install and exits 1. `--which` only
// looks: it prints the program's path (what the tests run) or the install hint.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const [program, debianPackage] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const onlyLook = process.argv.includes("--which");
if (!program || !debianPackage) {
  console.error("usage: node scripts/ensure-debian-tool.mjs <program> <Debian package> [--which]");
  process.exit(2);
}

/** Where the program is, or undefined. Debian puts daemons in /usr/sbin, which a non-root PATH often lacks. */
function find() {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  return dirs
    .filter(Boolean)
    .map((dir) => path.join(dir, program))
    .find((candidate) => existsSync(candidate));
}

let binary = find();
if (!binary && !onlyLook && process.getuid?.() === 0 && existsSync("/etc/debian_version")) {
  console.log(`${program} not found: installing Debian's ${debianPackage} package for the topology tests...`);
  // The tests start their own instance with their own configuration; a service the package
  // starts where systemd runs is never used by them.
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${debianPackage}`, { stdio: "inherit" });
  binary = find();
}
if (binary) {
  if (onlyLook) console.log(binary);
  process.exit(0);
}
console.error(
  `The topology tests need ${program}. Install it with \`sudo apt-get install -y ${debianPackage}\` (Debian/Ubuntu), ` +
    `or run \`node scripts/ensure-debian-tool.mjs ${program} ${debianPackage}\` as root on Debian.`,
);
process.exit(1);
