import { describe, expect, it } from "vitest";
import { signInChangeMessage, type SignInChangeNotice } from "~/features/auth/sign-in-change-mail.server";

// The mail a person gets when how they sign in changes: what, when, from where and by whom, and
// what to do if it was not them; never a token.

const notice: SignInChangeNotice = {
  to: "editor@example.com",
  change: "passkey-added",
  passkeyName: "Work laptop",
  by: "editor@example.com",
  at: new Date("2026-03-04T05:06:07.000Z"),
  ip: "192.0.2.7",
};

describe("signInChangeMessage", () => {
  it("says which passkey was added, when and from where, and where to remove it", () => {
    const { subject, text } = signInChangeMessage(notice, "https://quorvant.com");
    expect(subject).toBe("A passkey was added to your Quorvant back office account");
    expect(text).toContain(
      'A passkey ("Work laptop") was added to your account (editor@example.com) on the Quorvant back office, on 2026-03-04 at 05:06 UTC, from the address 192.0.2.7.',
    );
    expect(text).toContain("https://quorvant.com/admin/account");
    expect(text).not.toMatch(/invitations|token/i);
  });

  it("names the owner who removed someone's passkey, and keeps a passkey's name on one line", () => {
    const { subject, text } = signInChangeMessage(
      { ...notice, change: "passkey-removed", passkeyName: "Phone\r\nBcc: x@example.com", by: "owner@example.com" },
      "https://quorvant.com",
    );
    expect(subject).toBe("A passkey was removed from your Quorvant back office account");
    expect(text.split("\n")[0]).toBe(
      'A passkey ("Phone Bcc: x@example.com") was removed from your account (editor@example.com) on the Quorvant back office by owner@example.com, on 2026-03-04 at 05:06 UTC, from the address 192.0.2.7.',
    );
  });
});
