import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logSafeUrl } from "~/platform/log-safe-url";
import { requestLogger } from "../../server/request-log";

// The request log's line as the server writes it: the path and a query string with nothing in it
// that names a person (a search term, an address), since an erasure cannot reach the logs.

describe("the request log", () => {
  const lines: string[] = [];
  const server = createServer((req, res) => {
    requestLogger(
      pino({ base: undefined }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) })),
    )(req, res);
    res.end("ok");
  });
  let origin = "";
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  async function loggedUrl(path: string): Promise<string> {
    lines.length = 0;
    await (await fetch(`${origin}${path}`)).text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines.find((text) => text.includes("request completed"));
    expect(line, path).toBeDefined();
    return JSON.parse(line!).req.url as string;
  }

  it("keeps the path and redacts a lead search and anything holding an address", async () => {
    const logged = await loggedUrl("/admin/leads/export?form=request-demo&q=person%40example.com&status=new");
    expect(logged).toBe("/admin/leads/export?form=request-demo&q=[redacted]&status=new");
    expect(lines.join("\n")).not.toMatch(/person|example\.com/);
    // A name is a search term too; a public page keeps its campaign but not an address put in it.
    expect(await loggedUrl("/admin/leads?q=Ada+Lovelace")).toBe("/admin/leads?q=[redacted]");
    expect(await loggedUrl("/request-demo?utm_source=news&utm_campaign=jo@example.com")).toBe(
      "/request-demo?utm_source=news&utm_campaign=[redacted]",
    );
  });
});

describe("logSafeUrl's query strings", () => {
  it("redacts search terms and addresses on every path, however they are spelled", () => {
    for (const url of [
      "/admin/users?q=a",
      "/admin/leads?Q=jo",
      "/admin/leads?form=request-demo&q=jo%2540example.com",
      "/request-demo?utm_term=jo%40example.com",
      "/contact-sales?x=jo@example.com",
      "/%61dmin/leads?q=jo",
      "/?jo@example.com",
      "/company/careers?apply=1#jo@example.com",
    ]) {
      const logged = logSafeUrl(url);
      expect(logged, url).toContain("[redacted]");
      expect(logged, url).not.toMatch(/jo|q=a/);
    }
  });

  it("redacts under /admin every value not known to name no one, keeping the known ones and the public site's", () => {
    expect(logSafeUrl("/admin/sign-in/sso/callback?code=secret&state=s")).toBe(
      "/admin/sign-in/sso/callback?code=[redacted]&state=[redacted]",
    );
    expect(logSafeUrl("/admin/leads?form=request-demo&status=new&from=2026-01-01&campaign=spring")).toBe(
      "/admin/leads?form=request-demo&status=new&from=2026-01-01&campaign=spring",
    );
    expect(logSafeUrl("/request-demo?utm_source=news&utm_campaign=spring")).toBe(
      "/request-demo?utm_source=news&utm_campaign=spring",
    );
    expect(logSafeUrl("/resources/blog?page=2&category=ai")).toBe("/resources/blog?page=2&category=ai");
  });
});
