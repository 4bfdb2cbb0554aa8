import { domainToASCII } from "node:url";
import { z } from "zod";

// An email address as an identity provider sends it, read once into the one spelling the back
// office compares and stores. The domain is what follows the last "@" (a local part may not hold
// one), turned into its ASCII (punycode) form so that a look-alike in another script stays a
// different domain, lower-cased and without the trailing dot of a fully qualified name. The whole
// must then be an address as the HTML standard defines it (what `<input type=email>` accepts):
// no quoted local parts, no comments, no empty labels.

const addressSchema = z.email({ pattern: z.regexes.html5Email });

export type EmailAddress = {
  /** `local@domain`, lower case, the domain in ASCII. */
  address: string;
  /** Lower case, ASCII (punycode), no trailing dot. */
  domain: string;
};

/** A domain in the form domains are compared in; "" when it is not a valid domain name. */
export function normalizeDomain(domain: string): string {
  // Letters, digits, marks, hyphens and dots only: domainToASCII reads its input as a URL's host
  // and would quietly drop whatever follows a "/", "?" or "#".
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(domain)) return "";
  const ascii = domainToASCII(domain);
  return ascii.endsWith(".") ? ascii.slice(0, -1) : ascii;
}

/** The address in its one spelling, or undefined when it is not an address we accept. */
export function parseEmailAddress(raw: string): EmailAddress | undefined {
  const text = raw.trim();
  const at = text.lastIndexOf("@");
  if (at < 1) return undefined;
  const domain = normalizeDomain(text.slice(at + 1));
  if (!domain) return undefined;
  const address = `${text.slice(0, at).toLowerCase()}@${domain}`;
  return addressSchema.safeParse(address).success ? { address, domain } : undefined;
}

/** Whether the address's domain is one of `allowed` (exactly: a subdomain is another domain). */
export function isInDomains(email: EmailAddress, allowed: readonly string[]): boolean {
  return allowed.some((domain) => normalizeDomain(domain) === email.domain);
}
