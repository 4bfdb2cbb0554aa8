import nodemailer from "nodemailer";
import { site } from "~/config/site";
import { INVITATION_HOURS } from "~/lib/admin/invitations.server";
import { roleDescriptions, sortRoles } from "~/lib/admin/roles";
import { describeSmtpError, smtpOptions } from "~/lib/delivery/senders.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

// An invitation sent by mail when the site has a mail server (SMTP_URL and MAIL_FROM); the owner
// who made it sees the link either way. The link is a credential: it is in the mail, never in a log.

export type InvitationMailOutcome = "sent" | "not-configured" | "failed";

export async function mailInvitation(input: {
  to: string;
  link: string;
  roles: readonly string[];
  invitedBy: string;
}): Promise<InvitationMailOutcome> {
  const env = getEnv();
  if (!env.SMTP_URL || !env.MAIL_FROM) return "not-configured";
  const transport = nodemailer.createTransport(smtpOptions(env.SMTP_URL, env.DELIVERY_TIMEOUT_MS, env.SMTP_ALLOW_CLEARTEXT));
  const roles = sortRoles(input.roles)
    .map((role) => roleDescriptions[role].label)
    .join(", ");
  try {
    await transport.sendMail({
      from: env.MAIL_FROM,
      to: input.to,
      subject: `Your invitation to the ${site.company} back office`,
      text: [
        `${input.invitedBy} invited you to the ${site.company} website's back office (${roles}).`,
        "",
        `Open this link within ${INVITATION_HOURS} hours to create a passkey and sign in. It works once.`,
        "",
        input.link,
        "",
        "If you did not expect this, ignore this mail: nothing happens until the link is used.",
      ].join("\n"),
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    return "sent";
  } catch (error) {
    logger.warn({ reason: describeSmtpError(error) }, "invitation mail could not be sent");
    return "failed";
  } finally {
    transport.close();
  }
}
