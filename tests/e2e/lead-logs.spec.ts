import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";
import {
  FAST_DELIVERY,
  LEAD_FORMS,
  newWebhookSecret,
  postLead,
  startWebhookReceiver,
  waitUntil,
  type LeadForm,
  type WebhookReceiver,
} from "./support/delivery-receivers";

// The server's logs are kept for weeks on disk and read by more people than leads are: a lead's
// values never reach them. Every form is submitted with distinctive values (stored, refused for a
// bad field, caught by the honeypot) and delivered to a webhook, with the most talkative log
// level; then no line of the server's output holds any of those values.

const MARK = "Qzxv";

const LEADS: Record<LeadForm, Record<string, string>> = {
  "contact-sales": {
    first_name: `${MARK}first`,
    last_name: `${MARK}last`,
    email: `${MARK.toLowerCase()}.contact@example.com`,
    company: `${MARK}company`,
    phone: "+1 555 0199 777",
    message: `${MARK}message line one\nline two`,
  },
  "request-demo": {
    first_name: `${MARK}grace`,
    last_name: `${MARK}hopper`,
    email: `${MARK.toLowerCase()}.demo@example.com`,
    company: `${MARK}navy`,
    job_title: `${MARK}admiral`,
    message: `${MARK}demo message`,
  },
  "career-application": {
    first_name: `${MARK}margaret`,
    last_name: `${MARK}hamilton`,
    email: `${MARK.toLowerCase()}.career@example.com`,
    current_position: `${MARK}position`,
    why_quorvant: `${MARK}why`,
    biggest_achievement: `${MARK}achievement`,
    resume_url: `https://example.com/${MARK}-resume.pdf`,
  },
};

let server: RunningServer | undefined;
let receiver: WebhookReceiver | undefined;

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

test.use({ baseURL: undefined });
test.describe.configure({ timeout: 60_000 });

test("submitting, refusing and delivering leads logs none of their values", async () => {
  const secret = newWebhookSecret();
  receiver = await startWebhookReceiver({ secret });
  const urls = Object.fromEntries(
    (Object.keys(LEAD_FORMS) as LeadForm[]).map((form) => [LEAD_FORMS[form].webhookVariable, `${receiver!.url}/hooks/${form}`]),
  );
  server = await startPrivateServer({
    ...urls,
    WEBHOOK_SECRET: secret,
    ...FAST_DELIVERY,
    FORM_RATE_LIMIT: "0",
    LOG_LEVEL: "debug",
  });

  for (const [form, fields] of Object.entries(LEADS) as [LeadForm, Record<string, string>][]) {
    expect((await postLead(server.url, form, fields, "log-check")).status, form).toBe(200);
    // Refused for one bad field: the others come back to the visitor, not to the log.
    expect((await postLead(server.url, form, { ...fields, email: `${MARK}-not-an-address` }, "log-check")).status, form).toBe(
      400,
    );
    // A bot: told thank you, nothing stored, nothing of it logged.
    expect((await postLead(server.url, form, { ...fields, website: `${MARK}-bot.example` }, "log-check")).status, form).toBe(200);
  }
  await waitUntil(
    () => receiver!.deliveredPerLeadId().size === 3,
    20_000,
    () => `expected 3 webhooks delivered, the receiver got ${receiver!.requests.length}\n${server!.output()}`,
  );
  // The deliveries were logged (so the log was written), without a value of the leads.
  await expect.poll(() => server!.output().match(/lead delivered/g)?.length ?? 0, { timeout: 10_000 }).toBe(3);
  const output = server.output();
  expect(output).toContain("honeypot filled");
  expect(output.toLowerCase()).not.toContain(MARK.toLowerCase());
  expect(output).not.toContain("555 0199");
});
