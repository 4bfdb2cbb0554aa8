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
