// The back office from the command line, on the database named by DATABASE_URL:
//   npm run admin -- invite EMAIL --role ROLE [--role ROLE…]   a single-use link, valid 24 hours (its last line)
//   npm run admin -- users                                     everyone who can sign in, with roles and status
//   npm run admin -- audit verify [--head SEQ:HASH]            checks the audit log's hash chain (and a head the log recorded)
// This is how the first owner gets in on a fresh installation, and how an operator lets someone
// back in who lost every passkey.
import "./lib/quiet-logs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { invite } from "~/features/auth/invitations.server";
import { isRole, ROLES, roleDescriptions, sortRoles, type Role } from "~/config/roles";
import { listUsers } from "~/features/auth/db/admin-users.server";
import { verifyAuditChain } from "~/features/audit/db/audit-log.server";
import { AUDIT_USAGE, formatAuditReport, parseAuditArgs } from "./lib/audit-commands";
import { runCommands, UsageError, type CommandParser } from "./lib/command";

const USAGE = [
  "Usage: npm run admin -- invite EMAIL --role ROLE [--role ROLE…]",
  "       npm run admin -- users",
  `       ${AUDIT_USAGE.replace("Usage: ", "")}`,
  `Roles: ${ROLES.join(", ")}.`,
].join("\n");

const email = z.email().max(254);

const commands: Record<string, CommandParser> = {
  invite(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: { role: { type: "string", multiple: true } },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError(`${(error as Error).message.split("\n")[0]}\n${USAGE}`);
    }
    const [address, ...extra] = parsed.positionals;
    const roles = parsed.values.role ?? [];
    if (!address || extra.length) throw new UsageError(`Name one email address.\n${USAGE}`);
    if (!email.safeParse(address).success) throw new UsageError(`"${address}" is not an email address.`);
    if (roles.length === 0) throw new UsageError(`Give at least one --role (${ROLES.join(", ")}).`);
    const unknown = roles.filter((role) => !isRole(role));
    if (unknown.length)
      throw new UsageError(`Unknown role ${unknown.map((role) => `"${role}"`).join(", ")}: use ${ROLES.join(", ")}.`);
    return async ({ db }) => {
      const { link, invitation } = await invite(db, {
        email: address,
        roles: roles as Role[],
        invitedBy: null,
        ip: "command line",
      });
      const labels = sortRoles(invitation.roles).map((role) => roleDescriptions[role].label);
      console.log(`Invitation for ${invitation.email} as ${labels.join(", ")}, single use, valid until ${invitation.expiresAt}:`);
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
          `${user.email}\t${sortRoles(user.roles).join(",")}\t${status}\t${user.passkeys} passkey(s)\tlast sign-in ${user.lastSignInAt ?? "never"}`,
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
