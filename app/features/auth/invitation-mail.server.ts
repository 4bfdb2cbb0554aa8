import { site } from "~/config/site";
import { sendBackOfficeMail, type BackOfficeMailOutcome } from "~/features/auth/back-office-mail.server";
import { INVITATION_HOURS } from "~/features/auth/invitations.server";
import { roleDescriptions, sortRoles } from "~/config/roles";

// An invitation sent by mail when the site has a mail server (SMTP_URL and MAIL_FROM); the owner
// who made it sees the link either way. The link is a credential: it is in the mail, never in a log.

export async function mailInvitation(input: {
  to: string;
  link: string;
  roles: readonly string[];
  invitedBy: string;
}): Promise<BackOfficeMailOutcome> {
  const roles = sortRoles(input.roles)
    .map((role) => roleDescriptions[role].label)
    .join(", ");
  const text = [
    `${input.invitedBy} invited you to the ${site.company} website's back office (${roles}).`,
    "",
    `Open this link within ${INVITATION_HOURS} hours to create a passkey and sign in. It works once.`,
    "",
    input.link,
    "",
    "If you did not expect this, ignore this mail: nothing happens until the link is used.",
  ].join("\n");
  return sendBackOfficeMail(
    { to: input.to, subject: `Your invitation to the ${site.company} back office`, text },
    "invitation mail",
  );
}
