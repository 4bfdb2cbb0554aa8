import type pg from "pg";
import { getDialect, getPgPool } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { createRateLimiter, rateLimitKey, type RateLimitDecision } from "~/platform/rate-limit.server";

// One budget per client for all forms together: FORM_RATE_LIMIT submissions a minute. Kept in
// memory on a single SQLite server; in PostgreSQL when the site runs on it, so several servers
// sharing the database share the budget (docs/decisions/005-form-rate-limit.md).

export { rateLimitKey, type RateLimitDecision };

const WINDOW_SECONDS = 60;

export type FormRateLimitOptions = {
  /** Submissions allowed per key per minute; 0 turns the limit off. */
  points: number;
  /** Keep the counts in PostgreSQL (table form_rate_limits) through this pool; in memory without one. */
  pool?: pg.Pool;
};

export type FormRateLimiter = {
  /** Counts one submission from `clientIp`. A broken limit store lets the post through (and logs). */
  consume: (clientIp: string, requestId: string) => Promise<RateLimitDecision>;
};

/**
 * A limiter whose store is created on first use from `options` (a function is called then, so
 * configuration and the database are read lazily), and created again after a store failure.
 */
export function createFormRateLimiter(options: FormRateLimitOptions | (() => FormRateLimitOptions)): FormRateLimiter {
  const limiter = createRateLimiter(() => ({
    ...(typeof options === "function" ? options() : options),
    windowSeconds: WINDOW_SECONDS,
    keyPrefix: "forms",
    tableName: "form_rate_limits",
  }));
  return { consume: (clientIp, requestId) => limiter.consume(rateLimitKey(clientIp), requestId) };
}

const serverLimiter = createFormRateLimiter(() => ({
  points: getEnv().FORM_RATE_LIMIT,
  pool: getDialect() === "postgres" ? getPgPool() : undefined,
}));

/** The server's limiter: FORM_RATE_LIMIT, stored where the server's database says. */
export function consumeFormSubmission(clientIp: string, requestId: string): Promise<RateLimitDecision> {
  return serverLimiter.consume(clientIp, requestId);
}
