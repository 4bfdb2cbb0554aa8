// The back office from the command line, on the database named by DATABASE_URL:
//   npm run admin -- invite EMAIL --role ROLE [--role ROLE…] [--locale TAG…]   a single-use link, valid 24 hours (its last line)
//   npm run admin -- users                                     everyone who can sign in, with roles, status and languages
//   npm run admin -- audit verify [--head SEQ:HASH]            checks the audit log's hash chain (and a head the log recorded)
// This is how the first owner gets in on a fresh installation, and how an operator lets someone
// back in who lost every passkey.
import "./lib/quiet-logs";
import { invite } from "~/features/auth/invitations.server";
import { ROLES, roleDescriptions, sortRoles } from "~/config/roles";
import { languageName } from "~/features/content/document-locale";
import { listUsers } from "~/features/auth/db/admin-users.server";
import { verifyAuditChain } from "~/features/audit/db/audit-log.server";
import { AUDIT_USAGE, formatAuditReport, parseAuditArgs } from "./lib/audit-commands";
import { INVITE_USAGE, invitationLocales, parseInviteArgs } from "./lib/invite-commands";
import { runCommands, UsageError, type CommandParser } from "./lib/command";

const USAGE = [
  INVITE_USAGE,
  "       npm run admin -- users",
  `       ${AUDIT_USAGE.replace("Usage: ", "")}`,
  `Roles: ${ROLES.join(", ")}.`,
].join("\n");

/** The languages a person may edit, as the users list shows them: a limit's tags, else every language. */
const languagesOf = (user: { roles: readonly string[]; locales: readonly string[] }) =>
  user.roles.includes("owner") || !user.locales.length ? "every language" : `${user.locales.join(",")} only`;

const commands: Record<string, CommandParser> = {
  invite(argv) {
    const args = parseInviteArgs(argv, USAGE);
    return async ({ db, env }) => {
      const locales = invitationLocales(
        args,
        env.SITE_LOCALES.map((locale) => locale.tag),
      );
      const { link, invitation } = await invite(db, {
        email: args.email,
        roles: args.roles,
        locales,
        invitedBy: null,
        ip: "command line",
      });
      const labels = sortRoles(invitation.roles).map((role) => roleDescriptions[role].label);
      const languages = invitation.locales.length ? `, for ${invitation.locales.map(languageName).join(", ")} only` : "";
      console.log(
        `Invitation for ${invitation.email} as ${labels.join(", ")}${languages}, single use, valid until ${invitation.expiresAt}:`,
      );
      console.log(link);
    };
  },
  users(argv) {
    if (argv.length) throw new UsageError(USAGE);
    return async ({ db }) => {
      const users = await listUsers(db);
      if (users.length === 0)
        console.log("Nobody can sign in yet: invite the first owner with npm run admin -- invite EMAIL --role owner");
      for (const user of users) {
        const status = user.disabledAt ? "disabled" : "active";
        console.log(
          `${user.email}\t${sortRoles(user.roles).join(",")}\t${status}\t${user.passkeys} passkey(s)\tlast sign-in ${user.lastSignInAt ?? "never"}\t${languagesOf(user)}`,
        );
      }
    };
  },
  audit(argv) {
    const { loggedHead } = parseAuditArgs(argv);
    return async ({ db }) => {
      const { code, line } = formatAuditReport(await verifyAuditChain(db, { loggedHead }));
      if (code === 0) console.log(line);
      else console.error(line);
      return code;
    };
  },
};

runCommands(USAGE, commands);
