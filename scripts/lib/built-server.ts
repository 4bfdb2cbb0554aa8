import { spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

// Starts the production build (`node server.js`) on a free loopback port and waits for /healthz.
// Shared by the e2e tests' private servers and the benchmarks.

export type BuiltServer = {
  url: string;
  /** The server's process id (for its memory figures in /proc). */
  pid: number;
  /** Everything the server printed so far (JSON logs, start-up errors). */
  output: () => string;
  /** SIGTERM, then waits for the exit; resolves with the exit code (null when a signal ended it). */
  stop: () => Promise<number | null>;
  /** Sends `signal` (SIGKILL: a crash) and waits for the exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

/**
 * `discardStdout`: the server's log lines go to /dev/null (a benchmark's flood of them would cost the
 * reader). `host`: the name the server is its own SITE_URL under, 127.0.0.1 unless a test needs a
 * host name (passkeys refuse IP addresses).
 */
export async function startBuiltServer(
  env: Record<string, string>,
  {
    discardStdout = false,
    host = "127.0.0.1",
    port: givenPort,
    healthyWithinMs = 30_000,
    cwd,
  }: {
    discardStdout?: boolean;
    host?: string;
    /** A port to come up on (a restart where a proxy already points); a free one without it. */
    port?: number;
    /** How long the start may take (a server that waits for its database takes longer). */
    healthyWithinMs?: number;
    /** Another checkout to run (its server.js, its build unless BUILD_DIR says otherwise): a benchmark's reference. */
    cwd?: string;
  } = {},
): Promise<BuiltServer> {
  const port = givenPort ?? (await freePort());
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      SEED: "auto",
      FORM_RATE_LIMIT: "0",
      // Tests assert exact answers on a busy machine: load shedding is tested on its own.
      LOAD_SHED_DELAY_MS: "0",
      // Production requires the public origin; a bare test server is its own.
      SITE_URL: `http://${host}:${port}`,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", discardStdout ? "ignore" : "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://${host}:${port}`;
  try {
    await waitForHealthy(url, child, () => output, healthyWithinMs);
  } catch (error) {
    child.kill("SIGKILL"); // never leave a half-started server behind
    throw error;
  }
  const signal = (name: NodeJS.Signals) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(name);
    });
  const kill = async (name: NodeJS.Signals) => void (await signal(name));
  return { url, pid: child.pid!, output: () => output, stop: () => signal("SIGTERM"), kill };
}

async function waitForHealthy(url: string, child: ChildProcess, output: () => string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy in ${withinMs / 1000} s:\n${output()}`);
}

/** The lowest port freePort picks: above the ports services usually take. */
const LOWEST_PICKED_PORT = 16_384;

/**
 * The first port of the kernel's ephemeral range, from which it gives listen(0) its ports and
 * outgoing connections their local ones.
 */
export function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(start) && start > 0) return start;
  } catch {
    // not Linux: the range IANA suggests
  }
  return 49_152;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Ports this process has handed out: two picks before either is bound must differ (nginx's http and https). */
const handedOut = new Set<number>();

/**
 * A loopback port nothing listens on, for a process that binds it later (a server, nginx,
 * PostgreSQL). It is picked at random below the ephemeral range: a port inside it can be taken in
 * the meantime as the local port of any outgoing connection of the run, and nginx then fails with
 * "Address already in use". Below it, only another pick can take it, and never one of this process.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  const lowest = Math.min(LOWEST_PICKED_PORT, below - 1_024);
  if (lowest < 1_024) throw new Error(`the ephemeral range starts at ${below}: no room below it for test ports`);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = lowest + randomInt(below - lowest);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in ${lowest}–${below - 1}`);
}
