// Makes sure a Chromium for the end-to-end tests exists: CHROMIUM_PATH, else /usr/bin/chromium.
// As root on Debian it installs the `chromium` package; otherwise it says exactly what to install.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const wanted = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (existsSync(wanted)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
  console.error(
    `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist. Point it at a Chromium binary or unset it to use /usr/bin/chromium.`,
  );
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const isDebian = existsSync("/etc/debian_version");
if (isRoot && isDebian) {
  console.log("Chromium not found: installing Debian's chromium package for the browser tests...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
  if (existsSync(wanted)) process.exit(0);
}
console.error(
  "The browser tests need Chromium at /usr/bin/chromium. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), " +
    "or set CHROMIUM_PATH to an existing Chromium or Chrome binary.",
);
process.exit(1);
