import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadEnv } from "~/env.server";
import { httpDuration, httpRequests, methodLabel, registry, statusClass } from "~/platform/metrics.server";

// The alert rules and the scrape configuration under Prometheus's own checker, and the rules'
// unit tests (deploy/prometheus/alerts.test.yml) proving each alert fires on what it should.

/** promtool, installed on Debian as root when missing (scripts/ensure-tools.mjs). */
function promtool(): string {
  const lines = execFileSync(process.execPath, ["scripts/ensure-tools.mjs", "--which", "prometheus"], {
    encoding: "utf8",
  }).trim();
  return lines.split("\n")[1]!;
}

function run(args: string[], input?: string): string {
  try {
    return execFileSync(promtool(), args, { encoding: "utf8", cwd: "deploy/prometheus", input, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

describe("the Prometheus configuration", () => {
  it("passes promtool check rules and check config", () => {
    expect(run(["check", "rules", "alerts.yml"])).toContain("SUCCESS: 7 rules found");
    expect(run(["check", "config", "prometheus.yml"])).toContain("SUCCESS");
  });

  it("fires each alert on its unit tests' series and on nothing else", () => {
    expect(run(["test", "rules", "alerts.test.yml"])).toContain("SUCCESS");
  });
});

describe("metrics", () => {
  it("are on a port of their own, loopback by default, never the public one", () => {
    expect(loadEnv({}).METRICS_PORT).toBeUndefined();
    expect(loadEnv({ METRICS_PORT: "9300" })).toMatchObject({ METRICS_PORT: 9300, METRICS_HOST: "127.0.0.1" });
    expect(() => loadEnv({ PORT: "9300", METRICS_PORT: "9300" })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadEnv({ METRICS_PORT: "http" })).toThrow(/METRICS_PORT/);
    expect(() => loadEnv({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
  });

  it("label methods and statuses from fixed sets", () => {
    expect(["GET", "HEAD", "POST", "OPTIONS", "PROPFIND", "get", undefined].map(methodLabel)).toEqual([
      "GET",
      "HEAD",
      "POST",
      "OPTIONS",
      "other",
      "other",
      "other",
    ]);
    expect([200, 304, 404, 503, 999].map(statusClass)).toEqual(["2xx", "3xx", "4xx", "5xx", "other"]);
  });

  it("are named quorvant_… with their unit", async () => {
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) {
      expect(name).toMatch(/^quorvant_[a-z_]+$/);
      expect(name, "a counter ends in _total, a time in _seconds, a size in _bytes").toMatch(
        /_(total|seconds|bytes|entries|depth|progress|connections|deliveries)$/,
      );
    }
  });

  it("are served in a text format promtool accepts, histograms cumulative", async () => {
    httpRequests.labels("test-route", "GET", "2xx").inc();
    const duration = httpDuration.labels("test-route");
    for (const seconds of [0.0005, 0.003, 0.003, 20]) duration.observe(seconds);
    const text = await registry.metrics();
    run(["check", "metrics"], text);
    const bucket = (le: string) =>
      Number(
        new RegExp(`^quorvant_http_request_duration_seconds_bucket\\{route="test-route",le="${le}"\\} (\\d+)$`, "m").exec(
          text,
        )?.[1],
      );
    expect([bucket("0.001"), bucket("0.005"), bucket("10"), bucket("\\+Inf")]).toEqual([1, 3, 3, 4]);
    expect(text).toMatch(/^quorvant_http_request_duration_seconds_count\{route="test-route"\} 4$/m);
    expect(text).toMatch(/^quorvant_http_requests_total\{route="test-route",method="GET",status="2xx"\} 1$/m);
  });
});
