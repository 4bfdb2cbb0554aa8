import ipaddr from "ipaddr.js";
import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { logger } from "~/platform/logger.server";

// Budgets per key over a window (rate-limiter-flexible): kept in memory on a single SQLite server,
// in PostgreSQL when the site runs on it, so several servers sharing the database share each budget.

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

export type RateLimitOptions = {
  /** Points allowed per key per window; 0 turns the limit off. */
  points: number;
  windowSeconds: number;
  /** Keeps budgets of different limits apart in one store. */
  keyPrefix: string;
  /** Keep the counts in PostgreSQL (in `tableName`) through this pool; in memory without one. */
  pool?: pg.Pool;
  tableName: string;
};

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** Counts one point against `key`. A broken store lets the request through (and logs). */
  consume: (key: string, requestId: string) => Promise<RateLimitDecision>;
  /** Whether `key` has used up its budget, without counting anything. */
  check: (key: string, requestId: string) => Promise<RateLimitDecision>;
};

function createStore({
  points,
  windowSeconds,
  keyPrefix,
  pool,
  tableName,
}: RateLimitOptions): Promise<RateLimiterAbstract | null> {
  if (points === 0) return Promise.resolve(null);
  const options = { points, duration: windowSeconds, keyPrefix };
  if (!pool) return Promise.resolve(new RateLimiterMemory(options));
  return new Promise((resolve, reject) => {
    const postgres: RateLimiterPostgres = new RateLimiterPostgres(
      { ...options, storeClient: pool, storeType: "pool", tableName, clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error) : resolve(postgres)),
    );
  });
}

const refused = (msBeforeNext: number): RateLimitDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
});

/**
 * A limiter whose store is created on first use from `options` (a function is called then, so
 * configuration and the database are read lazily), and created again after a store failure.
 */
export function createRateLimiter(options: RateLimitOptions | (() => RateLimitOptions)): RateLimiter {
  let store: Promise<RateLimiterAbstract | null> | undefined;
  let points = 0;
  const withStore = async (
    requestId: string,
    work: (active: RateLimiterAbstract) => Promise<RateLimitDecision>,
  ): Promise<RateLimitDecision> => {
    try {
      if (!store) {
        const resolved = typeof options === "function" ? options() : options;
        points = resolved.points;
        store = createStore(resolved);
      }
      const active = await store;
      return active ? await work(active) : { allowed: true };
    } catch (error) {
      if (error instanceof RateLimiterRes) return refused(error.msBeforeNext);
      store = undefined;
      logger.error({ requestId, err: error }, "rate limit store unavailable; request not limited");
      return { allowed: true };
    }
  };
  return {
    consume: (key, requestId) =>
      withStore(requestId, async (active) => {
        await active.consume(key);
        return { allowed: true };
      }),
    check: (key, requestId) =>
      withStore(requestId, async (active) => {
        const state = await active.get(key);
        return state && state.consumedPoints >= points ? refused(state.msBeforeNext) : { allowed: true };
      }),
  };
}
