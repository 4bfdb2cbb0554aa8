import proxyAddr from "proxy-addr";
import { z } from "zod";

/** Named address ranges Express understands in a trust-proxy list. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY is the number of proxies in front of the server, or the addresses (IPs, CIDRs,
 * `loopback`) those proxies connect from. "Trust everything" is refused: it would let any client
 * choose its own address, and with it its rate-limit budget.
 */
const TrustProxySchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (/^\d+$/.test(value)) {
      if (Number(value) < 1 || Number(value) > 10) ctx.addIssue({ code: "custom", message: "must be a hop count from 1 to 10" });
      return;
    }
    const entries = value.split(",").map((entry) => entry.trim());
    const bad = entries.filter((entry) => !PROXY_RANGE_NAMES.has(entry) && !isAddressOrCidr(entry));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be a hop count (such as 1) or a comma-separated list of proxy addresses, CIDRs or "loopback"; not ${bad.map((entry) => JSON.stringify(entry)).join(", ") || "empty"}`,
      });
    }
  });

function isAddressOrCidr(entry: string): boolean {
  if (entry === "") return false;
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

/** `https://quorvant.com` or `https://quorvant.com/`, nothing after the host. */
function isBareOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.pathname === "/" && !url.search && !url.hash;
  } catch {
    return true; // not a URL at all: the url check reports it
  }
}

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(3_600_000).default(fallback);

// Configuration, validated once at boot. Everything has a default except SITE_URL in production.
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_URL: z
      .string()
      .default("file:./data/site.db")
      .refine((url) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(url), {
        message: "must be file:PATH (embedded SQLite) or postgres://… / postgresql://… (PostgreSQL)",
      }),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    SEED: z.enum(["auto", "never"]).default("auto"),
    SITE_URL: z
      .url({ protocol: /^https?$/, message: "must be an absolute http(s) origin such as https://quorvant.com" })
      .refine(isBareOrigin, { message: "must be an origin without a path, query or fragment, such as https://quorvant.com" })
      .optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    FORM_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    TRUST_PROXY: TrustProxySchema.optional(),
    // Node's own defaults hold a slow client for minutes; these cut it within the limit.
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
    // Longer than a load balancer's usual 60 s idle timeout, so the balancer always closes first.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(65_000),
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SITE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message: "is required when NODE_ENV=production: set it to the public origin visitors use, such as https://quorvant.com",
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: "custom", path: ["HTTP_HEADERS_TIMEOUT_MS"], message: "must not exceed HTTP_REQUEST_TIMEOUT_MS" });
    }
  });

export type Env = z.infer<typeof EnvSchema> & { SITE_URL: string };

let cached: Env | undefined;

/** Parses the environment; throws one readable line naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable is an unset one (`SITE_URL=` in an env file).
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const env = parsed.data;
  // Outside production the site may describe itself as localhost.
  const siteUrl = env.SITE_URL ? new URL(env.SITE_URL).origin : `http://localhost:${env.PORT}`;
  return { ...env, SITE_URL: siteUrl };
}

export function getEnv(): Env {
  cached ??= loadEnv();
  return cached;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}
