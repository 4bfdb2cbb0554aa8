import { execFile, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../../scripts/lib/built-server";
import { stopProcess, type InFrontOfServers } from "./topology";

// Debian's Varnish running the shipped recipe (deploy/varnish/quorvant.vcl) with its operator lines
// set for this machine, between nginx and the app servers.

const RECIPE = path.resolve("deploy/varnish/quorvant.vcl");
const OPERATOR_MARK = /\s*#\s*OPERATOR\s*$/;

export type Varnish = InFrontOfServers & {
  /** Varnish's own address (host:port), where the app servers send their purges. */
  address: string;
  /** The bans Varnish holds (`varnishadm ban.list`): what it was asked to purge. */
  banList: () => Promise<string>;
};

/** varnishd and varnishadm, or why they are not there (`npm test` installs them first). */
function findVarnish(): { varnishd: string; varnishadm: string } {
  const [varnishd, varnishadm] = execFileSync(process.execPath, ["scripts/ensure-tools.mjs", "--which", "varnish"], {
    encoding: "utf8",
  })
    .trim()
    .split("\n");
  return { varnishd: varnishd!, varnishadm: varnishadm! };
}

/**
 * The shipped recipe with one backend line per app server and the purge ACL on loopback; every
 * other line byte for byte. An operator line no rule knows is an error, as for nginx's site file.
 */
export function localizeVarnishRecipe(text: string, servers: string[]): string {
  const backend = (address: string) => `app_${address.replace(/\W/g, "_")}`;
  let backendsWritten = false;
  let directorWritten = false;
  const lines: string[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (!OPERATOR_MARK.test(line) || /^\s*#/.test(line)) {
      lines.push(line);
      continue;
    }
    if (/^backend\s/.test(line)) {
      if (!backendsWritten) {
        for (const address of servers) {
          const [host, port] = address.split(":");
          lines.push(`backend ${backend(address)} { .host = "${host}"; .port = "${port}"; .probe = healthz; }`);
        }
      }
      backendsWritten = true;
    } else if (/^\s*apps\.add_backend\(/.test(line)) {
      if (!directorWritten) for (const address of servers) lines.push(`    apps.add_backend(${backend(address)});`);
      directorWritten = true;
    } else if (/^\s*"[^"]+";/.test(line)) {
      lines.push(line); // the purge ACL's loopback addresses are this machine's too
    } else {
      throw new Error(`${RECIPE}:${index + 1}: an operator line the test cannot fill in: ${line.trim()}`);
    }
  }
  if (!backendsWritten || !directorWritten) throw new Error(`${RECIPE} has no operator lines for its backends`);
  return lines.join("\n");
}

/** Starts Varnish on `port` in front of `servers` (host:port each); purges need `token`. */
export async function startVarnish({
  servers,
  port,
  token,
}: {
  servers: string[];
  port: number;
  token: string;
}): Promise<Varnish> {
  const { varnishd, varnishadm } = findVarnish();
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-varnish-"));
  chmodSync(dir, 0o755);
  const recipe = path.join(dir, "quorvant.vcl");
  writeFileSync(recipe, localizeVarnishRecipe(readFileSync(RECIPE, "utf8"), servers));
  const workDir = path.join(dir, "work");
  const adminPort = await freePort();
  const address = `127.0.0.1:${port}`;
  const started = Date.now();
  // -F: in the foreground, a child of the test; -j none: no privilege separation, so it runs as any user.
  const child = spawn(
    varnishd,
    ["-F", "-j", "none", "-n", workDir, "-a", address, "-T", `127.0.0.1:${adminPort}`, "-f", recipe, "-s", "malloc,64m"],
    { env: { ...process.env, CDN_PURGE_TOKEN: token }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once a request through it reaches an app server (the recipe passes /healthz).
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`varnishd exited with ${child.exitCode}:\n${output}`);
    }
    const status = await fetch(`http://${address}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Varnish did not answer /healthz with 200 within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`Varnish started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    address,
    // nginx's site file has one upstream line per app server: each names Varnish now.
    upstreams: servers.map(() => address),
    stop,
    output: () => output,
    banList: async () => (await promisify(execFile)(varnishadm, ["-n", workDir, "ban.list"])).stdout,
  };
}
