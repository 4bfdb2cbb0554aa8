import proxyAddr from "proxy-addr";
import { z } from "zod";
import { isRole, ROLES, type Role } from "~/config/roles";
import { LEAD_FORM_IDS } from "~/features/leads/registry";
import { webhookSettingOf, type WebhookSetting } from "~/features/leads/registry.server";
import { parseSiteLocales } from "~/features/i18n/site-locales";

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

/** https, or http to this machine only (a purge carries the CDN's token). */
function isPurgeUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return true; // not a URL at all: the url check reports it
  }
}

/** An email address, optionally with a display name: `Quorvant Website <website@quorvant.com>`. */
const MAILBOX = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;
const mailbox = z.string().trim().regex(MAILBOX, "must be an email address, optionally with a name: Name <address@example.com>");
const mailboxList = z
  .string()
  .refine((value) => value.split(",").every((entry) => MAILBOX.test(entry.trim())), {
    message: "must be comma-separated email addresses",
  })
  .transform((value) => value.split(",").map((entry) => entry.trim()));

/**
 * https, or plain http only to this machine. Zod runs refinements even when the URL check failed,
 * so a value that is no URL at all passes here and is reported by that check alone.
 */
function isHttpsOrLocal(value: string): boolean {
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}
const HTTPS_OR_LOCAL = { message: "must use https:// (http:// only to localhost)" };

/** Webhooks go over https; plain http only to this machine (a local relay, the tests' receiver). */
const webhookUrl = z
  .url({ protocol: /^https?$/, message: "must be an absolute https:// URL" })
  .refine(isHttpsOrLocal, HTTPS_OR_LOCAL)
  .optional();

/** One optional WEBHOOK_URL_* per lead form (the registry names them). */
const webhookUrls = Object.fromEntries(LEAD_FORM_IDS.map((id) => [webhookSettingOf(id), webhookUrl])) as Record<
  WebhookSetting,
  typeof webhookUrl
>;

/** The identity provider's issuer: https, or http only on this machine (a provider run for a try-out or a test). */
const issuerUrl = z
  .url({ protocol: /^https?$/, message: "must be the provider's issuer URL, such as https://login.example.com" })
  .refine(isHttpsOrLocal, HTTPS_OR_LOCAL);

/** `group=role,group=role`: which of the provider's groups grant which back-office role. */
const groupRoles = z
  .string()
  .refine(
    (value) =>
      value.split(",").every((pair) => {
        const [group, role, ...rest] = pair.split("=");
        return Boolean(group?.trim()) && isRole(role?.trim() ?? "") && rest.length === 0;
      }),
    { message: `must be comma-separated group=role pairs, each role one of ${ROLES.join(", ")}` },
  )
  .transform((value) =>
    value.split(",").map((pair) => {
      const [group, role] = pair.trim().split("=") as [string, string];
      return { group: group.trim(), role: role.trim() as Role };
    }),
  );

const domainList = z
  .string()
  .refine((value) => value.split(",").every((domain) => /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(domain.trim())), {
    message: "must be comma-separated email domains, such as quorvant.com",
  })
  .transform((value) => value.split(",").map((domain) => domain.trim().toLowerCase()));

/**
 * Strict-Transport-Security as sent over https: `max-age=SECONDS`, then optionally
 * `includeSubDomains` and `preload` (which the browsers' preload list requires with
 * includeSubDomains and at least a year), in any case; or `off`.
 */
const HstsSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value.toLowerCase() === "off") return null;
    const directives = value.split(";").map((directive) => directive.trim().toLowerCase());
    const maxAge = /^max-age=(\d{1,10})$/.exec(directives[0] ?? "");
    const flags = new Set(directives.slice(1));
    const known = [...flags].every((flag) => flag === "includesubdomains" || flag === "preload");
    if (!maxAge || !known || flags.size !== directives.length - 1) {
      ctx.addIssue({
        code: "custom",
        message: 'must be "max-age=SECONDS", optionally followed by "; includeSubDomains" and "; preload", or "off"',
      });
      return z.NEVER;
    }
    const hsts = { maxAge: Number(maxAge[1]), includeSubDomains: flags.has("includesubdomains"), preload: flags.has("preload") };
    if (hsts.preload && (!hsts.includeSubDomains || hsts.maxAge < 31_536_000)) {
      ctx.addIssue({
        code: "custom",
        message: "with preload must include includeSubDomains and a max-age of at least 31536000 (a year)",
      });
      return z.NEVER;
    }
    return hsts;
  });

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(3_600_000).default(fallback);

// Configuration, validated once at boot. Everything has a default except SITE_URL in production.
const EnvSchema = z
  .object({
    // The server always sets it (server.js); tools such as the CLIs run as development.
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    // Prometheus metrics on a listener of their own (server/metrics.ts), never on the public port;
    // unset, there is none. Loopback by default: only the machine's own scraper reaches it.
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
    DATABASE_URL: z
      .string()
      .default("file:./data/site.db")
      .refine((url) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(url), {
        message: "must be file:PATH (embedded SQLite) or postgres://… / postgresql://… (PostgreSQL)",
      }),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    SEED: z.enum(["auto", "never"]).default("auto"),
    // The languages the site is published in, the default first (app/features/i18n/site-locales.ts).
    SITE_LOCALES: z
      .string()
      .default("en,de")
      .transform((text, ctx) => {
        const read = parseSiteLocales(text);
        if (read.ok) return read.locales;
        ctx.addIssue({ code: "custom", message: read.problem });
        return z.NEVER;
      }),
    SITE_URL: z
      .url({ protocol: /^https?$/, message: "must be an absolute http(s) origin such as https://quorvant.com" })
      .refine(isBareOrigin, { message: "must be an origin without a path, query or fragment, such as https://quorvant.com" })
      .optional(),
    // Two years, subdomains included; preloading is the operator's decision (it is hard to undo).
    HSTS: HstsSchema.prefault("max-age=63072000; includeSubDomains"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    FORM_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    TRUST_PROXY: TrustProxySchema.optional(),
    // Node's own defaults hold a slow client for minutes; these cut it within the limit.
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
    // Longer than a load balancer's usual 60 s idle timeout, so the balancer always closes first.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(65_000),
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
    // Load shedding (server/load-shedding.ts): overloaded when uncached renders have queued without a
    // break for the interval; then one that waited longer than the delay is not rendered. 0 turns it off.
    LOAD_SHED_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
    LOAD_SHED_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
    // Uncached renders under way at once; the others wait in line.
    LOAD_SHED_RENDERS: z.coerce.number().int().min(1).max(64).default(2),
    // Page views counted per day, page, referring site and campaign (no cookie, nothing about the visitor).
    VISIT_COUNTING: z
      .enum(["on", "off"], { message: "must be on or off" })
      .default("on")
      .transform((value) => value === "on"),
    // How often each server adds the views it counted to the database.
    VISIT_FLUSH_MS: z.coerce.number().int().min(50).max(3_600_000).default(10_000),
    // Lead delivery: email through SMTP and signed webhooks, each optional.
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, message: "must be smtp://user:password@host:port (STARTTLS required) or smtps://… (TLS)" })
      .optional(),
    // smtp:// must upgrade with STARTTLS before it logs in or sends; only a mail server on a trusted
    // network (a relay on the same host) may be spoken to in the clear, and only when this says so.
    SMTP_ALLOW_CLEARTEXT: z
      .enum(["true", "false"], { message: "must be true or false" })
      .default("false")
      .transform((value) => value === "true"),
    MAIL_FROM: mailbox.optional(),
    SALES_EMAIL_TO: mailboxList.optional(),
    CAREERS_EMAIL_TO: mailboxList.optional(),
    ...webhookUrls,
    WEBHOOK_SECRET: z
      .string()
      .regex(
        /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/,
        "must be a Standard Webhooks secret: whsec_ followed by base64 (at least 12 bytes)",
      )
      .optional(),
    // 40 attempts, the waits doubling from 30 s up to an hour (less 20 % jitter at worst), keep trying for more than a day.
    DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(40),
    DELIVERY_RETRY_BASE_MS: milliseconds(30_000),
    DELIVERY_RETRY_MAX_MS: milliseconds(3_600_000),
    DELIVERY_TIMEOUT_MS: milliseconds(10_000),
    DELIVERY_LEASE_MS: milliseconds(60_000),
    DELIVERY_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
    DELIVERY_BACKLOG_LOG_MS: milliseconds(60_000),
    // While the server is busy with visitors, a delivery waits up to this long for a quieter moment.
    DELIVERY_MAX_DEFER_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
    // How long leads are kept (the privacy policy's promise): contact and demo requests from their
    // last interaction unless won, job applications from their decision. A daily job deletes the rest.
    RETENTION_SALES_MONTHS: z.coerce.number().int().min(1).max(120).default(24),
    RETENTION_APPLICATIONS_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
    // Where each server keeps the leads it accepted while the database could not be reached, until
    // they are stored (docs/decisions/014-lead-spool.md): its own disk, one directory per server.
    LEAD_SPOOL_DIR: z.string().trim().min(1).default("data/lead-spool"),
    // The spool's limit: past it a lead is refused (the visitor is told it failed). 64 MiB holds
    // thousands of leads; at least one largest form (64 KiB).
    LEAD_SPOOL_MAX_BYTES: z.coerce.number().int().min(65_536).max(1_099_511_627_776).default(67_108_864),
    // Where each server keeps the files it makes from uploaded images (the stored image and its
    // responsive variants); made on first use. Only a cache: the images themselves are in the database.
    MEDIA_CACHE_DIR: z.string().trim().min(1).default("data/media-cache"),
    // A CDN in front (docs/operations.md, "A CDN in front"): where purges of what a publish changed
    // are sent, with which secret, in which API's shape; and how long the CDN keeps a page meanwhile.
    CDN_PURGE_URL: z
      .url({ message: "must be the CDN's purge URL, such as https://api.fastly.com/service/SERVICE_ID/purge" })
      .refine(isPurgeUrl, { message: "must be an https URL (http only to a loopback address)" })
      .optional(),
    CDN_PURGE_TOKEN: z
      .string()
      .min(1)
      .refine((value) => value.trim() === value && !/[\r\n]/.test(value), {
        message: "must be one line without surrounding spaces",
      })
      .optional(),
    CDN_PURGE_STYLE: z.enum(["fastly", "cloudflare"], { message: "must be fastly or cloudflare" }).default("fastly"),
    CDN_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(86_400),
    // Signs private preview links of drafts and scheduled posts; without it there are no previews.
    PREVIEW_SECRET: z
      .string()
      .min(32, "must be at least 32 characters (openssl rand -hex 32 makes one)")
      .refine((value) => value.trim() === value, { message: "must not start or end with spaces" })
      .optional(),
    // The back office: sessions and sign-in.
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters (openssl rand -hex 32 makes one)").optional(),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(168).default(12),
    SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
    OIDC_ISSUER: issuerUrl.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).default("single sign-on"),
    OIDC_ALLOWED_DOMAINS: domainList.optional(),
    OIDC_GROUP_ROLES: groupRoles.optional(),
    OIDC_GROUPS_CLAIM: z.string().trim().min(1).default("groups"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SITE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message: "is required when NODE_ENV=production: set it to the public origin visitors use, such as https://quorvant.com",
      });
    }
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_FROM"],
        message: "is required with SMTP_URL: the address lead emails come from",
      });
    }
    for (const list of ["SALES_EMAIL_TO", "CAREERS_EMAIL_TO"] as const) {
      if (env[list] && !env.SMTP_URL) ctx.addIssue({ code: "custom", path: [list], message: "needs SMTP_URL to send through" });
    }
    const webhooks = LEAD_FORM_IDS.map((id) => env[webhookSettingOf(id)]);
    if (webhooks.some(Boolean) && !env.WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_SECRET"],
        message: "is required with a WEBHOOK_URL_*: receivers verify signatures with it",
      });
    }
    if (env.DELIVERY_TIMEOUT_MS >= env.DELIVERY_LEASE_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["DELIVERY_LEASE_MS"],
        message: "must exceed DELIVERY_TIMEOUT_MS, or a slow send could be claimed twice",
      });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      for (const [name, value] of [
        ["OIDC_ISSUER", env.OIDC_ISSUER],
        ["OIDC_CLIENT_ID", env.OIDC_CLIENT_ID],
        ["OIDC_CLIENT_SECRET", env.OIDC_CLIENT_SECRET],
      ] as const) {
        if (!value)
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "is required for single sign-on (set all three OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, or none)",
          });
      }
    }
    if (Boolean(env.OIDC_ALLOWED_DOMAINS) !== Boolean(env.OIDC_GROUP_ROLES)) {
      ctx.addIssue({
        code: "custom",
        path: [env.OIDC_ALLOWED_DOMAINS ? "OIDC_GROUP_ROLES" : "OIDC_ALLOWED_DOMAINS"],
        message: "goes with the other: people from OIDC_ALLOWED_DOMAINS get the roles OIDC_GROUP_ROLES maps their groups to",
      });
    }
    if (env.CDN_PURGE_URL && !env.CDN_PURGE_TOKEN) {
      ctx.addIssue({ code: "custom", path: ["CDN_PURGE_TOKEN"], message: "is required with CDN_PURGE_URL: the CDN's API token" });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: "custom",
        path: ["METRICS_PORT"],
        message: "must differ from PORT: metrics are never served on the public port",
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
    // One line per problem, each naming its variable.
    const problems = parsed.error.issues.map((issue) => `Invalid configuration: ${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(problems.join("\n"));
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
