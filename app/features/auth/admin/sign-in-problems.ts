// Why a sign-in did not happen, in the words the person sees. The sign-in page shows one of these
// by its code (`?problem=`), so nothing from the request is ever echoed back.

export const SIGN_IN_PROBLEMS = {
  "sso-unavailable": "The identity provider cannot be reached right now. Try again in a moment.",
  "sso-expired": "This sign-in took too long or was started in another browser. Try again.",
  "sso-failed": "Single sign-on failed. Try again.",
  "sso-refused": "The identity provider did not sign you in.",
  "no-email": "Your identity provider did not tell us your email address.",
  "invalid-email": "Your identity provider gave an email address the back office cannot use. Ask your administrator to check it.",
  unverified: "Your identity provider has not verified your email address.",
  "linked-elsewhere":
    "Your email address belongs to an account that signs in as someone else at your identity provider. Ask an owner for help.",
  disabled: "Your access to the back office has been disabled.",
  "no-groups": "None of your groups at the identity provider gives access any more.",
  "not-allowed": "You are not allowed in the back office. Ask an owner for an invitation.",
  "too-many": "Too many sign-in attempts. Try again in a few minutes.",
} as const;

export type SignInProblem = keyof typeof SIGN_IN_PROBLEMS;

export function signInProblemMessage(code: string | null): string | undefined {
  return code && Object.hasOwn(SIGN_IN_PROBLEMS, code) ? SIGN_IN_PROBLEMS[code as SignInProblem] : undefined;
}
