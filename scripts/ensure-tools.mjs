// Makes sure the programs the tests start exist: nginx (the production topology), Varnish (the
// shared cache in front) and Prometheus with promtool (the metrics and alert rules).
//
//   node scripts/ensure-tools.mjs [tool...]   installs what is missing (all three by default)
//   node scripts/ensure-tools.mjs --which T   prints tool T's programs' paths, one a line, or why not
//
// Each is looked for where its setting says (NGINX_PATH, VARNISHD_PATH, PROMETHEUS_PATH: the other
// programs of a tool beside the first), else on the PATH and in /usr/sbin. As root on Debian the
// missing packages are installed in one apt-get; otherwise it says exactly what to install and
// exits 1. The tests start their own instances with their own configuration; a service a package
// starts where systemd runs is never used by them.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const TOOLS = {
  nginx: {
    setting: "NGINX_PATH",
    programs: ["nginx"],
    debianPackage: "nginx-light",
    purpose: "the production topology tests (1.22 or later)",
  },
  varnish: {
    setting: "VARNISHD_PATH",
    programs: ["varnishd", "varnishadm"],
    debianPackage: "varnish",
    purpose: "the shared-cache topology test (7.x)",
  },
  prometheus: {
    setting: "PROMETHEUS_PATH",
    programs: ["prometheus", "promtool"],
    debianPackage: "prometheus",
    purpose: "the metrics tests (2.x)",
  },
};

const args = process.argv.slice(2);
const which = args.indexOf("--which");
const names = which === -1 ? (args.length ? args : Object.keys(TOOLS)) : [args[which + 1]];
const unknown = names.filter((name) => !(name in TOOLS));
if (unknown.length || names.length === 0) {
  console.error(`usage: node scripts/ensure-tools.mjs [${Object.keys(TOOLS).join("|")}...] | --which <tool>`);
  process.exit(2);
}

/** The tool's programs' paths, or undefined when one is missing. */
function find(tool) {
  const configured = process.env[tool.setting];
  const dirs = configured
    ? [path.dirname(configured)]
    : [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"].filter(Boolean);
  const paths = tool.programs.map((program, index) =>
    configured && index === 0
      ? configured
      : dirs.map((dir) => path.join(dir, program)).find((candidate) => existsSync(candidate)),
  );
  return paths.every((candidate) => candidate && existsSync(candidate)) ? paths : undefined;
}

function hint(tool) {
  return (
    `${tool.purpose.replace(/^the /, "The ")} need ${tool.programs.join(" and ")}. Install with ` +
    `\`sudo apt-get install -y ${tool.debianPackage}\` (Debian/Ubuntu), run \`node scripts/ensure-tools.mjs\` as root on Debian, ` +
    `or set ${tool.setting} to the ${tool.programs[0]} binary${tool.programs.length > 1 ? ` (with ${tool.programs.slice(1).join(", ")} beside it)` : ""}.`
  );
}

if (which !== -1) {
  const tool = TOOLS[names[0]];
  const paths = find(tool);
  if (!paths) {
    console.error(hint(tool));
    process.exit(1);
  }
  console.log(paths.join("\n"));
  process.exit(0);
}

let missing = names.filter((name) => !find(TOOLS[name]));
const configuredButAbsent = missing.filter((name) => process.env[TOOLS[name].setting]);
if (configuredButAbsent.length === 0 && missing.length && process.getuid?.() === 0 && existsSync("/etc/debian_version")) {
  const packages = missing.map((name) => TOOLS[name].debianPackage);
  console.log(`Installing Debian's ${packages.join(", ")} for the tests...`);
  execSync(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages.join(" ")}`,
    {
      stdio: "inherit",
    },
  );
  missing = names.filter((name) => !find(TOOLS[name]));
}
for (const name of missing) console.error(hint(TOOLS[name]));
process.exit(missing.length ? 1 : 0);
