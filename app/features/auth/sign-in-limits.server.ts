import type pg from "pg";
import type { AppLoadContext } from "react-router";
import { getDialect, getPgPool } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { createRateLimiter, rateLimitKey, type RateLimitDecision } from "~/platform/rate-limit.server";

// Sign-in attempts are limited per client address (SIGN_IN_RATE_LIMIT attempts per 10 minutes,
// every attempt counted) and per account (ACCOUNT_FAILURES failed attempts per 15 minutes), in
// PostgreSQL when the site runs on it so that every server counts together.
//
// A failure counts against an account only when whoever failed has proved they are that account
// (the identity provider signed them in, or they hold the invitation's link). Anything can be
// written in an unverified attempt (a passkey's credential id with a made-up signature): counted
// against the account, such attempts would let anyone lock anyone out. They count against the
// client's address only, and the person can still sign in.

const CLIENT_WINDOW_SECONDS = 10 * 60;
const ACCOUNT_WINDOW_SECONDS = 15 * 60;
const ACCOUNT_FAILURES = 10;

export type SignInLimits = {
  /**
   * Counts one sign-in attempt from this client address, and refuses it over the client's budget
   * or while `verifiedAccount` (an identity the attempt has proved) has failed too often.
   */
  allowAttempt: (context: Pick<AppLoadContext, "clientIp" | "requestId">, verifiedAccount?: string) => Promise<RateLimitDecision>;
  /** Counts a failure against an account the attempt proved to be (never one it merely named). */
  countVerifiedFailure: (context: Pick<AppLoadContext, "requestId">, verifiedAccount: string) => Promise<void>;
};

/** The limits with `points` attempts per client address (0: none), kept in PostgreSQL through `pool`, else in memory. */
export function createSignInLimits(options: () => { points: number; pool?: pg.Pool }): SignInLimits {
  const perClient = createRateLimiter(() => ({
    points: options().points,
    windowSeconds: CLIENT_WINDOW_SECONDS,
    keyPrefix: "sign-in-client",
    tableName: "admin_sign_in_limits",
    pool: options().pool,
  }));
  const perAccount = createRateLimiter(() => ({
    points: options().points === 0 ? 0 : ACCOUNT_FAILURES,
    windowSeconds: ACCOUNT_WINDOW_SECONDS,
    keyPrefix: "sign-in-account",
    tableName: "admin_sign_in_limits",
    pool: options().pool,
  }));
  return {
    async allowAttempt(context, verifiedAccount) {
      const client = await perClient.consume(rateLimitKey(context.clientIp), context.requestId);
      if (!client.allowed || !verifiedAccount) return client;
      return perAccount.check(verifiedAccount, context.requestId);
    },
    async countVerifiedFailure(context, verifiedAccount) {
      await perAccount.consume(verifiedAccount, context.requestId);
    },
  };
}

const serverLimits = createSignInLimits(() => ({
  points: getEnv().SIGN_IN_RATE_LIMIT,
  pool: getDialect() === "postgres" ? getPgPool() : undefined,
}));

/**
 * Counts one sign-in attempt from this client, and refuses it while `verifiedAccount` has failed
 * too often. Name an account only once the attempt has proved it (see above).
 */
export function allowSignInAttempt(context: AppLoadContext, verifiedAccount?: string): Promise<RateLimitDecision> {
  return serverLimits.allowAttempt(context, verifiedAccount);
}

/** Counts a failed attempt against an account the attempt proved to be. */
export function countFailedSignIn(context: AppLoadContext, verifiedAccount: string): Promise<void> {
  return serverLimits.countVerifiedFailure(context, verifiedAccount);
}

/** The words a person sees when refused for going over a limit. */
export function tooManyAttempts(decision: { retryAfterSeconds: number }): string {
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
