#!/usr/bin/env node
// Rolling restart of the app servers behind nginx, one at a time, dropping no request:
//   1. every other server in the rotation answers its health check (else stop: nothing is touched);
//   2. the server leaves the rotation: `down` on its line in the site file's upstream block, nginx
//      reloaded (new workers no longer send to it; old ones finish their requests and exit);
//   3. wait until nginx's workers from before the reload have exited (nothing of theirs is in flight);
//   4. restart it (SIGTERM: it finishes what is in flight and hands over its background jobs);
//   5. wait for its health check to answer 200;
//   6. it rejoins: `down` removed, nginx reloaded.
// A step that fails stops the roll with the server still out of the rotation, and says so.
//
// Plain JavaScript with no dependency, for a server with only Node.js. On a systemd host the
// defaults fit (see docs/operations.md, Rolling deploys):
//   node deploy/rolling-restart.mjs --site-file /etc/nginx/sites-available/quorvant.conf
// The tests drive rollingRestart() below with their own nginx and servers.
import { exec } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { fileURLToPath } from "node:url";

/** The upstream block the site file routes the site through. */
const UPSTREAM = "quorvant";

/**
 * @typedef {object} RollingServer
 * @property {string} address host:port as on its `server` line in the upstream block
 * @property {string} healthUrl its own /healthz, reached directly (not through nginx)
 * @property {() => Promise<void>} restart stops it gracefully (SIGTERM, waits for the exit) and starts it again
 *
 * @typedef {object} RollingOptions
 * @property {string} siteFile the nginx site file holding `upstream quorvant { ... }`
 * @property {RollingServer[]} servers restarted in this order
 * @property {() => Promise<void>} reload checks nginx's configuration and reloads it (graceful)
 * @property {string} [nginxPidFile] nginx's pid file (its `pid` directive), to wait for its old workers
 * @property {number} [drainTimeoutMs] longest wait for nginx's old workers to finish (then the server is restarted anyway)
 * @property {number} [healthyWithinMs] longest wait for a restarted server to answer 200
 * @property {(line: string) => void} [log]
 */

/** @param {RollingOptions} options */
export async function rollingRestart({
  siteFile,
  servers,
  reload,
  nginxPidFile = "/run/nginx.pid",
  drainTimeoutMs = 30_000,
  healthyWithinMs = 60_000,
  log = (line) => console.log(line),
}) {
  const listed = upstreamServers(readFileSync(siteFile, "utf8"));
  for (const server of servers) {
    if (!listed.some((entry) => entry.address === server.address)) {
      throw new Error(`${server.address} is not a server of "upstream ${UPSTREAM}" in ${siteFile}`);
    }
  }
  if (listed.length < 2) {
    throw new Error(
      `${siteFile} lists one app server: it cannot leave the rotation while another serves. Restart it directly (a graceful SIGTERM finishes what is in flight; new connections are refused meanwhile).`,
    );
  }
  for (const server of servers) {
    const began = Date.now();
    const inRotation = !upstreamServers(readFileSync(siteFile, "utf8")).find((entry) => entry.address === server.address)
      ?.down;
    if (inRotation) {
      await othersServe(siteFile, server, servers);
      setDown(siteFile, server.address, true);
      const master = nginxMaster(nginxPidFile);
      const workers = master === undefined ? undefined : childrenOf(master);
      try {
        await reload();
      } catch (error) {
        setDown(siteFile, server.address, false);
        throw new Error(`${server.address}: reloading nginx failed, nothing restarted (${siteFile} is as before): ${describe(error)}`);
      }
      log(`${server.address}: out of the rotation; waiting for nginx to finish its requests there`);
      if (!workers) log(`${server.address}: no nginx master in ${nginxPidFile} (or no /proc): waiting 3 s instead`);
      if (!(await oldWorkersGone(workers, drainTimeoutMs))) {
        log(`${server.address}: nginx's old workers still run after ${drainTimeoutMs / 1000} s; restarting anyway (in-flight requests finish)`);
      }
    } else {
      log(`${server.address}: already out of the rotation (marked down in ${siteFile})`);
    }
    log(`${server.address}: restarting`);
    try {
      await server.restart();
    } catch (error) {
      throw stopped(server, siteFile, `its restart failed: ${describe(error)}`);
    }
    if (!(await healthy(server.healthUrl, healthyWithinMs))) {
      throw stopped(server, siteFile, `${server.healthUrl} did not answer 200 within ${healthyWithinMs / 1000} s`);
    }
    setDown(siteFile, server.address, false);
    try {
      await reload();
    } catch (error) {
      throw new Error(`${server.address}: restarted and healthy, but reloading nginx to bring it back failed: ${describe(error)}`);
    }
    log(`${server.address}: healthy and back in the rotation (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  }
}

function stopped(server, siteFile, reason) {
  return new Error(
    `${server.address}: ${reason}. The roll stopped; ${server.address} stays marked down in ${siteFile} (nginx sends it nothing). Fix it, then run the roll again.`,
  );
}

/** Before a server leaves: every other server still in the rotation must be healthy, or the site would have none. */
async function othersServe(siteFile, leaving, servers) {
  const others = upstreamServers(readFileSync(siteFile, "utf8")).filter(
    (entry) => entry.address !== leaving.address && !entry.down,
  );
  if (!others.length) throw new Error(`${leaving.address} is the only server in the rotation: not taking it out`);
  for (const other of others) {
    const url = servers.find((server) => server.address === other.address)?.healthUrl ?? `http://${other.address}/healthz`;
    if ((await healthStatus(url)) !== 200) {
      throw new Error(`${other.address} is not healthy (${url}): not taking ${leaving.address} out of the rotation`);
    }
  }
}

/** The `server` lines of the upstream block: address and whether it is marked down. */
export function upstreamServers(text) {
  const found = [];
  let inside = false;
  for (const line of text.split("\n")) {
    if (!inside) {
      inside = new RegExp(`^\\s*upstream\\s+${UPSTREAM}\\s*\\{`).test(line);
      continue;
    }
    if (/^\s*\}/.test(line)) break;
    const match = /^\s*server\s+(\S+?)(\s[^;]*)?;/.exec(line);
    if (match) found.push({ address: match[1], down: /\sdown(\s|$)/.test(match[2] ?? "") });
  }
  return found;
}

/** The site file with `address` marked down (or not); every other line, and the rest of this one, kept. */
export function markDown(text, address, down) {
  let inside = false;
  let changed = false;
  const lines = text.split("\n").map((line) => {
    if (!inside) {
      inside = new RegExp(`^\\s*upstream\\s+${UPSTREAM}\\s*\\{`).test(line);
      return line;
    }
    if (/^\s*\}/.test(line)) {
      inside = false;
      return line;
    }
    const match = /^(\s*server\s+)(\S+?)((?:\s[^;]*)?);(.*)$/.exec(line);
    if (!match || match[2] !== address) return line;
    changed = true;
    const parameters = (match[3] ?? "").split(/\s+/).filter((word) => word && word !== "down");
    if (down) parameters.push("down");
    return `${match[1]}${[match[2], ...parameters].join(" ")};${match[4]}`;
  });
  if (!changed) throw new Error(`no "server ${address}" line in "upstream ${UPSTREAM}"`);
  return lines.join("\n");
}

function setDown(siteFile, address, down) {
  writeFileSync(siteFile, markDown(readFileSync(siteFile, "utf8"), address, down));
}

/** The nginx master's pid, from its pid file; undefined when it cannot be read. */
function nginxMaster(pidFile) {
  try {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `parent` (Linux: /proc), or undefined without /proc. */
function childrenOf(parent) {
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const children = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (name) state ppid ...": the name may hold spaces and parentheses; the last ")" ends it.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function alive(pid) {
  return existsSync(`/proc/${pid}`);
}

/**
 * Waits until nginx's workers from before the reload have exited: they are the only ones that
 * still send to the server that left, and each exits once its requests there are answered. So the
 * reload has taken effect and nothing is in flight through nginx. Without the master's pid or /proc
 * it waits a fixed few seconds instead.
 */
async function oldWorkersGone(workers, timeoutMs) {
  if (!workers) {
    await sleep(Math.min(3_000, timeoutMs));
    return true;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!workers.some(alive)) return true;
    await sleep(100);
  }
  return false;
}

async function healthy(url, withinMs) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await healthStatus(url)) === 200) return true;
    await sleep(200);
  }
  return false;
}

/** The health check's status (0: no answer), on a connection of its own that is closed after it. */
function healthStatus(url) {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve) => {
    const request = client.get(url, { agent: false, timeout: 2_000, headers: { Connection: "close" } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", () => resolve(0));
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a shell command; rejects with its output when it fails. */
function run(command) {
  return new Promise((resolve, reject) => {
    exec(command, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`\`${command}\` failed: ${(stderr || stdout || error.message).trim()}`));
      else resolve();
    });
  });
}

const USAGE = `Usage: node deploy/rolling-restart.mjs [options] [host:port ...]
Restarts the app servers of the site file's "upstream ${UPSTREAM}" one at a time (all of them,
in the file's order, unless named), each out of nginx's rotation while it restarts.
  --site-file PATH       nginx site file (default /etc/nginx/sites-available/quorvant.conf)
  --reload COMMAND       checks and reloads nginx (default "nginx -t -q && nginx -s reload")
  --restart COMMAND      restarts one server; {port}, {host}, {address} are filled in
                         (default "systemctl restart quorvant@{port}")
  --health-url URL       a server's health check; same placeholders (default "http://{address}/healthz")
  --nginx-pid-file PATH  nginx's pid file, to wait for its old workers (default /run/nginx.pid)
  --drain-timeout SEC    longest wait for nginx's old workers to finish (default 30)
  --healthy-within SEC   longest wait for a restarted server to answer 200 (default 60)`;

function parseArguments(argv) {
  const options = {
    siteFile: "/etc/nginx/sites-available/quorvant.conf",
    reload: "nginx -t -q && nginx -s reload",
    restart: "systemctl restart quorvant@{port}",
    healthUrl: "http://{address}/healthz",
    nginxPidFile: "/run/nginx.pid",
    drainTimeout: 30,
    healthyWithin: 60,
    addresses: [],
  };
  const flags = {
    "--site-file": "siteFile",
    "--reload": "reload",
    "--restart": "restart",
    "--health-url": "healthUrl",
    "--nginx-pid-file": "nginxPidFile",
    "--drain-timeout": "drainTimeout",
    "--healthy-within": "healthyWithin",
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === "--help" || argument === "-h") return undefined;
    const key = flags[argument];
    if (key) {
      const value = argv[++index];
      if (value === undefined) throw new Error(`${argument} needs a value`);
      options[key] = ["drainTimeout", "healthyWithin"].includes(key) ? positiveSeconds(argument, value) : value;
    } else if (argument.startsWith("-")) throw new Error(`unknown option ${argument}`);
    else options.addresses.push(argument);
  }
  return options;
}

function positiveSeconds(flag, value) {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`${flag} takes a number of seconds, not "${value}"`);
  return seconds;
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`${describe(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (!options) return console.log(USAGE);
  const fill = (template, address) => {
    const port = address.slice(address.lastIndexOf(":") + 1);
    const host = address.slice(0, address.lastIndexOf(":"));
    return template.replaceAll("{address}", address).replaceAll("{port}", port).replaceAll("{host}", host);
  };
  const addresses = options.addresses.length
    ? options.addresses
    : upstreamServers(readFileSync(options.siteFile, "utf8")).map((entry) => entry.address);
  await rollingRestart({
    siteFile: options.siteFile,
    reload: () => run(options.reload),
    nginxPidFile: options.nginxPidFile,
    servers: addresses.map((address) => ({
      address,
      healthUrl: fill(options.healthUrl, address),
      restart: () => run(fill(options.restart, address)),
    })),
    drainTimeoutMs: options.drainTimeout * 1000,
    healthyWithinMs: options.healthyWithin * 1000,
  });
  console.log("rolling restart done: every server restarted and back in the rotation");
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(describe(error));
    process.exit(1);
  });
}
