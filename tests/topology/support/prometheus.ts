import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../../scripts/lib/built-server";

// A real Prometheus for a test: its own directory, storage and loopback port, scraping the given
// targets every second and evaluating the shipped alert rules (deploy/prometheus/alerts.yml) every
// second. The rules' `for:` durations are shortened in the copy it loads; their expressions are
// the shipped ones, character for character.

const RULES = path.resolve("deploy/prometheus/alerts.yml");

export type Alert = { labels: Record<string, string>; state: "pending" | "firing"; value: string };

export type RunningPrometheus = {
  url: string;
  /** An instant query's result: each series' labels and value. */
  query: (expression: string) => Promise<{ labels: Record<string, string>; value: number }[]>;
  /** The alerts pending or firing now. */
  alerts: () => Promise<Alert[]>;
  output: () => string;
  stop: () => Promise<void>;
};

/** The shipped rules with every `for:` set to `forDuration`; throws when there is none to shorten. */
export function rulesWithShortFor(text: string, forDuration: string): string {
  let replaced = 0;
  const shortened = text.replace(/^(\s*for:\s*)\S+\s*$/gm, (_line, start: string) => {
    replaced += 1;
    return `${start}${forDuration}`;
  });
  if (replaced === 0) throw new Error(`${RULES} has no for: to shorten`);
  return shortened;
}

export async function startPrometheus(targets: string[], { forDuration = "1s" } = {}): Promise<RunningPrometheus> {
  const binary = execFileSync(process.execPath, ["scripts/ensure-tools.mjs", "--which", "prometheus"], {
    encoding: "utf8",
  }).split("\n")[0]!;
  const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-prometheus-"));
  writeFileSync(path.join(dir, "alerts.yml"), rulesWithShortFor(readFileSync(RULES, "utf8"), forDuration));
  writeFileSync(
    path.join(dir, "prometheus.yml"),
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "  evaluation_interval: 1s",
      "rule_files:",
      "  - alerts.yml",
      "scrape_configs:",
      "  - job_name: quorvant",
      "    static_configs:",
      `      - targets: [${targets.map((target) => JSON.stringify(target)).join(", ")}]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    binary,
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(force);
        done();
      });
      child.kill("SIGTERM");
    });

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with ${child.exitCode}:\n${output}`);
    }
    if (
      await fetch(`${url}/-/ready`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const api = async <T>(pathAndQuery: string): Promise<T> => {
    const response = await fetch(`${url}/api/v1/${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`prometheus ${pathAndQuery}: ${body.error ?? response.status}`);
    return body.data;
  };
  return {
    url,
    query: async (expression) => {
      const data = await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
        `query?query=${encodeURIComponent(expression)}`,
      );
      return data.result.map((series) => ({ labels: series.metric, value: Number(series.value[1]) }));
    },
    alerts: async () => (await api<{ alerts: Alert[] }>("alerts")).alerts,
    output: () => output,
    stop,
  };
}
