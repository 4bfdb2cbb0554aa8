import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDialect, getPgPool } from "~/lib/db/index.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

// One budget per client IP for all forms together (DESIGN.md §3 FORM_RATE_LIMIT per minute).
// Kept in memory on a single SQLite server; in PostgreSQL when the site runs on it, so several
// servers sharing the database share the budget (docs/decisions/005-form-rate-limit.md).

const WINDOW_SECONDS = 60;

let limiter: Promise<RateLimiterAbstract | null> | undefined;

function createLimiter(): Promise<RateLimiterAbstract | null> {
  const points = getEnv().FORM_RATE_LIMIT;
  if (points === 0) return Promise.resolve(null);
  const options = { points, duration: WINDOW_SECONDS, keyPrefix: "forms" };
  const pool = getDialect() === "postgres" ? getPgPool() : undefined;
  if (!pool) return Promise.resolve(new RateLimiterMemory(options));
  return new Promise((resolve, reject) => {
    const postgres: RateLimiterPostgres = new RateLimiterPostgres(
      { ...options, storeClient: pool, storeType: "pool", tableName: "form_rate_limits", clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error) : resolve(postgres)),
    );
  });
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one submission from `clientIp`. A broken limit store lets the post through (and logs). */
export async function consumeFormSubmission(clientIp: string, requestId: string): Promise<RateLimitDecision> {
  try {
    limiter ??= createLimiter();
    const active = await limiter;
    if (!active) return { allowed: true };
    await active.consume(clientIp);
    return { allowed: true };
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
    }
    limiter = undefined;
    logger.error({ requestId, err: error }, "form rate limit store unavailable; submission not limited");
    return { allowed: true };
  }
}
