import type { Page } from "@playwright/test";
import { leadFormServerOfTable } from "../../app/features/leads/registry.server";
import { uniqueCampaign } from "./forms-support";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";
import {
  CLEARTEXT_MAIL,
  FAST_DELIVERY,
  deliveryRows,
  leadsOfCampaign,
  postLead,
  startSmtpReceiver,
  waitUntil,
  LEAD_FORMS,
  type LeadForm,
  type ReceivedEmail,
  type SmtpReceiver,
} from "./support/delivery-receivers";

// Lead emails, sent by the built server to a real SMTP server on loopback and read back with
// mailparser: one email per submission, From the site, To the form's list, Reply-To the visitor,
// a subject naming the lead, and every column of the stored row in the text and the HTML body.
// A visitor's values can never add a header or a recipient, nor markup to the HTML.

const MAIL_FROM = { name: "Quorvant Website", address: "website@quorvant.example" };
const SALES = ["sales@quorvant.example", "leads@quorvant.example"];
const CAREERS = ["jobs@quorvant.example"];

type Context = { server: RunningServer; smtp: SmtpReceiver; databaseUrl: string };

async function withMailServer(work: (context: Context) => Promise<void>, recipients?: Record<string, string>) {
  const smtp = await startSmtpReceiver();
  let server: RunningServer | undefined;
  try {
    server = await startPrivateServer({
      SMTP_URL: smtp.url,
      ...CLEARTEXT_MAIL,
      MAIL_FROM: `${MAIL_FROM.name} <${MAIL_FROM.address}>`,
      ...(recipients ?? {
        // A space after the comma: an operator's list is read item by item, trimmed.
        SALES_EMAIL_TO: SALES.join(", "),
        CAREERS_EMAIL_TO: CAREERS.join(","),
      }),
      ...FAST_DELIVERY,
    });
    await work({ server, smtp, databaseUrl: `file:${server.databasePath}` });
  } finally {
    await server?.stop();
    await smtp.close();
  }
}

/**
 * Waits until every delivery of the server's database is sent, then for the emails: a message
 * is handed to SMTP before its delivery is marked sent, so nothing may arrive after this.
 */
async function allSent(context: Context, expected: number): Promise<ReceivedEmail[]> {
  let rows: Awaited<ReturnType<typeof deliveryRows>> = [];
  await waitUntil(
    async () => {
      rows = await deliveryRows(context.databaseUrl);
      return rows.length === expected && rows.every((row) => row.status === "sent");
    },
    15_000,
    () => `expected ${expected} sent deliveries, found ${JSON.stringify(rows)}\n${context.server.output()}`,
  );
  expect(rows.map((row) => row.destination)).toEqual(Array(expected).fill("email"));
  return context.smtp.emails;
}

/** The one email whose text carries `campaign` (each submission has its own). */
function emailOf(emails: ReceivedEmail[], campaign: string): ReceivedEmail {
  const found = emails.filter((email) => (email.mail.text ?? "").includes(campaign));
  expect(found, `emails for ${campaign}`).toHaveLength(1);
  return found[0]!;
}

const addresses = (field: ReceivedEmail["mail"]["to"]) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((entry) => entry.value.map((address) => address.address));

/**
 * The labels are for people ("Lead id", "UTM source"): a label names a column when it holds every
 * word of the column's name (id; utm, source), in any case. Of several such labels ("Company",
 * "Company size" for company) the one with the fewest other words is the column's.
 */
function valueFor(pairs: [string, string][], column: string): string | undefined {
  const columnWords = column.split("_");
  let best: { extra: number; value: string } | undefined;
  for (const [label, value] of pairs) {
    const words = label
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    if (!columnWords.every((word) => words.includes(word))) continue;
    const extra = words.length - columnWords.length;
    if (!best || extra < best.extra) best = { extra, value };
  }
  return best?.value;
}

/** A stored value as the email shows it: text as is, a number in digits; an empty one may show as a dash. */
function expectShown(actual: string | undefined, value: unknown, what: string) {
  const expected = value === null || value === undefined ? "" : String(value);
  if (expected === "") expect(["", "—", "-"], what).toContain(actual);
  else expect(actual, what).toBe(expected);
}

/** Every column of the row has its own `label: value` line in the text body. */
function expectTextLists(email: ReceivedEmail, row: Record<string, unknown>) {
  const pairs: [string, string][] = [];
  for (const line of (email.mail.text ?? "").split(/\r?\n/)) {
    const match = /^([^:]+):[ \t]?(.*)$/.exec(line);
    if (match) pairs.push([match[1]!, match[2]!.trimEnd()]);
  }
  for (const [column, value] of Object.entries(row)) {
    expectShown(valueFor(pairs, column), value, `text line for ${column} in:\n${email.mail.text}`);
  }
}

/** The HTML body, parsed by Chromium: one table row per column, label cell then value cell, and no script. */
async function expectHtmlLists(page: Page, email: ReceivedEmail, row: Record<string, unknown>) {
  expect(email.mail.html, "an HTML body").toBeTruthy();
  await page.setContent(String(email.mail.html));
  expect(await page.locator("script").count(), "script elements in the HTML body").toBe(0);
  const cells = await page
    .locator("table tr")
    .evaluateAll((rows) => rows.map((tr) => Array.from(tr.querySelectorAll("th, td")).map((cell) => cell.textContent ?? "")));
  const pairs = cells.filter((pair) => pair.length === 2).map(([label, value]): [string, string] => [label!, value!.trim()]);
  for (const [column, value] of Object.entries(row)) {
    expectShown(valueFor(pairs, column), value, `HTML row for ${column} in:\n${email.mail.html}`);
  }
}

const fullLeads: { form: LeadForm; fields: Record<string, string>; subject: string; to: string[] }[] = [
  {
    form: "contact-sales",
    fields: {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      company: "Analytical & Engines <Ltd>",
      phone: "+44 20 7946 0000",
      product_name: "Sentinel",
      message: "Governance for our AI pipelines & more > less.",
    },
    subject: "Contact request — Ada Lovelace, Analytical & Engines <Ltd>",
    to: SALES,
  },
  {
    form: "request-demo",
    fields: {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      company: "Navy Compilers",
      job_title: "Rear Admiral",
      phone: "555-0100",
      company_size: "201-500",
      product_name: "General",
      message: "Audit trails for model prompts.",
    },
    subject: "Demo request — Grace Hopper, Navy Compilers (201-500)",
    to: SALES,
  },
  {
    form: "career-application",
    fields: {
      first_name: "Margaret",
      last_name: "Hamilton",
      email: "margaret@example.com",
      phone: "+1 617 555 0101",
      linkedin_profile: "https://www.linkedin.com/in/margaret",
      years_experience: "12",
      current_position: "Director of Software Engineering",
      why_quorvant: "Software that must not fail.",
      biggest_achievement: "Apollo guidance software.",
      work_style: "leadership",
      resume_url: "https://example.com/resume.pdf",
    },
    subject: "Job application — Margaret Hamilton",
    to: CAREERS,
  },
];

test("each form's submission is one email: From, To, Reply-To, subject and every column in text and HTML", async ({ page }) => {
  await withMailServer(async (context) => {
    const { server, smtp } = context;
    const campaigns = fullLeads.map((lead) => uniqueCampaign(`mail-${lead.form}`));
    for (const [index, lead] of fullLeads.entries()) {
      expect((await postLead(server.url, lead.form, lead.fields, campaigns[index]!)).status, lead.form).toBe(200);
    }
    const emails = await allSent(context, fullLeads.length);
    expect(emails).toHaveLength(fullLeads.length);

    for (const [index, lead] of fullLeads.entries()) {
      const campaign = campaigns[index]!;
      const [stored] = await leadsOfCampaign(context.databaseUrl, LEAD_FORMS[lead.form].table, campaign);
      expect(stored, `stored ${lead.form}`).toBeTruthy();
      // The lead as its form wrote it (the registry's columns), not the back office's workflow columns.
      const columns = leadFormServerOfTable(LEAD_FORMS[lead.form].table)!.columns;
      const row = Object.fromEntries(columns.map((column) => [column, stored![column]]));
      const email = emailOf(emails, campaign);
      const { mail } = email;
      expect(mail.from?.value, `${lead.form} From`).toEqual([{ name: MAIL_FROM.name, address: MAIL_FROM.address }]);
      expect(addresses(mail.to).sort(), `${lead.form} To`).toEqual([...lead.to].sort());
      expect(email.envelope.to.sort(), `${lead.form} envelope recipients`).toEqual([...lead.to].sort());
      expect(addresses(mail.replyTo), `${lead.form} Reply-To`).toEqual([lead.fields.email]);
      expect(mail.subject, `${lead.form} subject`).toBe(lead.subject);
      expect(mail.cc).toBeUndefined();
      expect(mail.bcc).toBeUndefined();
      expectTextLists(email, row);
      await expectHtmlLists(page, email, row);
      // The HTML escapes what the visitor typed; the text body shows it as typed.
      if (lead.form === "contact-sales") {
        expect(String(mail.html)).toContain("Analytical &amp; Engines &lt;Ltd&gt;");
        expect(String(mail.html)).not.toContain("<Ltd>");
      }
    }

    // Configured delivery says so once at start, naming destinations but no secret.
    const output = server.output();
    expect(output.split("\n").filter((line) => line.includes("lead delivery on"))).toHaveLength(1);
    expect(output).not.toContain("lead delivery off");
    expect(output).not.toContain(smtp.password);
  });
});

test("subjects leave out what was not given; a contact without email has no Reply-To", async () => {
  await withMailServer(async (context) => {
    const cases: { form: LeadForm; fields: Record<string, string>; subject: string; replyTo: string[] }[] = [
      {
        form: "request-demo",
        fields: { first_name: "Alan", last_name: "Turing", email: "alan@example.com", company: "Bletchley" },
        subject: "Demo request — Alan Turing, Bletchley",
        replyTo: ["alan@example.com"],
      },
      {
        form: "contact-sales",
        fields: { first_name: "Ada", email: "ada@example.com" },
        subject: "Contact request — Ada",
        replyTo: ["ada@example.com"],
      },
      {
        form: "contact-sales",
        fields: { last_name: "Lovelace", company: "Engines" },
        subject: "Contact request — Lovelace, Engines",
        replyTo: [],
      },
      { form: "contact-sales", fields: {}, subject: "Contact request — (no name)", replyTo: [] },
    ];
    const campaigns = cases.map(() => uniqueCampaign("mail-subject"));
    for (const [index, item] of cases.entries()) {
      expect((await postLead(context.server.url, item.form, item.fields, campaigns[index]!)).status).toBe(200);
    }
    const emails = await allSent(context, cases.length);
    expect(emails).toHaveLength(cases.length);
    for (const [index, item] of cases.entries()) {
      const { mail } = emailOf(emails, campaigns[index]!);
      expect(mail.subject).toBe(item.subject);
      expect(addresses(mail.replyTo), `Reply-To of "${item.subject}"`).toEqual(item.replyTo);
      // Never From as a stand-in for the visitor.
      expect(addresses(mail.replyTo)).not.toContain(MAIL_FROM.address);
    }
  });
});

test("a hostile first name (CR/LF, a Bcc: header, <script>) adds no header or recipient and is escaped in HTML", async ({
  page,
}) => {
  await withMailServer(async (context) => {
    const hostile = "Eve\r\nBcc: victim@evil.example\r\n<script>alert(1)</script>";
    const benignCampaign = uniqueCampaign("mail-benign");
    const hostileCampaign = uniqueCampaign("mail-hostile");
    const base = { last_name: "Mallory", email: "eve@example.com", company: "Evil Corp", message: "Hello" };
    expect((await postLead(context.server.url, "contact-sales", { ...base, first_name: "Eve" }, benignCampaign)).status).toBe(
      200,
    );
    expect((await postLead(context.server.url, "contact-sales", { ...base, first_name: hostile }, hostileCampaign)).status).toBe(
      200,
    );
    const emails = await allSent(context, 2);
    expect(emails).toHaveLength(2);
    const benign = emailOf(emails, benignCampaign);
    const attack = emailOf(emails, hostileCampaign);

    // No recipient beyond the sales list, in the headers or the envelope.
    expect(attack.envelope.to.sort()).toEqual([...SALES].sort());
    expect(addresses(attack.mail.to).sort()).toEqual([...SALES].sort());
    expect(attack.mail.bcc).toBeUndefined();
    expect(attack.headerFields.filter((field) => /^bcc:/i.test(field))).toEqual([]);
    // Exactly the header fields of the benign email: nothing was injected.
    const names = (email: ReceivedEmail) => email.headerFields.map((field) => field.split(":")[0]!.toLowerCase()).sort();
    expect(names(attack)).toEqual(names(benign));
    // The subject holds the whole value on one line, its control characters turned into spaces.
    const subject = attack.mail.subject ?? "";
    const controls = [...subject].filter((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
    expect(controls, "control characters in the subject").toEqual([]);
    expect(subject).toMatch(
      /^Contact request — Eve +Bcc: victim@evil\.example +<script>alert\(1\)<\/script> Mallory, Evil Corp$/,
    );
    expect(attack.headerFields.filter((field) => /^subject:/i.test(field))).toHaveLength(1);

    // The HTML body shows the text and runs nothing.
    const html = String(attack.mail.html);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    await page.setContent(html);
    expect(await page.locator("script").count()).toBe(0);
    await expect(page.locator("body")).toContainText("<script>alert(1)</script>");
  });
});

test("a form whose list is not configured gets no email", async () => {
  await withMailServer(
    async (context) => {
      const campaign = uniqueCampaign("mail-careers-only");
      expect((await postLead(context.server.url, "request-demo", { ...fullLeads[1]!.fields }, campaign)).status).toBe(200);
      expect((await postLead(context.server.url, "contact-sales", { first_name: "Ada" }, campaign)).status).toBe(200);
      expect((await postLead(context.server.url, "career-application", { ...fullLeads[2]!.fields }, campaign)).status).toBe(200);
      const emails = await allSent(context, 1);
      const rows = await deliveryRows(context.databaseUrl);
      expect(rows.map((row) => row.lead_table)).toEqual(["career_applications"]);
      expect(emails).toHaveLength(1);
      expect(emails[0]!.envelope.to).toEqual(CAREERS);
    },
    { CAREERS_EMAIL_TO: CAREERS.join(",") },
  );
});

test("smtp:// to a server without STARTTLS sends neither the login nor the lead: the delivery fails, says why, and is retried", async () => {
  const smtp = await startSmtpReceiver();
  // As an operator would configure it, without SMTP_ALLOW_CLEARTEXT.
  const server = await startPrivateServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: `${MAIL_FROM.name} <${MAIL_FROM.address}>`,
    SALES_EMAIL_TO: SALES.join(","),
    ...FAST_DELIVERY,
  });
  try {
    const databaseUrl = `file:${server.databasePath}`;
    const campaign = uniqueCampaign("mail-no-starttls");
    expect((await postLead(server.url, "contact-sales", { first_name: "Ada", email: "ada@example.com" }, campaign)).status).toBe(
      200,
    );
    let rows: Awaited<ReturnType<typeof deliveryRows>> = [];
    await waitUntil(
      async () => {
        rows = await deliveryRows(databaseUrl);
        return rows[0] && rows[0].attempts >= 2;
      },
      15_000,
      () => `expected two failed attempts, found ${JSON.stringify(rows)}\n${server.output()}`,
    );
    expect(rows[0]).toMatchObject({ destination: "email", sent_at: null });
    expect(rows[0]!.status).not.toBe("sent");
    expect(rows[0]!.last_error).toMatch(/^SMTP: no TLS: the mail server did not upgrade with STARTTLS/);
    expect(server.output()).toContain("SMTP_ALLOW_CLEARTEXT=true");
    expect(smtp.logins).toEqual([]);
    expect(smtp.emails).toEqual([]);
    expect(server.output()).not.toContain(smtp.password);
  } finally {
    await server.stop();
    await smtp.close();
  }
});
