import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import type { DeliveryConfig, LeadForm } from "~/features/leads/delivery/config.server";
import {
  emailHtml,
  emailSubject,
  emailText,
  headerSafe,
  webhookBody,
  type LeadRecord,
} from "~/features/leads/delivery/messages.server";
import type { Delivery } from "~/features/leads/db/deliveries.server";

// Sending one delivery. A failure throws an Error whose message is safe to store and log: it
// names what went wrong (a status, a timeout, a refused connection), never a secret or a URL.

/** `alsoTo`: more recipients of an email, beside the form's list (an application's hiring contacts). */
export type Send = (
  delivery: Delivery,
  form: LeadForm,
  lead: LeadRecord,
  signal: AbortSignal,
  alsoTo?: readonly string[],
) => Promise<void>;

export function createSenders(config: DeliveryConfig): { send: Send; close: () => void } {
  const transport = config.email
    ? nodemailer.createTransport(smtpOptions(config.email.smtpUrl, config.timeoutMs, config.email.allowCleartext))
    : undefined;
  const signer = config.webhook ? new Webhook(config.webhook.secret) : undefined;

  const sendEmail: Send = async (delivery, form, lead, _signal, alsoTo = []) => {
    const listed = config.email?.recipients[form];
    if (!transport || !config.email || !listed?.length) throw new Error("email is not configured for this form any more");
    const recipients = withoutRepeats([...listed, ...alsoTo]);
    const name = [headerSafe(lead.first_name), headerSafe(lead.last_name)].filter(Boolean).join(" ");
    const email = headerSafe(lead.email);
    try {
      await transport.sendMail({
        from: config.email.from,
        to: recipients,
        // The visitor is who to answer, never who the mail is from (that would be spoofing).
        ...(email ? { replyTo: { name, address: email } } : {}),
        subject: emailSubject(form, lead),
        text: emailText(form, lead),
        html: emailHtml(form, lead),
        // One Message-ID per delivery: a retry of the same delivery is recognisably the same mail.
        messageId: `<${delivery.id}@lead-delivery.quorvant>`,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    } catch (error) {
      throw new Error(`SMTP: ${describeSmtpError(error)}`);
    }
  };

  const sendWebhook: Send = async (delivery, form, lead, signal) => {
    const url = config.webhook?.urls[form];
    if (!signer || !url) throw new Error("no webhook is configured for this form any more");
    const body = webhookBody(form, delivery.lead_table, lead);
    const timestamp = new Date();
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Quorvant-Website-Webhooks/1",
          // The delivery's id: the same on every retry, so a receiver can drop duplicates.
          "webhook-id": delivery.id,
          "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
          "webhook-signature": signer.sign(delivery.id, timestamp, body),
        },
        body,
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]),
      });
    } catch (error) {
      throw new Error(`webhook: ${describeFetchError(error, config.timeoutMs)}`);
    }
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status > 299) throw new Error(`webhook: HTTP ${response.status}`);
  };

  return {
    send: (delivery, form, lead, signal, alsoTo) =>
      (delivery.destination === "email" ? sendEmail : sendWebhook)(delivery, form, lead, signal, alsoTo),
    close: () => transport?.close(),
  };
}

/** Each address once, compared without case, in the order first given. */
function withoutRepeats(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * smtps:// is TLS from the first byte (port 465 by default). smtp://user:password@host:587 must
 * upgrade with STARTTLS before the login and the lead are sent: a server that does not offer it
 * (or a machine in the middle that strips it) gets neither, and the send fails. Only with
 * `allowCleartext` (SMTP_ALLOW_CLEARTEXT) does smtp:// go on in the clear when STARTTLS is absent.
 */
export function smtpOptions(smtpUrl: string, timeoutMs: number, allowCleartext: boolean) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && !allowCleartext,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const { name, cause } = error as { name?: string; cause?: { code?: string; message?: string } };
  if (name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  if (name === "AbortError") return "stopped (server shutting down)";
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export function describeSmtpError(error: unknown): string {
  const { code, responseCode, response, message } = error as {
    code?: string;
    responseCode?: number;
    response?: string;
    message?: string;
  };
  if (code === "ETLS") {
    return `no TLS: the mail server did not upgrade with STARTTLS${responseCode ? ` (${responseCode})` : ""}; smtp:// requires it unless SMTP_ALLOW_CLEARTEXT=true`;
  }
  if (responseCode) return `${responseCode} ${headerSafe(response ?? "").slice(0, 200)}`;
  return code ?? headerSafe(message ?? String(error)).slice(0, 200);
}
