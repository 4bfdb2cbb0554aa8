import http from "node:http";
import { SHARED_SERVER, startPrivateServer } from "./support/server";
import { expect, test } from "./support/fixtures";
import { leadRows, uniqueCampaign } from "./forms-support";

// Hostile form traffic: the rate limit is decided before a body is read (every post that reaches
// the form pipeline counts, a bot's honeypot post included), and a post with far more fields than
// any form has is refused before validation.

const utm = (campaign: string) => `utm_source=x&utm_medium=y&utm_campaign=${campaign}`;
const demo = { first_name: "A", last_name: "B", email: "a@example.com", company: "C" };
const demoFields = new URLSearchParams(demo).toString();
const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };

test.describe("the rate limit comes before the body is read", () => {
  test("over its budget a client gets 429 for any body, invalid or unreadable, with nothing echoed or stored", async ({
    request,
  }) => {
    const server = await startPrivateServer({ FORM_RATE_LIMIT: "1" });
    try {
      const campaign = uniqueCampaign("limit-first");
      const url = `${server.url}/contact-sales?${utm(campaign)}`;
      const headers = { Origin: server.url };
      expect((await request.post(url, { form: { first_name: "Within budget" }, headers })).status()).toBe(200);

      // Within the budget this is a 400 (malformed email), which takes parsing and validation to find.
      const invalid = await request.post(url, { form: { first_name: "Zebedee-over-budget", email: "not-an-email" }, headers });
      expect(invalid.status()).toBe(429);
      expect(Number(invalid.headers()["retry-after"])).toBeGreaterThan(0);
      expect(invalid.headers()["cache-control"]).toBe("no-store");
      const answer = await invalid.text();
      expect(answer).toContain("Please wait a minute and try again.");
      expect(answer.includes("Zebedee-over-budget"), "the posted values are not echoed").toBe(false);

      // Not a form at all: telling so would take reading the body.
      const notAForm = await request.post(url, {
        data: { first_name: "A" },
        headers: { ...headers, "Content-Type": "application/json" },
      });
      expect(notAForm.status()).toBe(429);
      expect(notAForm.headers()["cache-control"]).toBe("no-store");

      expect(leadRows(server.databasePath, "sales_leads", campaign)).toMatchObject([{ first_name: "Within budget" }]);
    } finally {
      await server.stop();
    }
  });

  test("a bot's honeypot post counts against the budget", async ({ request }) => {
    const server = await startPrivateServer({ FORM_RATE_LIMIT: "1" });
    try {
      const campaign = uniqueCampaign("limit-honeypot");
      const url = `${server.url}/request-demo?${utm(campaign)}`;
      const headers = { Origin: server.url };
      const bot = await request.post(url, { form: { ...demo, website: "https://spam.example" }, headers });
      expect(bot.status()).toBe(200);
      expect(await bot.text()).toContain("Demo Request Submitted");
      const next = await request.post(url, { form: demo, headers });
      expect(next.status()).toBe(429);
      expect(leadRows(server.databasePath, "demo_requests", campaign)).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  test("a body answered unread is drained, so its keep-alive connection carries the next post", async () => {
    const server = await startPrivateServer({ FORM_RATE_LIMIT: "1" });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = postOn(agent, `${server.url}/contact-sales`);
      const first = await post("first_name=A");
      expect(first.status).toBe(200);
      // Over the budget, and sent in chunks with no Content-Length: 200 KiB the server never parses.
      const large = await post(`message=${"x".repeat(200 * 1024)}`, { chunked: true });
      expect(large.status).toBe(429);
      const next = await post("first_name=B");
      expect(next.status).toBe(429);
      // One connection carried all three.
      expect(new Set([first.localPort, large.localPort, next.localPort]).size).toBe(1);
    } finally {
      agent.destroy();
      await server.stop();
    }
  });
});

test.describe("a cap on the number of fields", () => {
  test("a post with 5,000 repeated fields gets 400 and stores nothing", async ({ request }) => {
    const campaign = uniqueCampaign("many-fields");
    const response = await request.post(`/request-demo?${utm(campaign)}`, {
      // A valid demo request, buried under fields no form has.
      data: `${demoFields}${"&x=1".repeat(5_000)}`,
      headers: { ...urlencoded, Origin: SHARED_SERVER.url },
    });
    expect(response.status()).toBe(400);
    expect(response.headers()["cache-control"]).toBe("no-store");
    expect(await response.text()).toContain("Your submission could not be read. Please try again.");
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toHaveLength(0);
  });

  test("100 fields are a form, 101 are not, urlencoded or multipart", async ({ request }) => {
    const campaign = uniqueCampaign("field-cap");
    const url = `/request-demo?${utm(campaign)}`;
    const headers = { Origin: SHARED_SERVER.url };
    const padding = (count: number) => Array.from({ length: count }, (): [string, string] => ["x", "1"]);
    const fields = (total: number) => [...Object.entries(demo), ...padding(total - Object.keys(demo).length)];

    const hundred = await request.post(url, {
      data: new URLSearchParams(fields(100)).toString(),
      headers: { ...headers, ...urlencoded },
    });
    expect(hundred.status()).toBe(200);
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toHaveLength(1);

    const overUrlencoded = await request.post(url, {
      data: new URLSearchParams(fields(101)).toString(),
      headers: { ...headers, ...urlencoded },
    });
    expect(overUrlencoded.status()).toBe(400);

    const boundary = "----quorvant-field-cap";
    const multipart =
      fields(101)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join("") + `--${boundary}--\r\n`;
    const overMultipart = await request.post(url, {
      data: multipart,
      headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(overMultipart.status()).toBe(400);
    expect(leadRows(SHARED_SERVER.databasePath, "demo_requests", campaign)).toHaveLength(1);
  });
});

type Answer = { status: number; localPort: number | undefined };

/** Posts urlencoded bodies to `url` through `agent` (keep-alive), noting which local port carried each. */
function postOn(agent: http.Agent, url: string) {
  const target = new URL(url);
  return (body: string, { chunked = false } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request(target, {
        method: "POST",
        agent,
        headers: {
          ...urlencoded,
          Origin: target.origin,
          ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(Buffer.byteLength(body)) }),
        },
      });
      request.on("response", (response) => {
        const localPort = request.socket?.localPort;
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, localPort }));
      });
      request.on("error", reject);
      if (chunked) {
        for (let offset = 0; offset < body.length; offset += 8192) request.write(body.slice(offset, offset + 8192));
        request.end();
      } else {
        request.end(body);
      }
    });
}
