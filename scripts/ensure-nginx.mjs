// Makes sure nginx exists for the production-topology tests (a TLS proxy in front of two
// servers): NGINX_PATH, else `nginx` on the PATH or in /usr/sbin. As root on Debian it installs
// the `nginx-light` package; otherwise it says exactly what to install and exits 1.
// `--which` only looks: it prints the binary's path (what the tests run) or the install hint.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const onlyLook = process.argv.includes("--which");

/** Where nginx is, or undefined. Debian puts it in /usr/sbin, which a non-root PATH often lacks. */
function findNginx() {
  if (process.env.NGINX_PATH) return existsSync(process.env.NGINX_PATH) ? process.env.NGINX_PATH : undefined;
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  return dirs
    .filter(Boolean)
    .map((dir) => path.join(dir, "nginx"))
    .find((candidate) => existsSync(candidate));
}

function found(binary) {
  if (onlyLook) console.log(binary);
  process.exit(0);
}

let binary = findNginx();
if (binary) found(binary);

if (process.env.NGINX_PATH) {
  console.error(
    `NGINX_PATH=${process.env.NGINX_PATH} does not exist. Point it at an nginx binary or unset it to use nginx from the PATH.`,
  );
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const isDebian = existsSync("/etc/debian_version");
if (!onlyLook && isRoot && isDebian) {
  console.log("nginx not found: installing Debian's nginx-light package for the production-topology tests...");
  // The tests start their own nginx with their own configuration; the package's default site,
  // started where systemd runs, is never used by them.
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light", { stdio: "inherit" });
  binary = findNginx();
  if (binary) found(binary);
}
console.error(
  "The production-topology tests need nginx (1.22 or later). Install it with `sudo apt-get install -y nginx-light` (Debian/Ubuntu), " +
    "run `node scripts/ensure-nginx.mjs` as root on Debian, or set NGINX_PATH to an existing nginx binary.",
);
process.exit(1);
