import { describe, expect, it } from "vitest";
import { parseDeliveriesArgs, parseRedeliverArgs } from "../../scripts/lib/delivery-commands";
import { deliveryConfigFrom, destinationsFor, describeDeliveries, retryDelayMs } from "~/features/leads/delivery/config.server";
import { describeSmtpError, smtpOptions } from "~/features/leads/delivery/senders.server";
import { emailHtml, emailSubject, emailText, headerSafe } from "~/features/leads/delivery/messages.server";
import { loadEnv } from "~/env.server";
import { UsageError } from "../../scripts/lib/lead-export";

const secret = `whsec_${Buffer.from("a-webhook-secret-of-24b!").toString("base64")}`;

describe("delivery configuration", () => {
  it("sends sales leads and applications where they are configured, and says so without secrets", () => {
    const env = loadEnv({
      SMTP_URL: "smtp://mailer:s3cret@mail.example.com:587",
      MAIL_FROM: "Quorvant Website <website@quorvant.com>",
      SALES_EMAIL_TO: "sales@quorvant.com, ops@quorvant.com",
      WEBHOOK_URL_REQUEST_DEMO: "https://hooks.example.com/T0KEN/demo",
      WEBHOOK_SECRET: secret,
    });
    const config = deliveryConfigFrom(env);
    expect(destinationsFor(config, "request-demo")).toEqual(["email", "webhook"]);
    expect(destinationsFor(config, "contact-sales")).toEqual(["email"]);
    expect(destinationsFor(config, "career-application")).toEqual([]);
    expect(config.email?.recipients["contact-sales"]).toEqual(["sales@quorvant.com", "ops@quorvant.com"]);
    const described = JSON.stringify(describeDeliveries(config));
    expect(described).not.toMatch(/s3cret|T0KEN|whsec_|mailer/);
    expect(describeDeliveries(deliveryConfigFrom(loadEnv({})))).toBeUndefined();
  });

  it("requires TLS for smtp:// (STARTTLS) unless SMTP_ALLOW_CLEARTEXT=true says otherwise", () => {
    const mail = { SMTP_URL: "smtp://mailer:s3cret@mail.example.com", MAIL_FROM: "website@quorvant.com" };
    const strict = loadEnv(mail);
    expect(strict.SMTP_ALLOW_CLEARTEXT).toBe(false);
    expect(smtpOptions(strict.SMTP_URL!, 1000, strict.SMTP_ALLOW_CLEARTEXT)).toMatchObject({
      port: 587,
      secure: false,
      requireTLS: true,
    });
    expect(smtpOptions("smtps://mail.example.com", 1000, false)).toMatchObject({ port: 465, secure: true, requireTLS: false });
    const relaxed = loadEnv({ ...mail, SMTP_ALLOW_CLEARTEXT: "true" });
    expect(smtpOptions(relaxed.SMTP_URL!, 1000, relaxed.SMTP_ALLOW_CLEARTEXT)).toMatchObject({ requireTLS: false });
    expect(() => loadEnv({ ...mail, SMTP_ALLOW_CLEARTEXT: "yes" })).toThrow(/SMTP_ALLOW_CLEARTEXT must be true or false/);
    expect(
      describeSmtpError(
        Object.assign(new Error("Error upgrading connection with STARTTLS"), { code: "ETLS", responseCode: 502 }),
      ),
    ).toBe("no TLS: the mail server did not upgrade with STARTTLS (502); smtp:// requires it unless SMTP_ALLOW_CLEARTEXT=true");
  });

  it("refuses half a configuration, one line per problem", () => {
    expect(() => loadEnv({ SMTP_URL: "smtp://mail.example.com" })).toThrow(
      /^Invalid configuration: MAIL_FROM is required with SMTP_URL/,
    );
    expect(() => loadEnv({ WEBHOOK_URL_CONTACT_SALES: "https://hooks.example.com/x" })).toThrow(/WEBHOOK_SECRET is required/);
    expect(() => loadEnv({ WEBHOOK_URL_CONTACT_SALES: "http://hooks.example.com/x", WEBHOOK_SECRET: secret })).toThrow(
      /must use https:\/\/ \(http:\/\/ only to localhost\)/,
    );
    expect(() => loadEnv({ SALES_EMAIL_TO: "not an address" })).toThrow(/SALES_EMAIL_TO must be comma-separated email addresses/);
    expect(() => loadEnv({ WEBHOOK_SECRET: "plain" })).toThrow(/WEBHOOK_SECRET must be a Standard Webhooks secret/);
    const twoProblems = () => loadEnv({ SMTP_URL: "smtp://mail.example.com", CAREERS_EMAIL_TO: "x" });
    expect(twoProblems).toThrow(/\n/);
  });

  it("waits longer after each failure, up to the cap, and keeps trying for more than a day by default", () => {
    const config = deliveryConfigFrom(loadEnv({}));
    expect(retryDelayMs(config, 1)).toBeGreaterThanOrEqual(24_000);
    expect(retryDelayMs(config, 1)).toBeLessThanOrEqual(36_000);
    expect(retryDelayMs(config, 20)).toBeLessThanOrEqual(config.retryMaxMs * 1.2);
    // The least the jitter allows, summed over every retry of the default schedule.
    let shortest = 0;
    for (let attempt = 1; attempt < config.maxAttempts; attempt += 1) {
      shortest += 0.8 * Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** (attempt - 1));
    }
    expect(shortest).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });
});

describe("lead emails", () => {
  const hostile = {
    id: "5e0c1f8a-0000-4000-8000-000000000001",
    first_name: "Ada\r\nBcc: victim@example.com",
    last_name: "<b>Lovelace</b>",
    email: "ada@example.com",
    company: "Acme & Co",
    company_size: "51-200",
  };

  it("has subjects a person can triage from, on one line", () => {
    expect(
      emailSubject("request-demo", { first_name: "Ada", last_name: "Lovelace", company: "Acme", company_size: "51-200" }),
    ).toBe("Demo request — Ada Lovelace, Acme (51-200)");
    expect(emailSubject("request-demo", { first_name: "Ada", last_name: "Lovelace", company: "Acme", company_size: "" })).toBe(
      "Demo request — Ada Lovelace, Acme",
    );
    expect(emailSubject("contact-sales", { first_name: "", last_name: "", company: "" })).toBe("Contact request — (no name)");
    expect(emailSubject("career-application", { first_name: "Grace", last_name: "Hopper" })).toBe(
      "Job application — Grace Hopper",
    );
    expect(emailSubject("request-demo", hostile)).not.toMatch(/[\r\n]/);
    expect(headerSafe("a\u0000b\u2028c")).toBe("a b c");
  });

  it("shows every field, escaped in HTML", () => {
    const text = emailText("request-demo", hostile);
    for (const label of ["Lead id", "First name", "Last name", "Email", "Company", "Company size"])
      expect(text).toContain(`${label}:`);
    const html = emailHtml("request-demo", hostile);
    expect(html).toContain("&lt;b&gt;Lovelace&lt;/b&gt;");
    expect(html).toContain("Acme &amp; Co");
    expect(html).not.toContain("<b>Lovelace");
  });
});

describe("delivery commands", () => {
  it("parses the listing and the redelivery", () => {
    expect(parseDeliveriesArgs(["--status", "dead", "--since", "2025-01-31"])).toEqual({
      status: "dead",
      since: "2025-01-31T00:00:00.000Z",
      format: "text",
    });
    expect(parseDeliveriesArgs(["--format=json"])).toEqual({ status: undefined, since: undefined, format: "json" });
    expect(parseRedeliverArgs(["--dead"])).toEqual({ dead: true });
    const id = "5E0C1F8A-0000-4000-8000-000000000001";
    expect(parseRedeliverArgs([id])).toEqual({ ids: [id.toLowerCase()] });
  });

  it.each([
    [["--status", "late"], /Unknown status "late"/],
    [["--since", "2025-02-30"], /--since must be a date/],
    [["--format", "xml"], /Unknown format "xml"/],
    [["--limit", "3"], /Unknown option/],
  ])("refuses deliveries %j", (argv, message) => {
    expect(() => parseDeliveriesArgs(argv)).toThrow(UsageError);
    expect(() => parseDeliveriesArgs(argv)).toThrow(message);
  });

  it.each([[[]], [["--dead", "5e0c1f8a-0000-4000-8000-000000000001"]], [["not-an-id"]]])("refuses redeliver %j", (argv) => {
    expect(() => parseRedeliverArgs(argv)).toThrow(UsageError);
  });
});
