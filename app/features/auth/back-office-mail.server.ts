import nodemailer from "nodemailer";
import { describeSmtpError, smtpOptions } from "~/features/leads/delivery/senders.server";
import { getEnv } from "~/env.server";
import { logger } from "~/platform/logger.server";

// The back office's own mail to a person (an invitation, a change to how they sign in), sent when
// the site has a mail server (SMTP_URL and MAIL_FROM). A failure is logged with its reason and
// what the mail was, never with the address or the text (an invitation's text holds its link).

export type BackOfficeMailOutcome = "sent" | "not-configured" | "failed";

export async function sendBackOfficeMail(
  mail: { to: string; subject: string; text: string },
  /** What the mail is, for the log line: "invitation mail", "sign-in change mail". */
  what: string,
  logFields: Record<string, string> = {},
): Promise<BackOfficeMailOutcome> {
  const env = getEnv();
  if (!env.SMTP_URL || !env.MAIL_FROM) return "not-configured";
  const transport = nodemailer.createTransport(smtpOptions(env.SMTP_URL, env.DELIVERY_TIMEOUT_MS, env.SMTP_ALLOW_CLEARTEXT));
  try {
    await transport.sendMail({ from: env.MAIL_FROM, ...mail, disableFileAccess: true, disableUrlAccess: true });
    return "sent";
  } catch (error) {
    logger.warn({ reason: describeSmtpError(error), ...logFields }, `${what} could not be sent`);
    return "failed";
  } finally {
    transport.close();
  }
}
