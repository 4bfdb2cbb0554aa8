import type { IDToken } from "openid-client";
import { describe, expect, it } from "vitest";
import { isInDomains, normalizeDomain, parseEmailAddress } from "~/features/auth/admin/email-address";
import { identityFromClaims } from "~/features/auth/sso.server";

// What single sign-on reads from an ID token: whether the email counts as verified, and which
// domain an address is in, odd spellings included.

const inQuorvant = (raw: string) => {
  const email = parseEmailAddress(raw);
  return email !== undefined && isInDomains(email, ["quorvant.com"]);
};

describe("parseEmailAddress", () => {
  it("refuses an address with a second @, whichever side looks like the company's", () => {
    expect(parseEmailAddress("a@quorvant.com@evil.example")).toBeUndefined();
    expect(parseEmailAddress("a@evil.example@quorvant.com")).toBeUndefined();
    expect(inQuorvant("a@quorvant.com@evil.example")).toBe(false);
  });

  it("refuses quoted local parts, comments and other forms no provider should send", () => {
    for (const raw of [
      '"a@quorvant.com"@evil.example',
      '"a"@quorvant.com',
      "a(comment)@quorvant.com",
      "a b@quorvant.com",
      "@quorvant.com",
      "a@",
      "a",
      "",
      "a@.quorvant.com",
      "a@quorvant..com",
      "a@quorvant.com..",
      "a@-quorvant.com",
      "a@[192.0.2.1]",
      "a@quorvant.com:443",
      "a\n@quorvant.com",
    ]) {
      expect(parseEmailAddress(raw), raw).toBeUndefined();
    }
  });

  it("refuses a domain with URL delimiters, which domainToASCII alone would cut off", () => {
    for (const raw of [
      "a@quorvant.com/evil.example",
      "a@quorvant.com?x",
      "a@quorvant.com#x",
      "a@quorvant.com%2f",
      "a@quorvant.com／x",
    ]) {
      expect(parseEmailAddress(raw), raw).toBeUndefined();
    }
  });

  it("reads upper case and the trailing dot of a fully qualified name as the same address", () => {
    expect(parseEmailAddress("A@QUORVANT.COM")).toEqual({ address: "a@quorvant.com", domain: "quorvant.com" });
    expect(parseEmailAddress(" Ann.Lee+sso@Quorvant.Com. ")).toEqual({
      address: "ann.lee+sso@quorvant.com",
      domain: "quorvant.com",
    });
    expect(inQuorvant("A@QUORVANT.COM")).toBe(true);
    expect(inQuorvant("a@quorvant.com.")).toBe(true);
  });

  it("keeps a look-alike domain in another script apart from the company's", () => {
    // "quorvаnt.com" with a Cyrillic а (U+0430).
    const lookAlike = parseEmailAddress("a@quorv\u0430nt.com");
    expect(lookAlike?.domain).toBe("xn--quorvnt-6fg.com");
    expect(inQuorvant("a@quorv\u0430nt.com")).toBe(false);
    expect(inQuorvant("a@xn--quorvnt-6fg.com")).toBe(false);
  });

  it("matches a domain exactly: neither a subdomain nor a longer name is the company's", () => {
    expect(inQuorvant("a@sub.quorvant.com")).toBe(false);
    expect(inQuorvant("a@quorvant.com.evil.example")).toBe(false);
    expect(inQuorvant("a@evilquorvant.com")).toBe(false);
  });

  it("normalises the configured domains the same way", () => {
    expect(normalizeDomain("Quorvant.COM.")).toBe("quorvant.com");
    expect(isInDomains(parseEmailAddress("a@quorvant.com")!, ["QUORVANT.com."])).toBe(true);
  });
});

describe("identityFromClaims", () => {
  const claims = (extra: Record<string, unknown>): IDToken =>
    ({ iss: "https://login.example.com", sub: "248289761001", aud: "site", iat: 0, exp: 0, ...extra }) as IDToken;

  it("counts the email as verified only when the claim is the boolean true", () => {
    expect(identityFromClaims(claims({ email: "a@quorvant.com", email_verified: true }), "groups").emailVerified).toBe(true);
    for (const value of [undefined, false, "false", "true", 1, null]) {
      const identity = identityFromClaims(claims({ email: "a@quorvant.com", email_verified: value }), "groups");
      expect(identity.emailVerified, String(value)).toBe(false);
    }
    expect(identityFromClaims(claims({ email: "a@quorvant.com" }), "groups").emailVerified).toBe(false);
  });

  it("keeps the provider's issuer and subject, and reads the groups claim it is told", () => {
    const identity = identityFromClaims(
      claims({ email: " A@Quorvant.com ", email_verified: true, roles: ["editors", 3, "owners"] }),
      "roles",
    );
    expect(identity).toEqual({
      issuer: "https://login.example.com",
      subject: "248289761001",
      email: "a@quorvant.com",
      emailVerified: true,
      groups: ["editors", "owners"],
    });
  });
});
