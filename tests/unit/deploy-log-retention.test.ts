import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The privacy policy keeps server and access logs 30 days: the deploy files say so, for the
// files the site's own configuration writes.

const read = (path: string) => readFileSync(path, "utf8");
/** Lines without comments, trimmed, blank ones dropped. */
const settings = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);

describe("log retention in deploy/", () => {
  it("the journald drop-in removes the servers' log entries after 30 days", () => {
    const lines = settings(read("deploy/journald/quorvant.conf"));
    expect(lines[0]).toBe("[Journal]");
    expect(lines).toContain("MaxRetentionSec=30day");
  });

  it("logrotate drops nginx's logs, the site's access log included, after 30 days", () => {
    const lines = settings(read("deploy/logrotate/nginx"));
    const pattern = lines[0]!.replace(/\s*\{$/, "");
    expect(lines).toEqual(expect.arrayContaining(["daily", "rotate 30", "maxage 30"]));
    // Every access log the nginx site writes is one this rotation covers.
    const logs = [...read("deploy/nginx/quorvant.conf").matchAll(/^\s*access_log\s+(\S+)/gm)].map((match) => match[1]!);
    expect(logs.length).toBeGreaterThan(0);
    const glob = new RegExp(`^${pattern.replaceAll(".", "\\.").replaceAll("*", "[^/]*")}$`);
    for (const log of new Set(logs)) expect(log).toMatch(glob);
  });
});
