import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { markDown, rollingRestart, upstreamServers } from "../../deploy/rolling-restart.mjs";
import { freePort } from "../../scripts/lib/built-server";

// The deploy script's edits of the shipped site file, and its refusal to take a server out while
// no other one is healthy. The roll itself runs in tests/topology/rolling-deploy.spec.ts.

const SHIPPED = readFileSync("deploy/nginx/quorvant.conf", "utf8");

describe("the upstream block of the shipped site file", () => {
  it("lists both app servers, in the rotation", () => {
    expect(upstreamServers(SHIPPED)).toEqual([
      { address: "127.0.0.1:3000", down: false },
      { address: "127.0.0.1:3001", down: false },
    ]);
  });

  it("marks one server down and back up, changing only its line", () => {
    const out = markDown(SHIPPED, "127.0.0.1:3000", true);
    const changed = out.split("\n").filter((line, index) => line !== SHIPPED.split("\n")[index]);
    expect(changed).toEqual(["    server 127.0.0.1:3000 max_fails=3 fail_timeout=10s down;  # OPERATOR"]);
    expect(upstreamServers(out)).toEqual([
      { address: "127.0.0.1:3000", down: true },
      { address: "127.0.0.1:3001", down: false },
    ]);
    expect(markDown(out, "127.0.0.1:3000", true)).toBe(out);
    expect(markDown(out, "127.0.0.1:3000", false)).toBe(SHIPPED);
  });

  it("refuses an address that is not in the upstream block", () => {
    expect(() => markDown(SHIPPED, "127.0.0.1:3002", true)).toThrow('no "server 127.0.0.1:3002" line in "upstream quorvant"');
  });
});

describe("rollingRestart", () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("takes no server out while another in the rotation does not answer its health check", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "rolling-restart-"));
    const siteFile = path.join(dir, "quorvant.conf");
    writeFileSync(siteFile, SHIPPED);
    const closed = await freePort(); // nothing listens there
    const steps: string[] = [];
    await expect(
      rollingRestart({
        siteFile,
        reload: async () => void steps.push("reload"),
        servers: ["127.0.0.1:3000", "127.0.0.1:3001"].map((address) => ({
          address,
          healthUrl: `http://127.0.0.1:${closed}/healthz`,
          restart: async () => void steps.push(`restart ${address}`),
        })),
        log: () => undefined,
      }),
    ).rejects.toThrow("127.0.0.1:3001 is not healthy");
    expect(steps).toEqual([]);
    expect(readFileSync(siteFile, "utf8")).toBe(SHIPPED);
  });

  it("refuses a site file with one app server", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "rolling-restart-"));
    const siteFile = path.join(dir, "quorvant.conf");
    writeFileSync(siteFile, SHIPPED.replace(/^\s*server 127\.0\.0\.1:3001 .*\n/m, ""));
    await expect(
      rollingRestart({
        siteFile,
        reload: async () => undefined,
        servers: [{ address: "127.0.0.1:3000", healthUrl: "http://127.0.0.1:3000/healthz", restart: async () => undefined }],
        log: () => undefined,
      }),
    ).rejects.toThrow("lists one app server");
  });
});
