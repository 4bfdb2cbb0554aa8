import { site } from "~/config/site";
import { sendBackOfficeMail } from "~/features/auth/back-office-mail.server";
import { getEnv } from "~/env.server";

// A person is told by mail (when the site has a mail server: SMTP_URL and MAIL_FROM) whenever
// how they sign in changes: a passkey added to or removed from their account. Someone who took
// over a session and added their own passkey cannot hide it from the account's owner. The mail
// names what changed, when, from where and by whom; never a token or a credential.

export type SignInChange = "passkey-added" | "passkey-removed";

export type SignInChangeNotice = {
  /** The person whose account changed. */
  to: string;
  change: SignInChange;
  passkeyName: string;
  /** Who made the change: the person themselves, or an owner. */
  by: string;
  at: Date;
  ip: string;
};

/** The mail's subject and plain text. */
export function signInChangeMessage(notice: SignInChangeNotice, siteUrl: string): { subject: string; text: string } {
  const place = `the ${site.company} back office`;
  const when = `${notice.at.toISOString().slice(0, 16).replace("T", " at ")} UTC`;
  // A passkey's name is the person's own words: one line, as typed, without control characters.
  const name = notice.passkeyName.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, " ").trim();
  const added = notice.change === "passkey-added";
  const what = added ? `A passkey ("${name}") was added to` : `A passkey ("${name}") was removed from`;
  const byWhom = notice.by === notice.to ? "" : ` by ${notice.by}`;
  return {
    subject: added
      ? `A passkey was added to your ${site.company} back office account`
      : `A passkey was removed from your ${site.company} back office account`,
    text: [
      `${what} your account (${notice.to}) on ${place}${byWhom}, on ${when}, from the address ${notice.ip}.`,
      "",
      "If this was you, there is nothing to do.",
      "",
      `If it was not, sign in at ${siteUrl}/admin/account, remove any passkey you do not recognise, ` +
        'choose "Sign out of every device", and tell an owner of the back office.',
    ].join("\n"),
  };
}

/** Sends the notice without keeping the person's request waiting on the mail server; a failure is logged, never stops the change. */
export function notifySignInChange(notice: SignInChangeNotice): void {
  void sendBackOfficeMail({ to: notice.to, ...signInChangeMessage(notice, getEnv().SITE_URL) }, "sign-in change mail", {
    change: notice.change,
  });
}
