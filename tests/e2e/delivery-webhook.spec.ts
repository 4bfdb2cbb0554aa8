import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { leadFormServerOfTable } from "../../app/features/leads/registry.server";
import { freePort } from "../../scripts/lib/built-server";
import { uniqueCampaign } from "./forms-support";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";
import {
  FAST_DELIVERY,
  LEAD_FORMS,
  deliveryRows,
  leadsOfCampaign,
  newWebhookSecret,
  postLead,
  sleep,
  startWebhookReceiver,
  waitUntil,
  type DeliveryRow,
  type LeadForm,
  type Responder,
  type WebhookReceiver,
  type WebhookRequest,
} from "./support/delivery-receivers";

// Lead webhooks from the built server to a real HTTP receiver on loopback that verifies every
// Standard Webhooks signature: the payload is the stored row, a failed attempt is retried with
// the same webhook-id, a delivery that keeps failing ends dead and an operator brings it back
// with the leads CLI. The visitor's answer never waits for the receiver.

const DEMO = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", company: "Navy Compilers" };

const SAMPLE: Record<LeadForm, Record<string, string>> = {
  "contact-sales": { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", company: "Engines", message: "Hi" },
  "request-demo": { ...DEMO, company_size: "51-200", job_title: "Admiral" },
  "career-application": {
    first_name: "Margaret",
    last_name: "Hamilton",
    email: "margaret@example.com",
    years_experience: "12",
    why_quorvant: "Reliable software.",
    work_style: "leadership",
  },
};

const PATHS: Record<LeadForm, string> = {
  "contact-sales": "/hooks/contact",
  "request-demo": "/hooks/demo",
  "career-application": "/hooks/career",
};

type Context = { server: RunningServer; receiver: WebhookReceiver; secret: string; databaseUrl: string };

/** A receiver and a private server whose three forms post to it; both stopped afterwards (the receiver first when `receiverFirst`). */
async function withWebhooks(
  options: { responder?: Responder; env?: Record<string, string>; receiverFirst?: boolean },
  work: (context: Context) => Promise<void>,
) {
  const secret = newWebhookSecret();
  const receiver = await startWebhookReceiver({ secret, responder: options.responder });
  let server: RunningServer | undefined;
  try {
    const urls = Object.fromEntries(
      (Object.keys(LEAD_FORMS) as LeadForm[]).map((form) => [LEAD_FORMS[form].webhookVariable, `${receiver.url}${PATHS[form]}`]),
    );
    server = await startPrivateServer({ ...urls, WEBHOOK_SECRET: secret, ...FAST_DELIVERY, ...options.env });
    await work({ server, receiver, secret, databaseUrl: `file:${server.databasePath}` });
  } finally {
    if (options.receiverFirst) await receiver.close();
    await server?.stop();
    if (!options.receiverFirst) await receiver.close();
  }
}

/** Waits until the delivery rows satisfy `done`, and returns them. */
async function waitForDeliveries(
  context: Context,
  done: (rows: DeliveryRow[]) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<DeliveryRow[]> {
  let rows: DeliveryRow[] = [];
  await waitUntil(
    async () => done((rows = await deliveryRows(context.databaseUrl))),
    timeoutMs,
    () =>
      `${what}; deliveries: ${JSON.stringify(rows)}\nreceiver saw: ${describeRequests(context.receiver.requests)}\n${context.server.output()}`,
  );
  return rows;
}

function describeRequests(requests: WebhookRequest[]): string {
  return JSON.stringify(
    requests.map(({ webhookId, path, status, verified, aborted, attempt }) => ({
      webhookId,
      path,
      status,
      verified,
      aborted,
      attempt,
    })),
  );
}

type CliResult = { code: number | null; stdout: string; stderr: string };

/** The leads CLI (`npm run leads -- ARGS`) on a database, as an operator runs it beside the server. */
function leadsCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/leads.ts", ...args], {
      env: { ...process.env, NODE_ENV: "production", SITE_URL: "http://127.0.0.1", DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** "N deliveries queued again" (the singular, "1 delivery", is accepted). */
const QUEUED_AGAIN = (n: number) => new RegExp(`^${n} deliver(y|ies) queued again$`);

const CLI_FIELDS = [
  "id",
  "status",
  "destination",
  "lead_table",
  "lead_id",
  "attempts",
  "next_attempt_at",
  "last_error",
  "created_at",
  "sent_at",
];

async function cliJson(databaseUrl: string, ...args: string[]): Promise<Record<string, unknown>[]> {
  const result = await leadsCli(databaseUrl, "deliveries", ...args, "--format", "json");
  expect(result.code, `leads deliveries ${args.join(" ")}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

test("every form's webhook is signed, carries the stored row, and is sent once", async () => {
  await withWebhooks({}, async (context) => {
    const { server, receiver, secret } = context;
    const campaign = uniqueCampaign("hook-forms");
    const forms = Object.keys(LEAD_FORMS) as LeadForm[];
    for (const form of forms) expect((await postLead(server.url, form, SAMPLE[form], campaign)).status, form).toBe(200);
    const rows = await waitForDeliveries(
      context,
      (all) => all.length === 3 && all.every((row) => row.status === "sent"),
      "3 sent",
    );

    expect(receiver.requests).toHaveLength(3);
    for (const form of forms) {
      const { table } = LEAD_FORMS[form];
      const [lead] = await leadsOfCampaign(context.databaseUrl, table, campaign);
      const delivery = rows.find((row) => row.lead_table === table);
      expect(delivery, `delivery of ${form}`).toMatchObject({ lead_id: lead!.id, destination: "webhook", attempts: 1 });
      const requests = receiver.requests.filter((request) => request.path === PATHS[form]);
      expect(requests, form).toHaveLength(1);
      const request = requests[0]!;
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toMatch(/^application\/json\b/);
      expect(request.verified, `${form} signature: ${request.verifyError}`).toBe(true);
      expect(request.webhookId, "webhook-id is the delivery's id").toBe(delivery!.id);
      expect(request.headers["webhook-timestamp"]).toMatch(/^\d+$/);
      expect(Math.abs(Number(request.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(120);
      expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The lead as its form wrote it (the registry's columns), not the back office's workflow columns.
      const columns = leadFormServerOfTable(table)!.columns;
      const written = Object.fromEntries(columns.map((column) => [column, lead![column]]));
      expect(request.payload).toEqual({ type: "lead.created", form, table, lead: written });
      expect(request.delivered).toBe(true);
    }

    // The start-up line names the destinations and never the secret.
    const output = server.output();
    expect(output.split("\n").filter((line) => line.includes("lead delivery on"))).toHaveLength(1);
    expect(output).not.toContain(secret);
    expect(output).not.toContain(secret.slice("whsec_".length));
  });
});

test("a honeypot post or a rejected post queues no delivery", async () => {
  await withWebhooks({}, async (context) => {
    const { server, receiver } = context;
    const campaign = uniqueCampaign("hook-rejected");
    expect((await postLead(server.url, "request-demo", { ...DEMO, website: "https://spam.example" }, campaign)).status).toBe(200);
    expect((await postLead(server.url, "request-demo", { ...DEMO, company: "" }, campaign)).status).toBe(400);
    expect((await postLead(server.url, "contact-sales", { email: "not-an-email" }, campaign)).status).toBe(400);
    // A real one afterwards: once it is sent, the worker has had every chance to send the others.
    expect((await postLead(server.url, "request-demo", DEMO, campaign)).status).toBe(200);
    const rows = await waitForDeliveries(context, (all) => all.some((row) => row.status === "sent"), "one sent");
    expect(rows).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
  });
});

test("a receiver answering 500 three times gets the fourth attempt, every attempt with the same webhook-id", async () => {
  await withWebhooks({ responder: (request) => (request.attempt <= 3 ? 500 : 200) }, async (context) => {
    const { server, receiver } = context;
    expect((await postLead(server.url, "request-demo", DEMO, uniqueCampaign("hook-retry"))).status).toBe(200);
    const [row] = await waitForDeliveries(context, (all) => all[0]?.status === "sent", "sent after retries");
    // A few more polls: nothing else is sent once the receiver has said yes.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const requests = receiver.requests;
    expect(requests.map((request) => request.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(requests.map((request) => request.webhookId))).toEqual(new Set([row!.id]));
    expect(requests.every((request) => request.verified)).toBe(true);
    expect(row).toMatchObject({ status: "sent", attempts: 4 });
    expect(row!.sent_at).toBeTruthy();
    // Retry n waits about DELIVERY_RETRY_BASE_MS × 2^(n-1) (capped at DELIVERY_RETRY_MAX_MS), less 20 % jitter at most.
    const base = Number(FAST_DELIVERY.DELIVERY_RETRY_BASE_MS);
    const cap = Number(FAST_DELIVERY.DELIVERY_RETRY_MAX_MS);
    for (let n = 1; n < requests.length; n += 1) {
      const gap = requests[n]!.receivedAt - requests[n - 1]!.receivedAt;
      expect(gap, `wait before retry ${n}`).toBeGreaterThanOrEqual(0.8 * Math.min(base * 2 ** (n - 1), cap) - 20);
    }
  });
});

test("a redirect, a timeout and a refused connection are failed attempts, and last_error says which", async () => {
  const closedPort = await freePort(); // nothing listens here
  const responder: Responder = (request) => {
    if (request.path === PATHS["contact-sales"]) return { status: 307, headers: { location: "/hooks/elsewhere" } };
    if (request.path === PATHS["request-demo"]) return sleep(5_000).then(() => 204); // beyond DELIVERY_TIMEOUT_MS
    return 204;
  };
  await withWebhooks(
    {
      responder,
      receiverFirst: true,
      env: {
        DELIVERY_MAX_ATTEMPTS: "1",
        WEBHOOK_URL_CAREER_APPLICATION: `http://127.0.0.1:${closedPort}/hooks/career`,
      },
    },
    async (context) => {
      const { server, receiver } = context;
      const campaign = uniqueCampaign("hook-failures");
      for (const form of Object.keys(LEAD_FORMS) as LeadForm[])
        expect((await postLead(server.url, form, SAMPLE[form], campaign)).status, form).toBe(200);
      const rows = await waitForDeliveries(
        context,
        (all) => all.length === 3 && all.every((row) => row.status === "dead"),
        "all three dead after their one attempt",
      );
      const errorOf = (table: string) => String(rows.find((row) => row.lead_table === table)?.last_error);
      expect(errorOf("sales_leads")).toContain("307");
      expect(errorOf("demo_requests")).toMatch(/time|no answer within/i);
      expect(errorOf("career_applications")).toMatch(/ECONNREFUSED|refused|connect/i);
      // A redirect is not followed: the lead goes nowhere but the configured URL.
      expect(receiver.requests.map((request) => request.path).sort()).toEqual(
        [PATHS["contact-sales"], PATHS["request-demo"]].sort(),
      );
      // The sender gave up on the slow receiver: it hung up before the answer.
      await waitUntil(
        () => receiver.requests.find((request) => request.path === PATHS["request-demo"])?.aborted,
        5_000,
        () => describeRequests(receiver.requests),
      );
    },
  );
});

test("a receiver that always fails: dead after DELIVERY_MAX_ATTEMPTS, listed by the CLI, redelivered once fixed", async () => {
  test.setTimeout(120_000);
  await withWebhooks({ responder: () => 500, env: { DELIVERY_MAX_ATTEMPTS: "3" } }, async (context) => {
    const { server, receiver, databaseUrl } = context;
    const campaign = uniqueCampaign("hook-dead");
    for (const email of ["one@example.com", "two@example.com"])
      expect((await postLead(server.url, "request-demo", { ...DEMO, email }, campaign)).status).toBe(200);
    const leadIds = (await leadsOfCampaign(databaseUrl, "demo_requests", campaign)).map((lead) => String(lead.id));
    expect(leadIds).toHaveLength(2);
    await waitForDeliveries(context, (all) => all.length === 2 && all.every((row) => row.status === "dead"), "both dead");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.requests).toHaveLength(6);
    for (const count of countBy(receiver.requests, (request) => request.webhookId).values()) expect(count).toBe(3);

    // The operator's view.
    const dead = await cliJson(databaseUrl, "--status", "dead");
    expect(dead).toHaveLength(2);
    for (const entry of dead) {
      expect(Object.keys(entry).sort()).toEqual([...CLI_FIELDS].sort());
      expect(entry).toMatchObject({
        status: "dead",
        destination: "webhook",
        lead_table: "demo_requests",
        attempts: 3,
        sent_at: null,
      });
      expect(leadIds).toContain(entry.lead_id);
      expect(String(entry.last_error)).toContain("500");
    }
    expect(await cliJson(databaseUrl, "--status", "sent")).toEqual([]);
    expect(await cliJson(databaseUrl, "--status", "pending")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await cliJson(databaseUrl, "--since", today)).toHaveLength(2);
    expect(await cliJson(databaseUrl, "--since", "2100-01-01")).toEqual([]);
    const text = await leadsCli(databaseUrl, "deliveries", "--status", "dead");
    expect(text.code).toBe(0);
    for (const entry of dead) expect(text.stdout).toContain(String(entry.id));
    const badStatus = await leadsCli(databaseUrl, "deliveries", "--status", "lost");
    expect(badStatus.code).toBe(2);

    // Fixed: one delivery by its id, then every dead one.
    receiver.respondWith(() => 204);
    const [first, second] = dead.map((entry) => String(entry.id));
    const one = await leadsCli(databaseUrl, "redeliver", first!);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout.trim()).toMatch(QUEUED_AGAIN(1));
    await waitForDeliveries(context, (all) => all.find((row) => row.id === first)?.status === "sent", "the first sent");
    expect((await deliveryRows(databaseUrl)).find((row) => row.id === second)?.status).toBe("dead");

    const rest = await leadsCli(databaseUrl, "redeliver", "--dead");
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stdout.trim()).toMatch(QUEUED_AGAIN(1));
    await waitForDeliveries(context, (all) => all.every((row) => row.status === "sent"), "both sent");
    const sent = await cliJson(databaseUrl, "--status", "sent");
    expect(sent.map((entry) => entry.id).sort()).toEqual([first, second].sort());
    for (const entry of sent) expect(entry).toMatchObject({ attempts: 1 });
    // Each redelivery is the same delivery: its webhook-id again, answered 2xx once.
    expect(receiver.deliveredPerWebhookId()).toEqual(new Map([first!, second!].map((id) => [id, 1])));
    for (const id of [first, second]) {
      expect(receiver.requests.filter((request) => request.webhookId === id).map((request) => request.status)).toEqual([
        500, 500, 500, 204,
      ]);
    }

    // Nothing dead is left; an unknown id is refused with one line.
    const none = await leadsCli(databaseUrl, "redeliver", "--dead");
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toMatch(QUEUED_AGAIN(0));
    for (const unknown of [randomUUID(), "not-a-delivery"]) {
      const refused = await leadsCli(databaseUrl, "redeliver", unknown);
      expect(refused.code, unknown).toBe(2);
      expect(refused.stderr.trim().split("\n"), unknown).toHaveLength(1);
      expect(refused.stdout).toBe("");
    }
  });
});

test("the visitor's answer never waits for the receiver: posts answer while it holds a delivery", async () => {
  const holdMs = 5_000;
  const hold: Responder = () => new Promise((resolve) => setTimeout(() => resolve(200), holdMs));
  // One attempt may take longer than the hold, and a lease longer than an attempt.
  const env = { DELIVERY_TIMEOUT_MS: "8000", DELIVERY_LEASE_MS: "10000" };
  await withWebhooks({ responder: hold, receiverFirst: true, env }, async (context) => {
    const { server, receiver } = context;
    const campaign = uniqueCampaign("hook-slow");
    const first = await postLead(server.url, "request-demo", { ...DEMO, email: "first@example.com" }, campaign);
    expect(first.status).toBe(200);
    // The receiver now holds the first lead's webhook...
    const held = await waitUntil(
      () => receiver.requests[0],
      10_000,
      () => `no webhook arrived\n${server.output()}`,
    );
    expect(held.payload?.lead.email).toBe("first@example.com");
    // ...and a second visitor is answered while it still does.
    const second = await postLead(server.url, "request-demo", { ...DEMO, email: "second@example.com" }, campaign);
    expect(second.status).toBe(200);
    expect(held.finishedAt, "the receiver released the first webhook before the second visitor was answered").toBeUndefined();
    expect(first.answeredAt).toBeLessThan(held.receivedAt + holdMs);
    // The held delivery still completes: the receiver's slowness is within DELIVERY_TIMEOUT_MS.
    await waitForDeliveries(context, (all) => all.some((row) => row.status === "sent"), "the held delivery sent");
    expect(held.delivered).toBe(true);
  });
});

test("with nothing configured the server says delivery is off, once, and queues nothing", async () => {
  const server = await startPrivateServer();
  try {
    const campaign = uniqueCampaign("delivery-off");
    for (const form of Object.keys(LEAD_FORMS) as LeadForm[])
      expect((await postLead(server.url, form, SAMPLE[form], campaign)).status, form).toBe(200);
    const databaseUrl = `file:${server.databasePath}`;
    for (const form of Object.keys(LEAD_FORMS) as LeadForm[])
      expect(await leadsOfCampaign(databaseUrl, LEAD_FORMS[form].table, campaign), form).toHaveLength(1);
    const lines = server.output().split("\n");
    expect(lines.filter((line) => line.includes("lead delivery off: leads are stored only"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("lead delivery on"))).toHaveLength(0);
    expect(await deliveryRows(databaseUrl)).toEqual([]);
    expect(await cliJson(databaseUrl)).toEqual([]);
  } finally {
    await server.stop();
  }
});

test("delivery settings are checked at start: a bad one stops the server with a line naming it", async () => {
  const secret = newWebhookSecret();
  const cases: [Record<string, string>, RegExp][] = [
    [{ WEBHOOK_URL_REQUEST_DEMO: "http://127.0.0.1:9/hook" }, /WEBHOOK_SECRET/],
    [{ WEBHOOK_URL_REQUEST_DEMO: "http://example.com/hook", WEBHOOK_SECRET: secret }, /WEBHOOK_URL_REQUEST_DEMO/],
    [{ WEBHOOK_URL_CONTACT_SALES: "ftp://127.0.0.1/hook", WEBHOOK_SECRET: secret }, /WEBHOOK_URL_CONTACT_SALES/],
    [{ SMTP_URL: "smtp://127.0.0.1:2525", SALES_EMAIL_TO: "sales@quorvant.example" }, /MAIL_FROM/],
  ];
  for (const [env, message] of cases) {
    const started = startPrivateServer(env);
    await expect(started, JSON.stringify(env)).rejects.toThrow(/server exited with 1/);
    await expect(started, JSON.stringify(env)).rejects.toThrow(message);
    // The secret never appears in the refusal.
    await started.catch((error: Error) => expect(error.message).not.toContain(secret));
  }
});

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
