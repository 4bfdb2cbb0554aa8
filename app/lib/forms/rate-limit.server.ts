import ipaddr from "ipaddr.js";
import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDialect, getPgPool } from "~/lib/db/index.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

// One budget per client for all forms together: FORM_RATE_LIMIT submissions a minute. Kept in
// memory on a single SQLite server; in PostgreSQL when the site runs on it, so several servers
// sharing the database share the budget (docs/decisions/005-form-rate-limit.md).

const WINDOW_SECONDS = 60;

/** Bits of an IPv6 address that name one subscriber's network: providers hand out a /64 (or shorter) each. */
const IPV6_SUBSCRIBER_PREFIX = 64;

/**
 * The budget a client address counts against. An IPv4 address is its own key. An IPv6 client
 * controls at least the 2^64 addresses of its /64, so the /64 is the key (`2001:db8:1:2::/64`);
 * an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a dual-stack socket reports for an IPv4
 * client) is keyed as that IPv4 address. Anything unparseable is used as it is.
 */
export function rateLimitKey(address: string): string {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (!ipaddr.IPv6.isValid(address)) return address;
  const ipv6 = ipaddr.IPv6.parse(address);
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  const words = IPV6_SUBSCRIBER_PREFIX / 16;
  const network = new ipaddr.IPv6([...ipv6.parts.slice(0, words), ...Array<number>(8 - words).fill(0)]);
  return `${network.toString()}/${IPV6_SUBSCRIBER_PREFIX}`;
}

export type FormRateLimitOptions = {
  /** Submissions allowed per key per minute; 0 turns the limit off. */
  points: number;
  /** Keep the counts in PostgreSQL (table form_rate_limits) through this pool; in memory without one. */
  pool?: pg.Pool;
};

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type FormRateLimiter = {
  /** Counts one submission from `clientIp`. A broken limit store lets the post through (and logs). */
  consume: (clientIp: string, requestId: string) => Promise<RateLimitDecision>;
};

function createStore({ points, pool }: FormRateLimitOptions): Promise<RateLimiterAbstract | null> {
  if (points === 0) return Promise.resolve(null);
  const options = { points, duration: WINDOW_SECONDS, keyPrefix: "forms" };
  if (!pool) return Promise.resolve(new RateLimiterMemory(options));
  return new Promise((resolve, reject) => {
    const postgres: RateLimiterPostgres = new RateLimiterPostgres(
      { ...options, storeClient: pool, storeType: "pool", tableName: "form_rate_limits", clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error) : resolve(postgres)),
    );
  });
}

/**
 * A limiter whose store is created on first use from `options` (a function is called then, so
 * configuration and the database are read lazily), and created again after a store failure.
 */
export function createFormRateLimiter(options: FormRateLimitOptions | (() => FormRateLimitOptions)): FormRateLimiter {
  let store: Promise<RateLimiterAbstract | null> | undefined;
  return {
    async consume(clientIp, requestId) {
      try {
        store ??= createStore(typeof options === "function" ? options() : options);
        const active = await store;
        if (!active) return { allowed: true };
        await active.consume(rateLimitKey(clientIp));
        return { allowed: true };
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
        }
        store = undefined;
        logger.error({ requestId, err: error }, "form rate limit store unavailable; submission not limited");
        return { allowed: true };
      }
    },
  };
}

const serverLimiter = createFormRateLimiter(() => ({
  points: getEnv().FORM_RATE_LIMIT,
  pool: getDialect() === "postgres" ? getPgPool() : undefined,
}));

/** The server's limiter: FORM_RATE_LIMIT, stored where the server's database says. */
export function consumeFormSubmission(clientIp: string, requestId: string): Promise<RateLimitDecision> {
  return serverLimiter.consume(clientIp, requestId);
}
