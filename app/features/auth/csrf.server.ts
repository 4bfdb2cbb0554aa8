import Tokens from "@fastify/csrf";

// Cross-site request forgery: besides the site's same-origin rule for every POST, each back-office
// form carries a token made from its session's own secret (@fastify/csrf: a salted hash of the
// secret), so a request forged from anywhere without the page in hand is refused.

const tokens = new Tokens({});

/** The form field every back-office form posts its token in. */
export const CSRF_FIELD = "csrf";

/** A new session's secret. */
export function newCsrfSecret(): string {
  return tokens.secretSync();
}

/** A token for forms rendered for the session with `secret`. */
export function csrfToken(secret: string): string {
  return tokens.create(secret);
}

export function isValidCsrfToken(secret: string, token: unknown): boolean {
  return typeof token === "string" && token.length > 0 && tokens.verify(secret, token);
}
