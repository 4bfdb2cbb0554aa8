import http from "node:http";
import https from "node:https";
import { expect, test } from "@playwright/test";
import { uniqueCampaign } from "../e2e/forms-support";
import { useTopology } from "./support/topology";

// The form rate limit is per client address per minute across all forms, and several servers
// share it through PostgreSQL. Behind nginx the client address is the one nginx saw (TRUST_PROXY=1
// reads the last X-Forwarded-For entry, the one nginx appended), so a client cannot buy a fresh
// budget by sending its own X-Forwarded-For.
//
// This group has its own pair of servers: the limit is fixed at start, and the other topology
// specs post far more than 3 times from the same address (everything comes from nginx).

const LIMIT = 3;

test.describe("form rate limit behind the proxy", () => {
  test.describe.configure({ mode: "default" });
  const topology = useTopology({ FORM_RATE_LIMIT: String(LIMIT) });

  test(`the ${LIMIT + 1}th submission from one client gets 429 from either server; a spoofed X-Forwarded-For changes nothing`, async ({
    request,
  }) => {
    const { url, accessLog, serverIndex, leadRows, diagnostics } = topology();
    const campaign = uniqueCampaign("topology-rate");
    const query = `utm_source=topology&utm_medium=rate&utm_campaign=${campaign}`;
    const posts: { path: string; form: Record<string, string> }[] = [
      { path: "/request-demo", form: { first_name: "A", last_name: "B", email: "a@example.com", company: "C" } },
      { path: "/contact-sales", form: { first_name: "A" } },
      { path: "/company/careers", form: { first_name: "A", last_name: "B", email: "a@example.com", why_quorvant: "Because." } },
    ];
    const post = (index: number, headers: Record<string, string> = {}) => {
      const { path, form } = posts[index % posts.length]!;
      return request.post(`${url}${path}?${query}`, { form, headers: { Origin: url, ...headers }, maxRedirects: 0 });
    };

    for (let index = 0; index < LIMIT; index += 1) expect((await post(index)).status(), `submission ${index + 1}`).toBe(200);
    // Round robin: the next posts alternate between the servers, so each refuses at least one.
    for (let index = LIMIT; index < LIMIT + 2; index += 1) {
      const limited = await post(index);
      expect(limited.status(), `submission ${index + 1}`).toBe(429);
      expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
      expect(await limited.text()).toContain("Please wait a minute and try again.");
    }
    const spoofed = await post(0, { "X-Forwarded-For": "203.0.113.7" });
    expect(spoofed.status(), "a client-supplied X-Forwarded-For must not reset the budget").toBe(429);

    // nginx logs a request once it has answered it: the last line may trail the answer a little.
    const logged = () => accessLog().filter((entry) => entry.method === "POST" && entry.uri.includes(campaign));
    await expect.poll(() => logged().length).toBe(LIMIT + 3);
    const answers = logged();
    expect(answers.map((entry) => entry.status)).toEqual([200, 200, 200, 429, 429, 429]);
    const answeredBy = (status: number) =>
      new Set(answers.filter((entry) => entry.status === status).map((entry) => serverIndex(entry.upstreams.at(-1) ?? "")));
    expect([...answeredBy(429)].sort(), `both servers refuse once the shared budget is spent:\n${diagnostics()}`).toEqual([0, 1]);
    expect([...answeredBy(200)].sort()).toEqual([0, 1]);

    // Exactly the accepted submissions are stored, one per form.
    for (const table of ["demo_requests", "sales_leads", "career_applications"] as const)
      expect(await leadRows(table, campaign)).toHaveLength(1);
  });
});

// nginx's own limits on the form endpoints (deploy/nginx/quorvant.conf): a flood of posts from one
// address is refused before it costs an app server anything. Each test posts from an address of
// its own on the loopback network (127.0.0.2, 127.0.0.3), so nginx counts them apart.

type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/** One https request to the topology's nginx from `localAddress`; `hold` sends only the start of the body and keeps it open. */
function requestFrom(
  topologyUrl: string,
  localAddress: string,
  options: { method: string; path: string; body?: string; hold?: boolean },
): { answer: Promise<Answer>; abort: () => void } {
  const target = new URL(topologyUrl);
  const body = options.body ?? "";
  const request = https.request({
    host: "127.0.0.1",
    port: Number(target.port),
    servername: target.hostname,
    localAddress,
    rejectUnauthorized: false,
    agent: false,
    method: options.method,
    path: options.path,
    headers: {
      Host: target.host,
      Origin: topologyUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(options.hold ? body.length + 1000 : body.length),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
    });
    request.on("error", reject);
  });
  if (options.hold) request.write(body);
  else request.end(body);
  return { answer, abort: () => request.destroy() };
}

test.describe("nginx's limits on form posts", () => {
  test.describe.configure({ mode: "default" });
  // One post a minute per address beyond the burst of 10: the shipped rate is 30 a minute.
  const topology = useTopology({}, { formPostRate: "1r/m" });

  test("posts from one address beyond the burst get nginx's small 429 page and never reach an app server; pages stay open", async () => {
    const { url, accessLog } = topology();
    const campaign = uniqueCampaign("nginx-rate");
    const path = `/contact-sales?utm_campaign=${campaign}`;
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let index = 0; index < 14; index += 1) {
      // A malformed email: invalid, so the app answers 400 and stores nothing.
      const answer = await requestFrom(url, "127.0.0.3", { method: "POST", path, body: "email=not-an-email" }).answer;
      statuses.push(answer.status);
      if (answer.status === 429) refused ??= answer;
    }
    expect(statuses).toEqual([...Array(11).fill(400), 429, 429, 429]);
    expect(refused!.body).toContain("The request could not be answered");
    expect(refused!.body.length).toBeLessThan(1_000);
    expect(refused!.headers["cache-control"]).toBe("no-store");
    // The form page itself is a page: not limited.
    expect((await requestFrom(url, "127.0.0.3", { method: "GET", path: "/contact-sales" }).answer).status).toBe(200);

    // nginx logs its own error page's answer under GET: the method of its internal redirect.
    const logged = () => accessLog().filter((entry) => entry.uri.includes(campaign));
    await expect.poll(() => logged().length).toBe(14);
    expect(logged().map((entry) => entry.upstreams.length)).toEqual([...Array(11).fill(1), 0, 0, 0]);
  });

  test("more than four posts under way at once from one address: the fifth gets 429 at once", async () => {
    const { url } = topology();
    const slow = Array.from({ length: 4 }, () =>
      requestFrom(url, "127.0.0.2", { method: "POST", path: "/request-demo", body: "email=not-an-email", hold: true }),
    );
    try {
      // nginx counts a post from when its headers are read; give it the four first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fifth = await requestFrom(url, "127.0.0.2", { method: "POST", path: "/request-demo", body: "email=not-an-email" })
        .answer;
      expect(fifth.status).toBe(429);
      expect(fifth.body).toContain("The request could not be answered");
    } finally {
      for (const request of slow) request.abort();
      await Promise.allSettled(slow.map((request) => request.answer));
    }
  });
});
