import { parseArgs } from "node:util";
import { z } from "zod";
import { isRole, ROLES, type Role } from "~/config/roles";
import { UsageError } from "./usage-error";

// `npm run admin -- invite EMAIL --role ROLE [--locale TAG]`: what the back office's invitation form
// asks, from the command line, with the same rules (languages the site has; owners unlimited).

export const INVITE_USAGE = "Usage: npm run admin -- invite EMAIL --role ROLE [--role ROLE…] [--locale TAG…]";

const email = z.email().max(254);

export type InviteArgs = { email: string; roles: Role[]; locales: string[] };

/** Reads the invitation's arguments; throws UsageError, naming the mistake, for anything else. */
export function parseInviteArgs(argv: string[], usage = INVITE_USAGE): InviteArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { role: { type: "string", multiple: true }, locale: { type: "string", multiple: true } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]}\n${usage}`);
  }
  const [address, ...extra] = parsed.positionals;
  const roles = parsed.values.role ?? [];
  if (!address || extra.length) throw new UsageError(`Name one email address.\n${usage}`);
  if (!email.safeParse(address).success) throw new UsageError(`"${address}" is not an email address.`);
  if (roles.length === 0) throw new UsageError(`Give at least one --role (${ROLES.join(", ")}).`);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length)
    throw new UsageError(`Unknown role ${unknown.map((role) => `"${role}"`).join(", ")}: use ${ROLES.join(", ")}.`);
  return { email: address, roles: roles as Role[], locales: parsed.values.locale ?? [] };
}

/**
 * The languages the invitation limits the person to, among the site's (`siteLocales`, default
 * first): none is every language, and so is naming every one. Refused: a language the site does
 * not have, any language on a site in one, and any limit on an owner.
 */
export function invitationLocales(args: InviteArgs, siteLocales: readonly string[]): string[] {
  if (!args.locales.length) return [];
  if (siteLocales.length < 2)
    throw new UsageError(
      `The site is in one language (${siteLocales.join(", ")}): there is nothing to limit, leave out --locale.`,
    );
  const unknown = args.locales.filter((tag) => !siteLocales.includes(tag));
  if (unknown.length)
    throw new UsageError(
      `Unknown language ${unknown.map((tag) => `"${tag}"`).join(", ")}: the site has ${siteLocales.join(", ")}.`,
    );
  if (args.roles.includes("owner")) throw new UsageError("Owners edit every language: leave out --locale for an owner.");
  const chosen = siteLocales.filter((tag) => args.locales.includes(tag));
  return chosen.length === siteLocales.length ? [] : chosen;
}
