import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRangeStart, freePort } from "../../scripts/lib/built-server";

// A port inside the ephemeral range can be taken by any outgoing connection before its user binds it.
describe("freePort", () => {
  it("gives a loopback port below the ephemeral range that can be listened on", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(1_024);
    expect(port).toBeLessThan(ephemeralRangeStart());
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it("never hands out one port twice, though none is bound in between", async () => {
    // Random picks from the range would repeat within a few hundred.
    const ports = [];
    for (let pick = 0; pick < 2_000; pick += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
