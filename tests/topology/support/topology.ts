import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { test } from "@playwright/test";
import pg from "pg";
import { freePort, startBuiltServer, type BuiltServer } from "../../../scripts/lib/built-server";
import { postgresAvailability, postgresEngine } from "../../data/support/engines";
import type { LeadTable } from "../../e2e/forms-support";
import { privatePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from "./private-postgres";

// The deployed shape, started for real: nginx terminating TLS with a throwaway certificate, in
// front of two built servers that share one fresh PostgreSQL database. nginx runs the shipped
// site file (deploy/nginx/quorvant.conf) with only its operator lines changed. Each server keeps
// its own lead spool in the topology's directory. With `privatePostgres` the database is a cluster
// of the topology's own, which a test may stop and start (see ./private-postgres).

const SITE_CONFIG = path.resolve("deploy/nginx/quorvant.conf");
/** The shipped site file marks every line an operator must adapt with this trailing comment. */
const OPERATOR_MARK = /\s*#\s*OPERATOR\s*$/;

export type Topology = {
  /** The public origin (SITE_URL): nginx's https port on localhost. */
  url: string;
  /** nginx's plain-http port, which only redirects to https. */
  httpUrl: string;
  /** The database both servers share (a postgres:// URL). */
  databaseUrl: string;
  /**
   * The throwaway certificate's public-key hash, for Chromium's --ignore-certificate-errors-spki-list:
   * a browser that trusts it sees a valid certificate (passkeys refuse pages with certificate errors).
   */
  certificateSpki: string;
  /** The app servers, each also reachable directly on its own loopback port. */
  servers: BuiltServer[];
  /** Each server's metrics listener (METRICS_PORT), as host:port, in the order of `servers`. */
  metricsTargets: string[];
  /** Sends SIGKILL to one app server (a crash) and waits until it is gone. */
  kill: (index: number) => Promise<void>;
  /**
   * Starts app server `index` again (after kill) on its port, with its environment and lead spool;
   * resolves once it answers /healthz (within `healthyWithinMs`, default 30 s).
   */
  restart: (index: number, options?: { healthyWithinMs?: number }) => Promise<BuiltServer>;
  /**
   * A deploy's restart of app server `index`: SIGTERM (it finishes what is in flight), waits for
   * its exit, then starts it again as `restart` does. Rejects if it did not exit with 0.
   */
  restartGracefully: (index: number, options?: { healthyWithinMs?: number }) => Promise<BuiltServer>;
  /** nginx as this topology runs it, for a deploy step that edits its site file and reloads it. */
  nginx: {
    /** The site file nginx includes (the shipped one with its operator lines filled in). */
    siteFile: string;
    /** The command that reaches this nginx, to which `-t` or `-s reload` is added. */
    command: string[];
    /** Its pid file (the master's pid). */
    pidFile: string;
  };
  /** The topology's own PostgreSQL cluster, to stop and start (only with `privatePostgres`). */
  postgres?: Pick<PrivatePostgres, "stop" | "start">;
  /** Runs SQL on the servers' database, as an editor's tool or an operator would. */
  sql: <Row extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;
  /** Rows of a lead table found by a campaign unique to the test, oldest first. */
  leadRows: (table: LeadTable, campaign: string) => Promise<Record<string, unknown>[]>;
  /** The requests nginx has logged so far, oldest first. */
  accessLog: () => AccessLogEntry[];
  /** The site's own access log (the shipped format) as written so far. */
  siteAccessLog: () => string;
  /** Which app server (index into `servers`) an upstream address names. */
  serverIndex: (upstreamAddress: string) => number;
  /** What nginx and every server printed, for failure messages. */
  diagnostics: () => string;
};

export type AccessLogEntry = {
  method: string;
  uri: string;
  status: number;
  /** Every app server nginx tried for the request, in order (more than one after a failover). */
  upstreams: string[];
  upstreamStatuses: string[];
};

type Step = () => Promise<void> | void;

export type TopologyOptions = {
  /** A PostgreSQL cluster of the topology's own (initdb on a private port) instead of a database on the shared one. */
  privatePostgres?: boolean;
  /** nginx's form post rate per client address; by default far above what any test sends from its one address. */
  formPostRate?: string;
  /**
   * Something between nginx and the app servers (a shared cache): started once the servers answer,
   * given their addresses; nginx's upstream lines then name its addresses instead.
   */
  inFrontOfServers?: (servers: string[]) => Promise<InFrontOfServers>;
};

export type InFrontOfServers = { upstreams: string[]; stop: () => Promise<void>; output: () => string };

/** Every test client is one address to nginx: the shipped rate would refuse the crash test's 40 posts. */
const FORM_POSTS_PER_ADDRESS = "6000r/m";

/**
 * Starts the topology once for the enclosing describe (which must keep its tests on one worker:
 * `test.describe.configure({ mode: "default" })`) and tears it down after its last test, also
 * when a test or the start itself failed. `env` adds to the servers' environment (a function is
 * called at the start, after the hooks registered before this one).
 *
 * Without a reachable PostgreSQL the group is skipped with the reason, as the data tests do;
 * under CI=true that is a failure. With `privatePostgres`, it is skipped when the machine has no
 * PostgreSQL server binaries to make a cluster with.
 */
export function useTopology(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: TopologyOptions = {},
): () => Topology {
  let topology: { value: Topology; stop: () => Promise<void> } | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const unavailable = await topologyUnavailable(options);
    test.skip(unavailable !== undefined, unavailable ?? "");
    topology = await startTopology(typeof env === "function" ? env() : env, options);
  });
  test.afterAll(async () => {
    test.setTimeout(60_000);
    await topology?.stop();
  });
  return () => {
    if (!topology) throw new Error("the topology is not running (its start failed; see the beforeAll error)");
    return topology.value;
  };
}

/** Why a topology with `options` cannot run on this machine, or undefined when it can. */
export async function topologyUnavailable(options: TopologyOptions = {}): Promise<string | undefined> {
  if (options.privatePostgres) {
    const binaries = await privatePostgresBinaries();
    return binaries.ok ? undefined : binaries.reason;
  }
  const postgres = await postgresAvailability();
  return postgres.available ? undefined : postgres.reason;
}

export async function startTopology(
  env: Record<string, string>,
  options: TopologyOptions = {},
): Promise<{ value: Topology; stop: () => Promise<void> }> {
  // Everything started is undone in reverse order, whether the start completes or not.
  const teardown: Step[] = [];
  const stop = async () => {
    const problems: string[] = [];
    for (const step of teardown.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        problems.push(String(error));
      }
    }
    if (problems.length) throw new Error(`topology teardown: ${problems.join("; ")}`);
  };
  try {
    const value = await start(env, options, teardown);
    return { value, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function start(env: Record<string, string>, options: TopologyOptions, teardown: Step[]): Promise<Topology> {
  const nginxBinary = findNginx();
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-topology-"));
  teardown.push(() => rmSync(dir, { recursive: true, force: true }));
  // nginx's workers drop root privileges; they must reach their temp and log files in here.
  chmodSync(dir, 0o755);
  const { certificate, key } = makeCertificate(dir);

  let databaseUrl: string;
  let postgres: PrivatePostgres | undefined;
  if (options.privatePostgres) {
    const binaries = await privatePostgresBinaries();
    if (!binaries.ok) throw new Error(binaries.reason);
    const cluster = await startPrivatePostgres(binaries.binaries);
    postgres = cluster;
    teardown.push(() => cluster.destroy());
    databaseUrl = cluster.databaseUrl;
  } else {
    const engine = postgresEngine();
    databaseUrl = await engine.create();
    teardown.push(() => engine.cleanup());
  }
  // A connection per statement, closed before the next: none is open when the database is
  // dropped (a pool's end() can resolve before the server has let go of its connections).
  const sql = async <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const url = `https://localhost:${httpsPort}`;

  // Each server's metrics port, kept across a restart.
  const metricsPorts = [await freePort(), await freePort()];
  const serverEnv = (index: number) => ({
    DATABASE_URL: databaseUrl,
    SITE_URL: url,
    TRUST_PROXY: "1", // exactly one proxy (nginx) in front: the documented value
    LOAD_SHED_DELAY_MS: "100", // load shedding on, at its default, as deployed
    SEED: "auto",
    LOG_LEVEL: "info",
    // Each server's own, as on its own disk.
    LEAD_SPOOL_DIR: path.join(dir, `lead-spool-${index}`),
    METRICS_PORT: String(metricsPorts[index]),
    ...env,
  });

  // Both servers start together, as after a deploy: migrations and seeding meet on one database.
  const started = await Promise.allSettled([0, 1].map((index) => startBuiltServer(serverEnv(index))));
  const servers: BuiltServer[] = [];
  // What servers that were restarted printed before (their output is not their successor's).
  const retired: string[] = [];
  for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
  teardown.push(() => Promise.all(servers.map((server) => server.stop())).then(() => undefined));
  const failure = started.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failure) throw failure.reason;

  const upstreams = servers.map((server) => new URL(server.url).host);
  const front = await options.inFrontOfServers?.(upstreams);
  if (front) teardown.push(() => front.stop());
  writeFileSync(
    path.join(dir, "quorvant.conf"),
    localizeSiteConfig(readFileSync(SITE_CONFIG, "utf8"), {
      upstreams: front?.upstreams ?? upstreams,
      httpPort,
      httpsPort,
      serverName: "localhost",
      certificate,
      key,
      siteAccessLog: path.join(dir, "site-access.log"),
      topologyAccessLog: path.join(dir, "access.log"),
      formPostRate: options.formPostRate ?? FORM_POSTS_PER_ADDRESS,
    }),
  );
  writeFileSync(path.join(dir, "nginx.conf"), mainConfig(dir));
  const nginx = await startNginx(nginxBinary, dir, `${url}/healthz`);
  teardown.push(() => stopProcess(nginx.process));

  const accessLog = () => parseAccessLog(readIfExists(path.join(dir, "access.log")));
  return {
    url,
    httpUrl: `http://localhost:${httpPort}`,
    databaseUrl,
    certificateSpki: createHash("sha256")
      .update(new X509Certificate(readFileSync(certificate)).publicKey.export({ type: "spki", format: "der" }))
      .digest("base64"),
    servers,
    metricsTargets: metricsPorts.map((port) => `127.0.0.1:${port}`),
    kill: (index) => {
      const server = servers[index];
      if (!server) throw new Error(`no server ${index}`);
      return server.kill("SIGKILL");
    },
    restart: async (index, { healthyWithinMs } = {}) => {
      const previous = servers[index];
      if (!previous) throw new Error(`no server ${index}`);
      await previous.kill("SIGKILL"); // a no-op when it is already gone
      retired.push(`server ${index} before its restart (${previous.url}):\n${previous.output()}`);
      const successor = await startBuiltServer(serverEnv(index), { port: Number(new URL(previous.url).port), healthyWithinMs });
      servers[index] = successor;
      return successor;
    },
    restartGracefully: async (index, { healthyWithinMs } = {}) => {
      const previous = servers[index];
      if (!previous) throw new Error(`no server ${index}`);
      const exitCode = await previous.stop();
      retired.push(`server ${index} before its restart (${previous.url}):\n${previous.output()}`);
      if (exitCode !== 0) throw new Error(`server ${index} exited with ${exitCode} after SIGTERM:\n${previous.output()}`);
      const successor = await startBuiltServer(serverEnv(index), { port: Number(new URL(previous.url).port), healthyWithinMs });
      servers[index] = successor;
      return successor;
    },
    nginx: {
      siteFile: path.join(dir, "quorvant.conf"),
      command: [nginxBinary, "-p", dir, "-c", path.join(dir, "nginx.conf")],
      pidFile: path.join(dir, "nginx.pid"),
    },
    postgres: postgres && { stop: postgres.stop, start: postgres.start },
    sql,
    leadRows: (table, campaign) => sql(`select * from ${table} where utm_campaign = $1 order by created_at`, [campaign]),
    accessLog,
    siteAccessLog: () => readIfExists(path.join(dir, "site-access.log")),
    serverIndex: (address) => upstreams.indexOf(address),
    diagnostics: () =>
      [
        `nginx: ${nginx.output()}${readIfExists(path.join(dir, "error.log"))}`,
        ...(front ? [`in front of the servers:\n${front.output()}`] : []),
        ...retired,
        ...servers.map((server, index) => `server ${index} (${server.url}):\n${server.output()}`),
        ...(postgres ? [`postgres:\n${postgres.log()}`] : []),
      ].join("\n"),
  };
}

export type SiteValues = {
  upstreams: string[];
  httpPort: number;
  httpsPort: number;
  serverName: string;
  certificate: string;
  key: string;
  /** Where the site's own access log (its shipped format) goes. */
  siteAccessLog: string;
  /** Where the tests' log of which app server answered goes (format "topology" of the main configuration). */
  topologyAccessLog: string;
  /** nginx's rate of form posts per client address (limit_req_zone), e.g. "30r/m". */
  formPostRate: string;
};

/**
 * The shipped site file with its operator lines set for this machine; every other line is kept
 * byte for byte. A marked line the rules below do not know, or a rule that finds no line, is an
 * error: the test must notice when the file changes shape, not quietly test something else.
 * Listen addresses become loopback-only.
 */
export function localizeSiteConfig(text: string, values: SiteValues): string {
  const upstreams = [...values.upstreams];
  const used = new Set<string>();
  const rules: { name: string; match: RegExp; replace: (line: string) => string }[] = [
    {
      name: "upstream server",
      match: /^(\s*)server\s+\S+/,
      replace: (line) => {
        const address = upstreams.shift();
        if (!address) throw new Error(`${SITE_CONFIG} lists more upstream servers than the ${values.upstreams.length} started`);
        return line.replace(/^(\s*server\s+)\S+/, `$1${address}`);
      },
    },
    {
      name: "listen (TLS)",
      match: /^\s*listen\s+\S+.*\bssl\b/,
      replace: (line) => line.replace(/^(\s*listen\s+)\S+/, `$1127.0.0.1:${values.httpsPort}`),
    },
    {
      name: "listen (plain http)",
      match: /^\s*listen\s+\S+/,
      replace: (line) => line.replace(/^(\s*listen\s+)[^\s;]+/, `$1127.0.0.1:${values.httpPort}`),
    },
    {
      name: "server_name",
      match: /^\s*server_name\s/,
      replace: (line) => line.replace(/^(\s*server_name\s+)[^;]+/, `$1${values.serverName}`),
    },
    {
      name: "ssl_certificate_key",
      match: /^\s*ssl_certificate_key\s/,
      replace: (line) => line.replace(/^(\s*ssl_certificate_key\s+)[^;]+/, `$1${values.key}`),
    },
    {
      name: "ssl_trusted_certificate",
      match: /^\s*ssl_trusted_certificate\s/,
      replace: (line) => line.replace(/^(\s*ssl_trusted_certificate\s+)[^;]+/, `$1${values.certificate}`),
    },
    {
      // Nothing is resolved: the throwaway certificate names no OCSP responder.
      name: "resolver",
      match: /^\s*resolver\s/,
      replace: (line) => line.replace(/^(\s*resolver\s+)[^;]+/, "$1127.0.0.1"),
    },
    {
      // The site's own log, as shipped, and beside it the tests' log (a server block's access_log
      // replaces the main configuration's, so both are named here).
      name: "access_log",
      match: /^\s*access_log\s/,
      replace: (line) =>
        line.replace(
          /^(\s*access_log\s+)\S+(\s+[^;]+;)/,
          `$1${values.siteAccessLog}$2 access_log ${values.topologyAccessLog} topology;`,
        ),
    },
    {
      name: "form post rate",
      match: /^\s*limit_req_zone\s.*\bzone=quorvant_form_posts:/,
      replace: (line) => line.replace(/\brate=[^;\s]+/, `rate=${values.formPostRate}`),
    },
    {
      name: "ssl_certificate",
      match: /^\s*ssl_certificate\s/,
      replace: (line) => line.replace(/^(\s*ssl_certificate\s+)[^;]+/, `$1${values.certificate}`),
    },
  ];
  const lines = text.split("\n").map((line, index) => {
    if (!OPERATOR_MARK.test(line) || /^\s*#/.test(line)) return line;
    const rule = rules.find((candidate) => candidate.match.test(line));
    if (!rule) throw new Error(`${SITE_CONFIG}:${index + 1}: an operator line the topology test cannot fill in: ${line.trim()}`);
    used.add(rule.name);
    return rule.replace(line);
  });
  const unused = rules.filter((rule) => !used.has(rule.name)).map((rule) => rule.name);
  if (unused.length) throw new Error(`${SITE_CONFIG} has no operator line for: ${unused.join(", ")}`);
  if (upstreams.length)
    throw new Error(`${SITE_CONFIG} lists fewer upstream servers than the ${values.upstreams.length} started`);
  return lines.join("\n");
}

/** The main configuration around the site file: everything nginx writes stays in `dir`. */
function mainConfig(dir: string): string {
  const temp = (name: string) => path.join(dir, "temp", name);
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 512; }
http {
  # Which app server answered each request, for the tests (requests retried on another server list both).
  log_format topology '$request_method $request_uri $status $upstream_addr $upstream_status';
  access_log ${dir}/access.log topology;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  # As in Debian's stock nginx.conf, which includes the site file inside http { }.
  gzip on;
  include ${dir}/quorvant.conf;
}
`;
}

function findNginx(): string {
  try {
    return execFileSync(process.execPath, ["scripts/ensure-tools.mjs", "--which", "nginx"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(stderr || `nginx not found: ${String(error)}`);
  }
}

/** A self-signed certificate for localhost, valid one day. */
function makeCertificate(dir: string): { certificate: string; key: string } {
  const certificate = path.join(dir, "localhost.crt");
  const key = path.join(dir, "localhost.key");
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        key,
        "-out",
        certificate,
      ],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 30_000 },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("openssl is needed to make the topology tests' throwaway TLS certificate: apt-get install -y openssl");
    }
    throw new Error(`openssl could not make a certificate: ${String((error as { stderr?: unknown }).stderr ?? error)}`);
  }
  return { certificate, key };
}

async function startNginx(
  binary: string,
  dir: string,
  healthUrl: string,
): Promise<{ process: ChildProcess; output: () => string }> {
  for (const name of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, "temp", name), { recursive: true });
  let output = "";
  const child = spawn(binary, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  await spawned;
  const describe = () => `${output}${readIfExists(path.join(dir, "error.log"))}`;
  // Ready once a request through TLS reaches an app server and comes back healthy.
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${describe()}`);
    if ((await insecureGet(healthUrl).catch(() => 0)) === 200) return { process: child, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopProcess(child);
  throw new Error(`nginx did not answer ${healthUrl} with 200 within 15 s:\n${describe()}`);
}

/** The status of a GET over https that accepts the throwaway certificate. */
function insecureGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { rejectUnauthorized: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}

/** SIGTERM (nginx: fast shutdown), SIGKILL if it is still there after 5 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function parseAccessLog(text: string): AccessLogEntry[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [method = "", uri = "", status = "0", ...rest] = line.split(" ");
      // "$upstream_addr $upstream_status", each a comma-separated list after a retry: "a:1, b:2 502, 200".
      const upstreamPart = rest.join(" ");
      const [addresses = "", statuses = ""] = splitUpstreams(upstreamPart);
      return {
        method,
        uri,
        status: Number(status),
        upstreams: addresses.split(/,\s*/).filter((entry) => entry && entry !== "-"),
        upstreamStatuses: statuses.split(/,\s*/).filter((entry) => entry && entry !== "-"),
      };
    });
}

/** "a:1, b:2 502, 200" → ["a:1, b:2", "502, 200"]: the address list ends at the first space not after a comma. */
function splitUpstreams(text: string): [string, string] {
  const match = /^(.*?[^,])\s+(\S.*)$/.exec(text);
  return match ? [match[1]!, match[2]!] : [text, ""];
}

function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}
