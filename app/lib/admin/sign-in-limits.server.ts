import type { AppLoadContext } from "react-router";
import { getDialect, getPgPool } from "~/lib/db/index.server";
import { getEnv } from "~/lib/env.server";
import { createRateLimiter, rateLimitKey, type RateLimitDecision } from "~/lib/rate-limit.server";

// Sign-in attempts are limited per client address (SIGN_IN_RATE_LIMIT attempts per 10 minutes,
// every attempt counted) and per account (ACCOUNT_FAILURES failed attempts per 15 minutes), in
// PostgreSQL when the site runs on it so that every server counts together.

const CLIENT_WINDOW_SECONDS = 10 * 60;
const ACCOUNT_WINDOW_SECONDS = 15 * 60;
const ACCOUNT_FAILURES = 10;

const pool = () => (getDialect() === "postgres" ? getPgPool() : undefined);

const perClient = createRateLimiter(() => ({
  points: getEnv().SIGN_IN_RATE_LIMIT,
  windowSeconds: CLIENT_WINDOW_SECONDS,
  keyPrefix: "sign-in-client",
  tableName: "admin_sign_in_limits",
  pool: pool(),
}));

const perAccount = createRateLimiter(() => ({
  points: getEnv().SIGN_IN_RATE_LIMIT === 0 ? 0 : ACCOUNT_FAILURES,
  windowSeconds: ACCOUNT_WINDOW_SECONDS,
  keyPrefix: "sign-in-account",
  tableName: "admin_sign_in_limits",
  pool: pool(),
}));

/** Counts one sign-in attempt from this client, and refuses it while `account` has failed too often. */
export async function allowSignInAttempt(context: AppLoadContext, account?: string): Promise<RateLimitDecision> {
  const client = await perClient.consume(rateLimitKey(context.clientIp), context.requestId);
  if (!client.allowed || !account) return client;
  return perAccount.check(account, context.requestId);
}

/** Counts a failed attempt against the account it named. */
export async function countFailedSignIn(context: AppLoadContext, account: string): Promise<void> {
  await perAccount.consume(account, context.requestId);
}

/** The words a person sees when refused for going over a limit. */
export function tooManyAttempts(decision: { retryAfterSeconds: number }): string {
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
